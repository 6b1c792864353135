/**
 * A structural scan of JSON text that reports where values start and end, without building them.
 * Pretty-printed transcripts (Gemini CLI chats, Hermes session logs) need the source line of each
 * message, which JSON.parse cannot give; and when such a file is cut short mid-write, the scan
 * still finds every complete message so the reader can parse them one by one.
 */

export type JsonPath = readonly (string | number)[];

/**
 * Calls `onValue(path, start, end)` for every complete value whose path has at most `maxDepth`
 * segments, after the value ends (`end` is exclusive). Containers are reported after their
 * children. Returns true when the whole text was one well-formed value (trailing whitespace
 * allowed); false when it stopped early (truncated or malformed) — values reported so far stand.
 */
export function scanJson(
  text: string,
  maxDepth: number,
  onValue: (path: JsonPath, start: number, end: number) => void,
): boolean {
  const n = text.length;
  const path: (string | number)[] = [];
  const starts: number[] = [];
  const isArray: boolean[] = [];
  const hasKey: boolean[] = [];
  // 0 = expect value, 1 = expect key (or '}'), 2 = expect ',' or a closing bracket
  let state = 0;
  let i = 0;
  let done = false;
  // `i`, `state` and `done` are plain locals, not captured by a closure: V8 keeps them in
  // registers then, and this loop runs once per character of the file.
  const stacks: Stacks = { path, starts, isArray, hasKey };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    }
    if (done) return false; // something after the top-level value
    if (state === 1) {
      if (c === 0x7d /* } */) {
        i++;
        if (closeValue(stacks, i, maxDepth, onValue)) done = true;
        state = 2;
        continue;
      }
      if (c !== 0x22) return false;
      const end = stringEnd(text, i);
      if (end < 0) return false;
      const raw = text.slice(i + 1, end - 1);
      let key: string;
      if (raw.includes('\\')) {
        try {
          key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          return false;
        }
      } else key = raw;
      i = end;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) !== 0x3a /* : */) return false;
      i++;
      path.push(key);
      hasKey[hasKey.length - 1] = true;
      state = 0;
      continue;
    }
    if (state === 2) {
      if (c === 0x2c /* , */) {
        i++;
        if (isArray[isArray.length - 1]) {
          (path[path.length - 1] as number)++;
          state = 0;
        } else {
          path.pop();
          hasKey[hasKey.length - 1] = false;
          state = 1;
        }
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        if ((c === 0x5d) !== isArray[isArray.length - 1]) return false;
        i++;
        if (closeValue(stacks, i, maxDepth, onValue)) done = true;
        state = 2;
        continue;
      }
      return false;
    }
    // state 0: a value
    if (c === 0x7b /* { */) {
      starts.push(i);
      isArray.push(false);
      hasKey.push(false);
      i++;
      state = 1;
      continue;
    }
    if (c === 0x5b /* [ */) {
      starts.push(i);
      isArray.push(true);
      path.push(0);
      i++;
      state = 0;
      // an empty array closes right away
      let j = i;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 0x5d) {
        i = j;
        i++;
        if (closeValue(stacks, i, maxDepth, onValue)) done = true;
        state = 2;
      }
      continue;
    }
    const start = i;
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) return false;
      i = end;
    } else {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
        i++;
      }
      if (i === n && starts.length > 0) return false; // a number cut off at the end
    }
    if (path.length <= maxDepth) onValue(path, start, i);
    state = 2;
    if (starts.length === 0) done = true;
  }
  return done;
}

interface Stacks {
  path: (string | number)[];
  starts: number[];
  isArray: boolean[];
  hasKey: boolean[];
}

/** Pops the container that ends just before `end` and reports it; true when it was the
 * top-level value. */
function closeValue(
  s: Stacks,
  end: number,
  maxDepth: number,
  onValue: (path: JsonPath, start: number, end: number) => void,
): boolean {
  const arr = s.isArray.pop()!;
  if (arr || s.hasKey.pop()) s.path.pop();
  const start = s.starts.pop()!;
  if (s.path.length <= maxDepth) onValue(s.path, start, end);
  return s.starts.length === 0;
}

/** Exactly the characters the regex `\s` matches (JSON itself allows only the first four). */
function isSpace(c: number): boolean {
  if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0b || c === 0x0c) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Offset just past the closing quote of the string starting at `i`, or -1 if unterminated. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q === -1) return -1;
    let bs = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 0x5c; k--) bs++;
    if (bs % 2 === 0) return q + 1;
    j = q + 1;
  }
}
