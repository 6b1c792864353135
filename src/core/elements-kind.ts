/**
 * An empty list of the elements kind V8 gives a filled list of strings or objects
 * (PACKED_ELEMENTS). A list that is sometimes empty and sometimes not otherwise has one hidden
 * class when empty (a `[]` literal, an empty `map` or `filter` result) and another when filled,
 * and a function optimized on one kind is thrown away and compiled again when the other comes
 * ("wrong map" deopts, several per rule over a long harvest). Elements kinds only ever widen,
 * so the list keeps its kind once its placeholder is popped. Fill it with push, not map.
 */
export function emptyList<T>(): T[] {
  const list: T[] = [undefined as T];
  list.pop();
  return list;
}
