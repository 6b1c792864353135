// How the harvest pool hands out files: one contiguous block per worker (of about equal bytes),
// each worker front to back through its own, then from the back of the block with the most left.
// Fake workers (event emitters that answer each message) record what each was given.
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { blocksOf, runTasks } from '../../src/harvest/parallel/pool.js';
import type { FileOutcome, FileTask } from '../../src/harvest/parallel/protocol.js';

/** A worker that answers every chunk after `delay` ms per file, and records the chunks. */
class FakeWorker extends EventEmitter {
  readonly chunks: number[][] = [];
  constructor(private readonly delay: number) {
    super();
  }
  postMessage(tasks: FileTask[]): void {
    this.chunks.push(tasks.map((t) => t.index));
    setTimeout(() => {
      const outcomes: FileOutcome[] = tasks.map((t) => ({ index: t.index, kind: 'known', hash: `h${t.index}` }));
      this.emit('message', outcomes);
    }, this.delay * tasks.length);
  }
}

const tasksOf = (n: number): FileTask[] => Array.from({ length: n }, (_, index) => ({ index, file: `f${index}` }));

describe('harvest pool blocks', () => {
  it('cuts tasks into contiguous blocks of about equal weight that cover every task once', () => {
    const weights = [5, 1, 1, 1, 1, 1, 10, 1, 1, 1, 2, 2];
    const blocks = blocksOf(weights.length, 2, (i) => weights[i]!);
    expect(blocks.map((b) => [b.front, b.back])).toEqual([
      [0, 6],
      [6, 12],
    ]);
    expect(blocks.map((b) => b.weight)).toEqual([10, 17]);
    const three = blocksOf(9, 3, () => 1);
    expect(three.map((b) => [b.front, b.back])).toEqual([
      [0, 3],
      [3, 6],
      [6, 9],
    ]);
    // fewer tasks than blocks: the task goes to the block its middle falls in, the others are empty
    expect(blocksOf(1, 3, () => 1).map((b) => [b.front, b.back])).toEqual([
      [0, 0],
      [0, 1],
      [1, 1],
    ]);
  });

  it('gives each worker its own block front to back, then lets the faster one take from the back of the other', async () => {
    const fast = new FakeWorker(0);
    const slow = new FakeWorker(2);
    const n = 400;
    const pool = runTasks([fast, slow] as unknown as Worker[], tasksOf(n));
    const outcomes = await Promise.all(Array.from({ length: n }, (_, i) => pool.outcome(i)));
    expect(outcomes.map((o) => o.index)).toEqual(Array.from({ length: n }, (_, i) => i));
    const fastDid = fast.chunks.flat();
    const slowDid = slow.chunks.flat();
    // every task exactly once
    expect([...fastDid, ...slowDid].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    // the slow worker went through a front part of its block (200..399) in order, with no gap
    expect(slowDid[0]).toBe(200);
    expect(slowDid).toEqual(Array.from({ length: slowDid.length }, (_, i) => 200 + i));
    // the fast one did its whole block first, in order, then took the rest of the other from its back
    expect(fastDid.slice(0, 200)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const stolen = fastDid.slice(200);
    expect(stolen.length).toBeGreaterThan(0);
    expect(Math.min(...stolen)).toBe(200 + slowDid.length);
    expect(Math.max(...stolen)).toBe(n - 1);
  });

  it('with one worker hands out every task in file order', async () => {
    const only = new FakeWorker(0);
    const pool = runTasks([only] as unknown as Worker[], tasksOf(100));
    await pool.outcome(99);
    expect(only.chunks.flat()).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});
