/**
 * V8 settings for the long batch commands (harvest, and reading many transcripts): each measured
 * on the 1 GB bench corpus, each left alone when the user set the flag themselves.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler inlines callees into a hot function up to 920 bytes of their bytecode
 * in all (`--max-inlined-bytecode-size-cumulative`). The harvest's rules are many mid-sized
 * functions calling shared helpers, and its compiles run on background threads that take the
 * cores the harvest workers need: over a 1 GB harvest on 2 cores they used about 6 of the
 * process's 25 s of CPU (per-thread times from /proc; 1.4 s with concurrent compilation off).
 * Half the default (EARLIER_INLINING_BUDGET) compiled smaller code that ran as fast: 1 GB harvest
 * A/B in alternating fresh processes, the flag on the command line 1.07x (1.05x-1.07x, 4 rounds)
 * and 1.10x (1.01x-1.20x, 6 rounds), set by the CLI 1.04x (0.96x-1.08x, 6 rounds); the readers
 * alone showed no difference either way.
 */
export const EARLIER_INLINING_BUDGET = 460;

/**
 * The budget on V8 11, measured with PHASES_OFF set too: each step down was faster. 100 MB
 * corpus, alternating pairs of fresh processes, as node flags: 300 against 460 4.32 s vs 4.38 s
 * wall, 8.03 s vs 8.26 s CPU (5 pairs, all faster); 200 against 300 4.24 s vs 4.37 s, 7.87 s vs
 * 8.00 s (5, all faster); 120 against 200 4.17 s vs 4.25 s, 7.75 s vs 7.90 s (5, all faster); 700
 * against 460 slower in every pair. 1 GB corpus (scripts/harvest-ab.mjs): 200 against 460 1.012x
 * (1.000x-1.114x, 4 rounds, none slower), 120 against 200 1.053x (0.986x-1.056x, 4 rounds, 3
 * faster). Harvest output unchanged.
 */
export const HARVEST_INLINING_BUDGET = 120;

const FLAG = '--max-inlined-bytecode-size-cumulative';

/**
 * TurboFan phases turned off for the harvest: loop peeling (a copy of each hot loop's first
 * iteration, so more code to compile) and escape analysis, two of its costlier phases. A harvest
 * compiles the readers and the rules once per worker thread, with both workers' compiles taking
 * the cores the workers need (about 5 s of a 1 GB harvest's 35 s of CPU on 2 cores: per-thread
 * times with and without concurrent recompilation), and on smaller corpora that warm-up is most
 * of the run (over the 100 MB bench corpus two workers finish no sooner than one). 100 MB
 * corpus, two workers, 6 alternating pairs of fresh processes: as node flags 4.26 s against
 * 4.50 s wall, 7.95 s against 8.49 s of CPU, faster in every pair (each flag alone about half of
 * that), set by the CLI 3.95 s against 4.27 s. 1 GB corpus, where the warm-up is a smaller part:
 * set by the CLI 1.042x (1.006x-1.045x, faster in all 6 rounds, scripts/harvest-ab.mjs).
 * ../shared/transcripts (9 MB): the same either way (1.07-1.21 s). Harvest output unchanged.
 */
const PHASES_OFF = ['--no-turbo-loop-peeling', '--no-turbo-escape'] as const;

/** The V8 major on which PHASES_OFF and HARVEST_INLINING_BUDGET were measured (Node 20); later
 * V8s keep their own pipeline and the earlier budget until measured there. */
const MEASURED_ON_V8 = 11;

/** The V8 flags tuneCompilerForBatchWork sets, given the V8 major and which flags the user set. */
export function batchCompilerFlags(v8Major: number, userSet: (flag: string) => boolean): string[] {
  if (!KNOWN_V8_MAJORS.includes(v8Major)) return [];
  const measured = v8Major === MEASURED_ON_V8;
  const budget = measured ? HARVEST_INLINING_BUDGET : EARLIER_INLINING_BUDGET;
  const flags = userSet(FLAG) ? [] : [`${FLAG}=${budget}`];
  if (!measured) return flags;
  for (const off of PHASES_OFF) {
    const on = off.replace('--no-', '--');
    if (!userSet(off) && !userSet(on)) flags.push(off);
  }
  return flags;
}

/** V8 majors known to have the flag (Node 20 to 24: V8 11.3 to 13.6). V8 prints "unrecognized
 * flag" to stderr for a flag it lacks, so a later V8 is left as it is until checked. */
const KNOWN_V8_MAJORS = [11, 12, 13];

/** Whether the user set `flag` on the command line or in NODE_OPTIONS (then it stays theirs).
 * `--turbo-escape` is not taken for a prefix of `--turbo-escape-x`: the name must end there. */
function userSets(flag: string): boolean {
  const named = (a: string): boolean => a === flag || a.startsWith(`${flag}=`);
  return process.execArgv.some(named) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(named);
}

