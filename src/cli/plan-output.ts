/** How a plan is shown to people (one line per change) and to scripts (JSON). */
import type { Plan } from '../knowledge/plan.js';
import { countPlan, planChanges } from '../knowledge/plan.js';

const MARK = { add: '+', update: '~', remove: '-', unchanged: '=' } as const;

export function planLines(plan: Plan): string[] {
  return planChanges(plan).map((e) => `${MARK[e.action]} ${e.action.padEnd(6)} ${e.path}  (${e.category}, ${e.scope}${e.reason ? `; ${e.reason}` : ''})`);
}

export function planSummary(plan: Plan): string {
  const c = countPlan(plan);
  return `${c.add} to add, ${c.update} to update, ${c.remove} to remove, ${c.unchanged} unchanged`;
}

export function planJson(plan: Plan): object {
  return {
    counts: countPlan(plan),
    entries: planChanges(plan).map(({ content: _content, ...rest }) => rest),
  };
}
