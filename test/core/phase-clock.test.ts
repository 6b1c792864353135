// PhaseClock: each mark ends the phase it names, which began at the mark before (the first at
// process start), and the summary adds the total.
import { describe, expect, it } from 'vitest';
import { PhaseClock } from '../../src/core/phase-clock.js';

describe('PhaseClock', () => {
  it('reports each phase from the mark before, and the total', () => {
    const times = [180, 330, 20_830];
    const clock = new PhaseClock(() => times.shift()!);
    clock.mark('start-up');
    clock.mark('walk');
    clock.mark('files');
    expect(clock.summary()).toBe('start-up 180 ms, walk 150 ms, files 20.5 s, total 20.8 s');
  });

  it('with no mark, only the total', () => {
    expect(new PhaseClock(() => 5).summary()).toBe('total 0 ms');
  });
});
