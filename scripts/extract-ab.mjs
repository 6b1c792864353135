// A/B of two builds of the extractor in one process: sessions are read once, then the rounds
// alternate A and B over the same sessions (the order flips each round), so a machine whose
// speed drifts slows both alike. Also checks that both make the same candidates.
// Usage: node scripts/extract-ab.mjs <distA> <distB> <dir> [rounds]
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
const [distA, distB, dir, roundsArg = '7'] = process.argv.slice(2);
const load = async (d) => (await import(`${resolve(d)}/harvest/extract/index.js`)).extractSession;
const a = await load(distA);
const b = await load(distB);
const { readSessions } = await import(`${resolve(distB)}/sessions/read.js`);
const { sessions } = await readSessions([dir], {});
for (const s of sessions) {
  if (!isDeepStrictEqual(a(s), b(s))) {
    console.error(`different candidates for session ${s.id} (${s.source?.file ?? ''})`);
    process.exitCode = 1;
    break;
  }
}
const time = (fn) => {
  const t = performance.now();
  for (const s of sessions) fn(s);
  return performance.now() - t;
};
const ta = [];
const tb = [];
const ratios = [];
for (let r = 0; r < Number(roundsArg); r++) {
  const [x, y] = r % 2 ? [time(b), time(a)] : [time(a), time(b)];
  const [ra, rb] = r % 2 ? [y, x] : [x, y];
  ta.push(ra);
  tb.push(rb);
  ratios.push(ra / rb);
}
const med = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
console.log(`A ${med(ta).toFixed(0)} ms (min ${Math.min(...ta).toFixed(0)}), B ${med(tb).toFixed(0)} ms (min ${Math.min(...tb).toFixed(0)}), A/B median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}] over ${sessions.length} sessions`);
