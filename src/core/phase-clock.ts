/**
 * Where a long command's wall-clock time went, phase by phase (`compound harvest --timings`):
 * each mark ends the phase named by it, which began at the mark before (the first at process
 * start: Node's start-up and module loading). For the nightly job's log and for performance work.
 */
export class PhaseClock {
  private readonly marks: { name: string; at: number }[] = [];

  /** `now`: milliseconds since the process started (tests give their own). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Ends the phase `name` now. */
  mark(name: string): void {
    this.marks.push({ name, at: this.now() });
  }

  /** "start-up 190 ms, walk 150 ms, …, total 20.4 s". */
  summary(): string {
    let before = 0;
    const parts = this.marks.map(({ name, at }) => {
      const part = `${name} ${formatMs(at - before)}`;
      before = at;
      return part;
    });
    return [...parts, `total ${formatMs(before)}`].join(', ');
  }
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
