/**
 * Copies plain data (objects, arrays, strings, numbers, booleans, null, undefined) from one
 * thread to another faster than structured clone, which postMessage uses. Reading sessions on a
 * worker thread paid more for the copy than it saved: over the 1 GB bench corpus the main thread
 * spent about 3.3 s deserializing what a worker read (a CPU profile's "(program)"), mostly making
 * objects (the deserializer looks up every key of every object again) and strings one by one.
 *
 * Here a value becomes flat parts that postMessage copies in a few large pieces:
 * - `ops` (moved, not copied): a tag per value, with the number, array length or object shape
 *   that follows it, and `lengths` (moved): the length of each string;
 * - `narrow` and `wide`: every string, joined: ASCII ones in `narrow`, which stays a compact
 *   one-byte string, the others in `wide`; each is taken back out with one `substring`;
 * - `shapes`: the key lists of the objects, each sent once; on the receiving side an object of a
 *   known shape is made by one compiled object literal (V8's fast path), not key by key.
 * The result equals what structured clone gives for plain data: the same keys in the same order,
 * the same values (strings as they were, lone surrogates included). Anything else (a class
 * instance, a Map, a function, a symbol) makes encode throw, and the caller falls back to
 * structured clone. A string taken out of `narrow` or `wide` may keep the joined string alive
 * (V8 slices long substrings); the values of one message are used and dropped together here.
 */

const enum Tag {
  Narrow = 0,
  Wide = 1,
  Number = 2,
  True = 3,
  False = 4,
  Null = 5,
  Undefined = 6,
  Array = 7,
  Object = 8,
}

export interface PackedData {
  ops: Float64Array;
  lengths: Uint32Array;
  narrow: string;
  wide: string;
  shapes: string[][];
}

/** The buffers of `packed`, for postMessage's transfer list (moved, not copied). */
export function transferablesOf(packed: PackedData): ArrayBuffer[] {
  return [packed.ops.buffer as ArrayBuffer, packed.lengths.buffer as ArrayBuffer];
}

/** A growing Float64Array: pushing to a number[] of mixed small integers and doubles cost more. */
class Ops {
  buf = new Float64Array(1024);
  n = 0;
  push(x: number): void {
    if (this.n === this.buf.length) {
      const bigger = new Float64Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.n++] = x;
  }
}

/** Whether every character of `s` is ASCII: a short string is checked here, a long one by
 * Buffer.byteLength (native, fast per character, but a call costs as much as a short loop). */
