/** `--explain`: every candidate with its score, the parts of the score, and what became of it. */
import type { BootstrapOptions } from './bootstrap.js';
import type { Packed } from './pack.js';
import type { CandidatePool } from './pool.js';
import type { Ranking } from './rank.js';

export interface ExplainInput {
  pool: CandidatePool;
  ranking: Ranking;
  options: BootstrapOptions;
  taskTerms: readonly string[];
  packed: Packed;
  counts: 'precomputed' | 'tokenizer';
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

export function explainText(x: ExplainInput): string {
  const { pool, options, packed } = x;
  const ranked = x.ranking.ranked;
  const lines = [
    `repo: ${options.repo ?? '(none)'}${options.repoSource ? ` (${options.repoSource})` : ''}; agent: ${options.agent ?? '(none)'}${options.agentSource ? ` (${options.agentSource})` : ''}`,
    `task terms: ${x.taskTerms.length ? x.taskTerms.join(' ') : '(no task: priors alone decide)'}`,
    `store: ${pool.describe}; ${ranked.length} candidates (global, this repo, this agent; confidence >= ${options.minConfidence})`,
    `budget: ${options.budget} tokens (${options.encoding}, ${x.counts} counts); frame ${packed.frameTokens}; output ${packed.tokens} tokens, ${packed.chars} characters; ${packed.taken.length} taken`,
    'score = (1 + bm25) x category x confidence x evidence x recency x scope',
    ['rank', 'id', 'score', 'bm25', 'categ', 'conf', 'evid', 'recency', 'scope', 'tokens', 'decision'].map((h, i) => pad(h, [5, 10, 8, 7, 5, 5, 5, 7, 5, 6, 0][i]!, i !== 1 && i < 10)).join('  '),
  ];
  const decided = new Map(packed.decisions.map((d) => [d.ranked.at, d]));
  const idOf = (at: number) => pool.item(at).id;
  ranked.forEach((r, i) => {
    const p = x.ranking.parts(r.at, r.bm25);
    const d = decided.get(r.at);
    const decision = d ? (d.status === 'near-duplicate' ? `near-duplicate of ${d.duplicateOf}` : d.status) : 'not packed';
    lines.push(
      [
        pad(String(i + 1), 5, true),
        pad(idOf(r.at), 10),
        pad(p.score.toFixed(4), 8, true),
        pad(p.bm25.toFixed(3), 7, true),
        pad(p.category.toFixed(2), 5, true),
        pad(p.confidence.toFixed(2), 5, true),
        pad(p.evidence.toFixed(2), 5, true),
        pad(p.recency.toFixed(3), 7, true),
        pad(p.scope.toFixed(2), 5, true),
        pad(d ? String(d.tokens) : '-', 6, true),
        decision,
      ].join('  '),
    );
  });
  return `${lines.join('\n')}\n`;
}
