/**
 * What was worked out from a text, kept for the next caller that asks about the same text: rules
 * ask about one session's messages and outputs many times over. A harvest reads millions of
 * texts, so the cache is emptied whenever its keys would hold more than `maxEntries` texts or
 * `maxChars` characters (the keys are the texts themselves, kept alive while cached): memory
 * stays flat however long the run, and a session's own repeats still hit.
 */
export class TextCache<V> {
  private map = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars = 4_000_000,
  ) {}

  /** The value for `key`, made by `make` when not cached (`make` must be pure; an undefined
   * value is never kept, so it is made again each time). */
  get(key: string, make: (key: string) => V): V {
    let value = this.map.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.map.size >= this.maxEntries || this.chars + key.length > this.maxChars) {
        this.map.clear();
        this.chars = 0;
      }
      this.map.set(key, value);
      this.chars += key.length;
    }
    return value;
  }
}