function isAscii(s: string): boolean {
  const n = s.length;
  if (n > 32) return Buffer.byteLength(s, 'utf8') === n;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A shape seen before, found again without joining its keys. */
interface Shape {
  keys: string[];
  id: number;
}

/** Shapes remembered per first key: events of every kind start with `index`, so one per key
 * made most objects miss and join their keys to look the shape up. */
const SHAPES_PER_FIRST_KEY = 8;

export function encodePlain(value: unknown): PackedData {
  const ops = new Ops();
  const lengths: number[] = [];
  const narrow: string[] = [];
  const wide: string[] = [];
  const shapes: string[][] = [];
  const shapeIds = new Map<string, number>();
  const recent = new Map<string, Shape[]>();
  const shapeOf = (keys: string[]): number => {
    const first = keys.length > 0 ? keys[0]! : '';
    let seen = recent.get(first);
    if (seen) {
      for (const r of seen) {
        if (r.keys.length !== keys.length) continue;
        let same = true;
        for (let i = 1; i < keys.length; i++) {
          if (r.keys[i] !== keys[i]) {
            same = false;
            break;
          }
        }
        if (same) return r.id;
      }
    } else recent.set(first, (seen = []));
    const signature = keys.join('\0');
    let id = shapeIds.get(signature);
    if (id === undefined) {
      id = shapes.length;
      shapes.push(keys);
      shapeIds.set(signature, id);
    }
    if (seen.length < SHAPES_PER_FIRST_KEY) seen.push({ keys, id });
    else seen[id % SHAPES_PER_FIRST_KEY] = { keys, id };
    return id;
  };
  const visit = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        if (isAscii(v)) {
          ops.push(Tag.Narrow);
          narrow.push(v);
        } else {
          ops.push(Tag.Wide);
          wide.push(v);
        }
        lengths.push(v.length);
        return;
      case 'number':
        ops.push(Tag.Number);
        ops.push(v);
        return;
      case 'boolean':
        ops.push(v ? Tag.True : Tag.False);
        return;
      case 'undefined':
        ops.push(Tag.Undefined);
        return;
      case 'object': {
        if (v === null) {
          ops.push(Tag.Null);
          return;
        }
        if (Array.isArray(v)) {
          ops.push(Tag.Array);
          ops.push(v.length);
          for (let i = 0; i < v.length; i++) visit(v[i]);
          return;
        }
        const proto: unknown = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) break;
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o);
        ops.push(Tag.Object);
        ops.push(shapeOf(keys));
        // for-in, not o[keys[i]]: V8 reads a property by the for-in key from the object's own
        // layout, where a load by a key from an array goes through a generic lookup (the
        // largest part of encoding). The same keys in the same order for a plain object;
        // one with enumerable inherited keys is refused.
        let n = 0;
        for (const k in o) {
          visit(o[k]);
          n++;
        }
        if (n !== keys.length) throw new TypeError('not plain data: enumerable inherited keys');
        return;
      }
    }
    throw new TypeError(`not plain data: ${typeof v === 'object' ? Object.prototype.toString.call(v) : typeof v}`);
  };
  visit(value);
  return { ops: ops.buf.slice(0, ops.n), lengths: Uint32Array.from(lengths), narrow: narrow.join(''), wide: wide.join(''), shapes };
}

type Next = () => unknown;
type Factory = (next: Next) => Record<string, unknown>;

/** Compiled object literals by shape, kept across messages (a reader makes few shapes). */
const factories = new Map<string, Factory>();
/** Shapes beyond this many are built key by key: tool inputs can have any keys. */
const MAX_FACTORIES = 2000;

function factoryFor(keys: readonly string[]): Factory {
  const signature = keys.join('\0');
  let f = factories.get(signature);
  if (f) return f;
  if (factories.size < MAX_FACTORIES && !keys.includes('__proto__')) {
    // the literal evaluates its values in key order, the order they were encoded in
    f = new Function('next', `return {${keys.map((k) => `${JSON.stringify(k)}: next()`).join(', ')}};`) as Factory;
    factories.set(signature, f);
    return f;
  }
  return (next) => {
    const o: Record<string, unknown> = {};
    for (const k of keys) Object.defineProperty(o, k, { value: next(), enumerable: true, writable: true, configurable: true });
    return o;
  };
}

export function decodePlain(packed: PackedData): unknown {
  const { ops, lengths, narrow, wide } = packed;
  const made = packed.shapes.map(factoryFor);
  let op = 0;
  let str = 0;
  let narrowAt = 0;
  let wideAt = 0;
  const next: Next = () => {
    const tag = ops[op++] as Tag;
    switch (tag) {
      case Tag.Narrow: {
        const end = narrowAt + lengths[str++]!;
        const s = narrow.substring(narrowAt, end);
        narrowAt = end;
        return s;
      }
      case Tag.Wide: {
        const end = wideAt + lengths[str++]!;
        const s = wide.substring(wideAt, end);
        wideAt = end;
        return s;
      }
      case Tag.Number:
        return ops[op++];
      case Tag.True:
        return true;
      case Tag.False:
        return false;
      case Tag.Null:
        return null;
      case Tag.Undefined:
        return undefined;
      case Tag.Array: {
        const n = ops[op++]!;
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = next();
        return a;
      }
      case Tag.Object:
        return made[ops[op++]!]!(next);
    }
    throw new Error(`corrupt packed data: tag ${String(tag)} at ${op - 1}`);
  };
  return next();
}
