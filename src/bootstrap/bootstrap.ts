/**
 * One bootstrap: open the search structure, rank the candidates for this repo, agent and task,
 * pack them into the budget, render. Never throws for a bad store: a missing or broken index
 * gives the empty (but valid) output and a note.
 */
import { join } from 'node:path';
import { CATEGORIES } from '../knowledge/item.js';
import { INDEX_FILE } from '../knowledge/paths.js';
import { NoIndexError, openCurrentStructure } from './cache.js';
import { indexPool } from './direct.js';
import { explainText } from './explain.js';
import { pack, type ItemCost, type Packed } from './pack.js';
import { structurePool, type CandidatePool, type PoolCounts } from './pool.js';
import { rankCandidates, type Query, type Ranked } from './rank.js';
import { scheduleRebuild } from './rebuild.js';
import { frameFor, renderChunks, type Format, type Frame } from './render.js';
import { terms } from './terms.js';
import { loadCounter, type EncodingName, type TokenCounter } from './tokens.js';

export interface BootstrapOptions {
  root: string;
  repo?: string;
  agent?: string;
  task?: string;
  budget: number;
  format: Format;
  minConfidence: number;
  encoding: EncodingName;
  explain?: boolean;
  /** How repo and agent were found, for --explain. */
  repoSource?: string;
  agentSource?: string;
}

export interface BootstrapResult {
  /** What goes to stdout ('' when not even the empty frame fits the budget). */
  output: string;
  ids: string[];
  tokens: number;
  chars: number;
  notes: string[];
  explain?: string;
  /** Whether token counts came from index.json (through the structure or not) or a loaded vocabulary. */
  counts: 'precomputed' | 'tokenizer';
  /** Where the candidates were read: the search structure, or index.json itself. */
  source: 'structure' | 'index';
}

/** Formats whose item lines index.json carries counts for (markdown and codex share lines). */
function precomputedKind(format: Format): 'md' | 'cc' | undefined {
  return format === 'markdown' || format === 'codex' ? 'md' : format === 'claude-code' ? 'cc' : undefined;
}

function distinct(list: string[]): string[] {
  return [...new Set(list)].sort();
}

const EMPTY_POOL: CandidatePool = {
  candidates: { n: 0, category: new Uint8Array(0), scope: new Uint8Array(0), confidence: new Float64Array(0), evidence: new Float64Array(0), time: new Float64Array(0), docLen: new Uint32Array(0), order: new Uint32Array(0) },
  matches: [],
  item: () => {
    throw new Error('no candidates');
  },
  counts: undefined,
  describe: 'no index',
  skipped: 0,
};

export async function bootstrap(options: BootstrapOptions): Promise<BootstrapResult> {
  const notes: string[] = [];
  const query: Query = { repo: options.repo, agent: options.agent, minConfidence: options.minConfidence, taskTerms: distinct(options.task ? terms(options.task) : []) };
  let pool = EMPTY_POOL;
  let source: BootstrapResult['source'] = 'index';
  let close = () => undefined as void;
  try {
    const opened = openCurrentStructure(options.root);
    if (opened) {
      close = opened.close;
      pool = structurePool(opened.structure, query);
      source = 'structure';
    } else {
      // no structure of this index.json: read the candidates' lines of index.json itself, and
      // have the structure rebuilt for the next session start without waiting for it
      pool = indexPool(join(options.root, INDEX_FILE), query, options.encoding);
      if (scheduleRebuild(options.root)) notes.push('the search structure is being rebuilt in the background; this start read knowledge/index.json');
    }
  } catch (err) {
    close();
    close = () => undefined;
    const why = err instanceof NoIndexError ? err.message : `${INDEX_FILE} could not be read (${(err as Error).message})`;
    notes.push(`${why}; giving an empty bootstrap`);
    pool = EMPTY_POOL;
  }
  try {
    if (pool.skipped > 0) notes.push(`${pool.skipped} invalid entr${pool.skipped === 1 ? 'y' : 'ies'} in knowledge/index.json skipped (run \`compound check\`)`);
    return await compose(pool, query, options, notes, source);
  } finally {
    close();
  }
}

/** The empty bootstrap, for when something unexpected went wrong: still valid, still in budget. */
export async function emptyBootstrap(options: BootstrapOptions, why: string): Promise<BootstrapResult> {
  return compose(EMPTY_POOL, { minConfidence: options.minConfidence, taskTerms: [] }, options, [`${why}; giving an empty bootstrap`], 'index');
}

