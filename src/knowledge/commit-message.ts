/** The commit message summarises a plan: counts by action, category and scope. */
import type { Plan } from './plan.js';
import { countPlan, planChanges } from './plan.js';

function tally(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(', ');
}

export function commitMessage(subject: string, plan: Plan): string {
  const c = countPlan(plan);
  const changes = planChanges(plan);
  const lines = [`${subject}: +${c.add} added, ~${c.update} updated, -${c.remove} removed`];
  if (changes.length > 0) {
    lines.push('', `By category: ${tally(changes.map((e) => e.category))}`, `By scope: ${tally(changes.map((e) => e.scope))}`);
  }
  return `${lines.join('\n')}\n`;
}
