/**
 * One bootstrap: open the search structure, rank the candidates for this repo, agent and task,
 * pack them into the budget, render. Never throws for a bad store: a missing or broken index
 * gives the empty (but valid) output and a note.
 */
import { CATEGORIES } from '../knowledge/item.js';
import { NoIndexError, openSearchStructure } from './cache.js';
import { explainText } from './explain.js';
import { pack, type ItemCost, type Packed } from './pack.js';
import { rank, type Ranked } from './rank.js';
import { frameFor, renderChunks, type Format, type Frame } from './render.js';
import { buildStructure, memorySource, SearchStructure } from './structure.js';
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
  /** Whether token counts came from the precomputed structure or a loaded vocabulary. */
  counts: 'precomputed' | 'tokenizer';
}

/** Formats whose item chunks the structure precomputes (markdown and codex share chunks). */
function precomputedKind(format: Format): 'md' | 'cc' | undefined {
  return format === 'markdown' || format === 'codex' ? 'md' : format === 'claude-code' ? 'cc' : undefined;
}

function distinct(list: string[]): string[] {
  return [...new Set(list)].sort();
}

export async function bootstrap(options: BootstrapOptions): Promise<BootstrapResult> {
  const notes: string[] = [];
  let structure: SearchStructure;
  let close = () => undefined as void;
  try {
    const opened = await openSearchStructure(options.root);
    structure = opened.structure;
    close = opened.close;
    if (opened.built) notes.push(`built the search structure from knowledge/index.json (${structure.header.docs} active items)`);
  } catch (err) {
    const why = err instanceof NoIndexError ? err.message : `the search structure could not be built (${(err as Error).message})`;
    notes.push(`${why}; giving an empty bootstrap`);
    structure = new SearchStructure(memorySource(buildStructure([])));
  }
  try {
    if (structure.header.skipped > 0) notes.push(`${structure.header.skipped} invalid entr${structure.header.skipped === 1 ? 'y' : 'ies'} in knowledge/index.json skipped (run \`compound check\`)`);
    return await compose(structure, options, notes);
  } finally {
    close();
  }
}

/** The empty bootstrap, for when something unexpected went wrong: still valid, still in budget. */
export async function emptyBootstrap(options: BootstrapOptions, why: string): Promise<BootstrapResult> {
  return compose(new SearchStructure(memorySource(buildStructure([]))), options, [`${why}; giving an empty bootstrap`]);
}

async function compose(s: SearchStructure, options: BootstrapOptions, notes: string[]): Promise<BootstrapResult> {
  const frame = frameFor(options.format, { repo: options.repo ?? null, agent: options.agent ?? null, budget: options.budget });
  const taskTerms = distinct(options.task ? terms(options.task) : []);
  const ranked = rank(s, { repo: options.repo, agent: options.agent, minConfidence: options.minConfidence, taskTerms });

  const kind = s.header.encoding === options.encoding ? precomputedKind(options.format) : undefined;
  const known = kind ? s.header.constants : {};
  const fixedChunks = [frame.head, frame.noIds, frame.tail, frame.header, frame.close, ...CATEGORIES.map((c) => frame.heading(c))];
  const needCounter = !kind || fixedChunks.some((c) => c !== '' && known[c] === undefined);
  const counter: TokenCounter | undefined = needCounter ? await loadCounter(options.encoding) : undefined;
  const chunkTokens = (chunk: string) => known[chunk] ?? counter!.count(chunk);

  const category = (row: number) => CATEGORIES[s.category[row]!]!;
  const cost = kind ? precomputedCost(s, kind) : countedCost(s, frame, counter!);
  let packed = pack({ frame, budget: options.budget, ranked, category, cost, item: (row) => s.record(row), chunkTokens, recordAll: options.explain, minItemTokens: kind ? s.header.minItemTokens[kind] : undefined });
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
  const result: BootstrapResult = { output, ids, tokens: packed.tokens, chars: output.length, notes, counts: counter ? 'tokenizer' : 'precomputed' };
  if (options.explain) result.explain = explainText({ s, options, taskTerms, ranked, packed, counts: result.counts });
  return result;
}

/** `=` or `,` and a 10-character id (the structure only keeps items whose id has that form). */
const ID_CHUNK_CHARS = 11;

/** Item costs straight from the structure's columns: nothing to render or tokenize. */
function precomputedCost(s: SearchStructure, kind: 'md' | 'cc'): (row: number) => ItemCost {
  const line = s.column(kind === 'md' ? 'mdTokens' : 'ccTokens');
  const chars = s.column('ccChars');
  const idFirst = s.column('idFirstTokens');
  const idRest = s.column('idRestTokens');
  return (row) => {
    // only the hook output has a character cap; markdown's character count is not needed
    const lineChars = (kind === 'cc' ? chars[row]! : 0) + ID_CHUNK_CHARS;
    return { tokensFirst: line[row]! + idFirst[row]!, tokensRest: line[row]! + idRest[row]!, charsFirst: lineChars, charsRest: lineChars };
  };
}

/** Item costs by rendering and counting (other formats or encodings). */
function countedCost(s: SearchStructure, frame: Frame, counter: TokenCounter): (row: number) => ItemCost {
  return (row) => {
    const item = s.record(row);
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
