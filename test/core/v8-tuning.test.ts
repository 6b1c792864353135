import { afterEach, describe, expect, it } from 'vitest';
import { batchCompilerFlags, currentGrowingPercent, EARLIER_INLINING_BUDGET, growingPercentFor, HARVEST_INLINING_BUDGET, holdOldGenerationFloor, READING_OLD_GENERATION_FLOOR } from '../../src/core/v8-tuning.js';

const MB = 1024 * 1024;

describe('batchCompilerFlags', () => {
  const none = (): boolean => false;
  const budget = `--max-inlined-bytecode-size-cumulative=${HARVEST_INLINING_BUDGET}`;

  it('sets the inlining budget and turns two TurboFan phases off on V8 11, where they were measured', () => {
    expect(batchCompilerFlags(11, none)).toEqual([budget, '--no-turbo-loop-peeling', '--no-turbo-escape']);
  });

  it('sets only the earlier inlining budget on later V8s, and nothing on a V8 not known to have the flags', () => {
    const earlier = `--max-inlined-bytecode-size-cumulative=${EARLIER_INLINING_BUDGET}`;
    expect(batchCompilerFlags(12, none)).toEqual([earlier]);
    expect(batchCompilerFlags(13, none)).toEqual([earlier]);
    expect(batchCompilerFlags(14, none)).toEqual([]);
    expect(batchCompilerFlags(10, none)).toEqual([]);
  });

  it('leaves every flag the user set, either way, to the user', () => {
    expect(batchCompilerFlags(11, (f) => f === '--turbo-escape')).toEqual([budget, '--no-turbo-loop-peeling']);
    expect(batchCompilerFlags(11, (f) => f === '--no-turbo-loop-peeling')).toEqual([budget, '--no-turbo-escape']);
    expect(batchCompilerFlags(11, (f) => f === '--max-inlined-bytecode-size-cumulative')).toEqual(['--no-turbo-loop-peeling', '--no-turbo-escape']);
  });
});

describe('growingPercentFor', () => {
  it('puts the next full GC near the floor while the old generation is small, in whole hundreds', () => {
    expect(READING_OLD_GENERATION_FLOOR).toBe(128 * MB);
    expect(growingPercentFor(0)).toBe(1000); // capped: a limit 11 times what survives
    expect(growingPercentFor(8 * MB)).toBe(1000);
    expect(growingPercentFor(32 * MB)).toBe(300); // 32 MB x 4 = the floor
    expect(growingPercentFor(40 * MB)).toBe(200); // 3.2 times: rounded down, never past the floor
    expect(growingPercentFor(64 * MB)).toBe(100);
  });

  it('leaves V8 its own sizing once the old generation holds half the floor', () => {
    expect(growingPercentFor(64 * MB + 1)).toBe(0);
    expect(growingPercentFor(1024 * MB)).toBe(0);
  });
});

describe('holdOldGenerationFloor', () => {
  const options = process.env.NODE_OPTIONS;
  afterEach(() => {
    if (options === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = options;
  });

  it('sets the percent for the heap before the first file and every 64 files, and gives V8 its sizing back at the end', () => {
    let old = 8 * MB;
    const hold = holdOldGenerationFloor(() => old);
    hold.check(0);
    expect(currentGrowingPercent()).toBe(1000);
    old = 40 * MB;
    hold.check(63); // between checks the heap is not looked at
    expect(currentGrowingPercent()).toBe(1000);
    hold.check(64);
    expect(currentGrowingPercent()).toBe(200);
    old = 100 * MB; // a caller that keeps what it reads
    hold.check(128);
    expect(currentGrowingPercent()).toBe(0);
    old = 8 * MB;
    hold.check(192);
    hold.end();
    expect(currentGrowingPercent()).toBe(0);
    hold.check(256); // after its end a hold changes nothing
    expect(currentGrowingPercent()).toBe(0);
  });

  it('keeps the setting until the last of two overlapping holds ends', () => {
    const a = holdOldGenerationFloor(() => 16 * MB);
    const b = holdOldGenerationFloor(() => 16 * MB);
    a.check(0);
    expect(currentGrowingPercent()).toBe(700);
    a.end();
    a.end(); // a second end is no second release
    expect(currentGrowingPercent()).toBe(700);
    b.end();
    expect(currentGrowingPercent()).toBe(0);
  });

  it('leaves a growing percent the user chose alone', () => {
    process.env.NODE_OPTIONS = '--heap-growing-percent=50';
    const hold = holdOldGenerationFloor(() => 8 * MB);
    hold.check(0);
    expect(currentGrowingPercent()).toBe(0);
    hold.end();
    expect(currentGrowingPercent()).toBe(0);
  });

  it('measures the real heap by default', () => {
    const hold = holdOldGenerationFloor();
    hold.check(0);
    const set = currentGrowingPercent();
    expect(set % 100).toBe(0);
    expect(set).toBeLessThanOrEqual(1000);
    hold.end();
    expect(currentGrowingPercent()).toBe(0);
  });
});
