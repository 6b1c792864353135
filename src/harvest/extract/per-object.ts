/**
 * `compute` kept per object, for as long as the object lives: rules and the selection ask for
 * the same things derived from one session's view, event list, step or prompt, none of which
 * changes once built. An undefined result is kept too.
 */
export function perObject<K extends object, T>(compute: (key: K) => T): (key: K) => T {
  const cache = new WeakMap<K, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined && !cache.has(key)) {
      value = compute(key);
      cache.set(key, value);
    }
    return value as T;
  };
}
