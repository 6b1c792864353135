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

/**
 * Times several commands in rounds (each round runs every entry once, in order), so that the
 * drift of a shared machine over the minutes of a run weighs on every entry alike. Returns, per
 * entry, the median wall time in ms, every time, and the last result. `entry.before` runs
 * untimed before each of its runs (e.g. a fresh store); `entry.args` may be a function, called
 * after `before` (e.g. to name that store).
 */
export function timeRounds(entries, rounds) {
  const out = entries.map(() => ({ times: [], result: undefined }));
  for (let r = 0; r < rounds; r++) {
    entries.forEach((e, i) => {
      e.before?.();
      const t = timeCommand(e.cmd, typeof e.args === 'function' ? e.args() : e.args, { runs: 1, cwd: e.cwd, env: e.env });
      out[i].times.push(t.ms);
      out[i].result = t.result;
    });
  }
  return out.map((o) => ({ ms: median(o.times), times: o.times, result: o.result }));
}

/** "8.12 s (7.95 s to 8.60 s)": the median and the range of a timeRounds entry. */
export function fmtRange(t) {
  if (t.times.length < 2) return fmtMs(t.ms);
  return `${fmtMs(t.ms)} (${fmtMs(Math.min(...t.times))} to ${fmtMs(Math.max(...t.times))})`;
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

/**
 * "0.74x (0.70x to 0.79x)": the median over rounds of base time / time, each ratio taken within
 * one round of timeRounds (`base` and `t` entries of the same call), and its range. On a shared
 * machine whose speed drifts over minutes, a ratio within a round (the two runs a few seconds
 * apart) moves much less than the ratio of two medians taken across all rounds.
 */
export function roundRatio(base, t) {
  const ratios = base.times.map((b, i) => b / t.times[i]);
  const fmt = (x) => `${x.toFixed(2)}x`;
  if (ratios.length < 2) return fmt(ratios[0]);
  return `${fmt(median(ratios))} (${fmt(Math.min(...ratios))} to ${fmt(Math.max(...ratios))})`;
}

export function mdTable(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