async function compose(pool: CandidatePool, query: Query, options: BootstrapOptions, notes: string[], source: BootstrapResult['source']): Promise<BootstrapResult> {
  const frame = frameFor(options.format, { repo: options.repo ?? null, agent: options.agent ?? null, budget: options.budget });
  const ranking = rankCandidates(pool.candidates, pool.matches);
  const ranked = ranking.ranked;

  const counts = pool.counts && pool.counts.encoding === options.encoding ? pool.counts : undefined;
  const kind = counts ? precomputedKind(options.format) : undefined;
  const known = kind ? counts!.chunks : {};
  const fixedChunks = [frame.head, frame.noIds, frame.tail, frame.header, frame.close, ...CATEGORIES.map((c) => frame.heading(c))];
  const needCounter = !kind || fixedChunks.some((c) => c !== '' && known[c] === undefined);
  const counter: TokenCounter | undefined = needCounter ? await loadCounter(options.encoding) : undefined;
  const chunkTokens = (chunk: string) => known[chunk] ?? counter!.count(chunk);

  const category = (at: number) => CATEGORIES[pool.candidates.category[at]!]!;
  const cost = kind ? precomputedCost(counts!, kind) : countedCost(pool, frame, counter!);
  let packed = pack({ frame, budget: options.budget, ranked, category, cost, item: (at) => pool.item(at), chunkTokens, recordAll: options.explain, minItemTokens: kind ? counts!.minItemTokens[kind] : undefined });
  let output = packed.fits ? renderChunks(frame, packed.taken).join('') : '';

  if (counter && packed.fits) {
    // the vocabulary is loaded anyway: check the whole, and never print more than the budget
    let real = counter.count(output);
    if (real !== packed.tokens) notes.push(`token counts did not add up (${packed.tokens} by chunks, ${real} whole); please report this`);
    while (real > options.budget && packed.taken.length > 0) {
      packed = { ...packed, taken: packed.taken.slice(0, -1) };
      output = renderChunks(frame, packed.taken).join('');
      real = counter.count(output);
    }
    packed = { ...packed, tokens: real };
  }
  packed = { ...packed, chars: output.length };
  if (!packed.fits) notes.push(`the budget of ${options.budget} tokens is smaller than the empty output (${packed.frameTokens} tokens); printing nothing`);

  const ids = packed.taken.map((t) => t.id);
  const result: BootstrapResult = { output, ids, tokens: packed.tokens, chars: output.length, notes, counts: counter ? 'tokenizer' : 'precomputed', source };
  if (options.explain) result.explain = explainText({ pool, ranking, options, taskTerms: query.taskTerms, packed, counts: result.counts });
  return result;
}

/** `=` or `,` and a 10-character id (the structure only keeps items whose id has that form). */
const ID_CHUNK_CHARS = 11;

/** Item costs straight from the counts index.json carries: nothing to render or tokenize. */
function precomputedCost(counts: PoolCounts, kind: 'md' | 'cc'): (at: number) => ItemCost {
  return (at) => {
    const [line, hookLine, idFirst, idRest] = counts.of(at);
    const tokens = kind === 'md' ? line! : hookLine!;
    // only the hook output has a character cap; markdown's character count is not needed
    const lineChars = (kind === 'cc' ? counts.hookChars(at) : 0) + ID_CHUNK_CHARS;
    return { tokensFirst: tokens + idFirst!, tokensRest: tokens + idRest!, charsFirst: lineChars, charsRest: lineChars };
  };
}

/** Item costs by rendering and counting (other formats or encodings, or no counts in the index):
 * only for the candidates the packer looks at. */
function countedCost(pool: CandidatePool, frame: Frame, counter: TokenCounter): (at: number) => ItemCost {
  return (at) => {
    const item = pool.item(at);
    const lineFirst = frame.line(item, true);
    const lineRest = frame.grouped ? lineFirst : frame.line(item, false);
    const idFirst = frame.id(item.id, true);
    const idRest = frame.id(item.id, false);
    const tokensFirst = counter.count(lineFirst) + counter.count(idFirst);
    const tokensRest = (lineRest === lineFirst ? tokensFirst - counter.count(idFirst) : counter.count(lineRest)) + counter.count(idRest);
    return { tokensFirst, tokensRest, charsFirst: lineFirst.length + idFirst.length, charsRest: lineRest.length + idRest.length };
  };
}

export type { Ranked, Packed };
