// Shared bench helpers: timing child processes, medians, peak memory, markdown tables.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export const NODE = process.execPath;

/** Runs a command `runs` times; returns the median wall time in ms and the last result. */
export function timeCommand(cmd, args, { runs = 3, cwd, env } = {}) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = spawnSync(cmd, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', maxBuffer: 1 << 30 });
    times.push(performance.now() - t0);
    if (last.status !== 0 && last.status !== 1) {
      throw new Error(`${cmd} ${args.join(' ')} exited ${last.status}: ${last.stderr?.slice(0, 2000)}`);
    }
  }
  return { ms: median(times), result: last };
}

/** Peak RSS (KiB) of a node child via /usr/bin/time when present, else undefined. */
export function peakRss(args, { cwd, env } = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', NODE, ...args], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) return undefined;
  const lines = r.stderr.trim().split('\n');
  const kib = Number(lines[lines.length - 1]);
  return Number.isFinite(kib) ? kib : undefined;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

export function ratio(a, b) {
  return `${(a / b).toFixed(2)}x`;
}

export function mdTable(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
