/** A one-line progress indicator on an interactive stderr; silent in CI and when piped. */
export function progressReporter(label: string): ((done: number, total: number) => void) & { done: () => void } {
  const active = Boolean(process.stderr.isTTY) && !process.env.CI;
  let last = 0;
  const report = (done: number, total: number): void => {
    if (!active) return;
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    const width = 24;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
  return Object.assign(report, {
    done: () => {
      if (active) process.stderr.write('\r\u001b[2K');
    },
  });
}