/**
 * Applies the harvest's compiler settings (batchCompilerFlags) to every isolate of the process:
 * V8's flags are process-wide and read at each compile, so the worker threads started afterwards
 * and the code compiled from now on use them. For long batch commands only, before their workers
 * start.
 */
export function tuneCompilerForBatchWork(): void {
  for (const flag of batchCompilerFlags(Number(process.versions.v8.split('.')[0]), userSets)) setFlagsFromString(flag);
}

const PRETENURING = 'allocation-site-pretenuring';

/**
 * Turns off V8's allocation-site pretenuring for the whole process (every isolate, from now on),
 * for commands that read many transcripts. V8 allocates the objects of an object literal straight
 * in the old generation once most of them have outlived two scavenges, and it never goes back:
 * objects born old leave no sign that they would have died young. The readers build their events
 * with shared helpers (sessions/events.ts), and an Aider file keeps its thousands of events until
 * its last line, so its part of a corpus gets those helpers pretenured (10 sites over the 1 GB
 * corpus's Aider part, `--trace-pretenuring`). Every event read after it was then born old and
 * kept the young strings it points to alive through each scavenge until the next full GC: the
 * Claude Code part read after the Aider part promoted 228 MB where it promoted 92 MB alone
 * (`--trace-gc-nvp`), and its scavenges took 238 ms instead of 175. With pretenuring off, the
 * Aider part itself scavenges a little more (about 200 ms instead of 125), the rest much less.
 */
export function stopPretenuringForBatchReading(): void {
  if (pretenuringStopped || userSets(`--${PRETENURING}`) || userSets(`--no-${PRETENURING}`)) return;
  pretenuringStopped = true;
  setFlagsFromString(`--no-${PRETENURING}`);
}

let pretenuringStopped = false;

const GROWING = '--heap-growing-percent';

/** While transcripts are read on a thread, its old generation is not fully collected before it
 * holds about this much (see holdOldGenerationFloor). */
export const READING_OLD_GENERATION_FLOOR = 128 * 1024 * 1024;

/** How often (in files) a batch read looks at the heap again. */
const FLOOR_CHECK_FILES = 64;

/** The largest growing percent set (a limit 11 times what survived the last full GC). */
const MAX_GROWING_PERCENT = 1000;

/**
 * The `--heap-growing-percent` that puts the next full GC's limit at about
 * READING_OLD_GENERATION_FLOOR when the old generation holds `oldBytes` (live, and dead since
 * the last full GC: what survives the GC is at most that, so the limit is at most the floor), in
 * whole hundreds so that the flag changes only when the heap changed much; 0 (V8's own sizing)
 * once the old generation holds half the floor or more.
 */
export function growingPercentFor(oldBytes: number): number {
  const multiple = READING_OLD_GENERATION_FLOOR / Math.max(oldBytes, 1);
  return multiple >= 2 ? Math.min(MAX_GROWING_PERCENT, Math.floor(multiple - 1) * 100) : 0;
}

let floorHolders = 0;
let growingPercent = 0;

/** The growing percent this module set last (0: V8's own sizing). */
export function currentGrowingPercent(): number {
  return growingPercent;
}

/**
 * Keeps V8 from fully collecting a reading thread's small old generation every few megabytes.
 * V8 sets the next full GC's limit at a multiple of what survived the last one, a small multiple
 * when its collections are fast, and reading transcripts leaves little alive (each file's objects
 * die with it): over the 1 GB bench corpus, incremental marking of the old generation started
 * about 40 times (`--trace-incremental-marking`), each time marking the same 7-10 MB again, partly
 * on background threads that take the other core from the prefetch thread. While the old
 * generation is small, the multiple is raised (V8's `--heap-growing-percent`, read at each full
 * GC, see growingPercentFor) so that the limit comes to about READING_OLD_GENERATION_FLOOR; with
 * a caller that keeps what it reads, the old generation grows and V8 sizes the limit its own way
 * again, as it does when the batch ends. Returns `check`, to call before each file, and `end`.
 * `oldBytes` measures the old generation (tests give their own).
 */
export function holdOldGenerationFloor(oldBytes: () => number = oldGenerationUsed): { check(index: number): void; end(): void } {
  const own = !userSets(GROWING) && KNOWN_V8_MAJORS.includes(Number(process.versions.v8.split('.')[0]));
  if (own) floorHolders++;
  let ended = false;
  return {
    check(index: number): void {
      if (own && !ended && index % FLOOR_CHECK_FILES === 0) setGrowingPercent(growingPercentFor(oldBytes()));
    },
    end(): void {
      if (!own || ended) return;
      ended = true;
      if (--floorHolders === 0) setGrowingPercent(0);
    },
  };
}

/** Bytes in the old generation's spaces (live, and dead since the last full GC). */
function oldGenerationUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name.startsWith('new_') || space.space_name.startsWith('read_only')) continue;
    used += space.space_used_size;
  }
  return used;
}

function setGrowingPercent(percent: number): void {
  if (percent === growingPercent) return;
  growingPercent = percent;
  setFlagsFromString(`${GROWING}=${percent}`);
}
