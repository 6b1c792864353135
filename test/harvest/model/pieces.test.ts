/** The model harvest's pure parts: the view, the parts, the answer schema, grounding, settings. */
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../src/harvest/model/answer.js';
import { fold, GroundingIndex } from '../../../src/harvest/model/ground.js';
import { chunkEvents, halves, OVERLAP_EVENTS, requestText } from '../../../src/harvest/model/request.js';
import { cutMiddle, modelView, type ViewEvent } from '../../../src/harvest/model/view.js';
import { KnownItems } from '../../../src/harvest/model/known.js';
import { toCandidates } from '../../../src/harvest/model/to-candidates.js';
import { limiter } from '../../../src/harvest/model/run.js';
import { parseModelConfig } from '../../../src/core/model-config.js';
import { extractorSetup } from '../../../src/cli/model-options.js';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import type { Session, SessionEvent } from '../../../src/sessions/model.js';

function session(events: SessionEvent[], extra: Partial<Session> = {}): Session {
  return { id: 's1', format: 'claude-code', agent: 'claude-code', repo: 'shop', models: [], file: '/t/s1.jsonl', bytes: 1, events, warnings: [], ...extra };
}
const at = (index: number) => ({ index, source: { file: '/t/s1.jsonl', line: index + 1 } });

describe('the view', () => {
  it('shows events as [E<n>] lines with their kind, redacted before it is cut, without injected text', () => {
    const secret = ['ghp_', 'R8q2Lx7Vn4Kd9Tf3Wm6Hp1Zs5Jc0Gb8Ya2Ue'].join('');
    const long = `${'x'.repeat(3000)} token ${secret} ${'y'.repeat(3000)}`;
    const v = modelView(
      session([
        { ...at(0), kind: 'user', text: 'deploy it' },
        { ...at(1), kind: 'user', text: 'Caveat: injected', injected: true },
        { ...at(2), kind: 'tool_call', name: 'Bash', input: { command: 'make deploy' }, command: 'make deploy', callId: 'c1' },
        { ...at(3), kind: 'tool_result', name: 'Bash', output: long, isError: true, exitCode: 2, callId: 'c1' },
        { ...at(4), kind: 'summary', text: 'compaction summary' },
        { ...at(5), kind: 'system', text: "litellm.BadRequestError: 'qwen3' is not a valid model ID" },
        { ...at(6), kind: 'system', text: '<permissions instructions> sandboxing ...' },
      ]),
      [],
    );
    expect(v.events.map((e) => e.index)).toEqual([0, 2, 3, 5]);
    expect(v.events[0]!.text).toBe('[E0] user: deploy it');
    expect(v.events[1]!.text).toBe('[E2] tool_call Bash: $ make deploy');
    expect(v.events[2]!.text).toMatch(/^\[E3\] tool_result Bash \(exit 2, error\): x+/);
    expect(v.events[2]!.text).toContain('characters cut ...]');
    expect(v.events[2]!.text.length).toBeLessThan(2600);
    expect(v.events[3]!.text).toContain('not a valid model ID');
    // the secret sat in the middle that was cut: redacted first, so no part of it survives either way
    expect(v.events.map((e) => e.text).join('\n')).not.toContain(secret.slice(0, 10));
    expect(v.redactions).toBe(1);
  });

  it('shows only the acknowledgement of an edit, and more of a project document than of source', () => {
    const doc = Array.from({ length: 200 }, (_, i) => `line ${i} of the readme`).join('\n');
    const v = modelView(
      session([
        { ...at(0), kind: 'tool_call', name: 'Edit', input: { file_path: 'a.ts', old_string: 'a'.repeat(1000), new_string: 'b'.repeat(1000) }, callId: 'e' },
        { ...at(1), kind: 'tool_result', name: 'Edit', output: 'The file a.ts has been updated. Here is the result:\n1 b\n2 b', isError: false, callId: 'e' },
        { ...at(2), kind: 'tool_call', name: 'Read', input: { file_path: '/r/README.md' }, callId: 'r1' },
        { ...at(3), kind: 'tool_result', name: 'Read', output: doc, isError: false, callId: 'r1' },
        { ...at(4), kind: 'tool_call', name: 'Read', input: { file_path: '/r/src/main.ts' }, callId: 'r2' },
        { ...at(5), kind: 'tool_result', name: 'Read', output: doc, isError: false, callId: 'r2' },
      ]),
      [],
    );
    expect(v.events[1]!.text).toBe('[E1] tool_result Edit: The file a.ts has been updated. Here is the result:');
    expect(v.events[0]!.text.length).toBeLessThan(1000);
    expect(v.events[3]!.text.length).toBeGreaterThan(v.events[5]!.text.length + 1000);
  });

  it('cuts the middle at line ends and says how much', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const cut = cutMiddle(text, 100, 60);
    expect(cut.startsWith('line 0\n')).toBe(true);
    expect(cut.endsWith('line 99')).toBe(true);
    expect(cut).toMatch(/\[\.\.\. \d+ lines cut \.\.\.\]/);
    expect(cutMiddle('short', 100, 60)).toBe('short');
  });
});

describe('parts', () => {
  it('fit the budget, overlap a little, cover every event and always move on', () => {
    const tokens = Array.from({ length: 40 }, (_, i) => 10 + (i % 7));
    const chunks = chunkEvents(tokens, 100);
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(40);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.start).toBe(chunks[i - 1]!.end - OVERLAP_EVENTS);
      expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
    }
    for (const c of chunks) expect(tokens.slice(c.start, c.end).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100);
    // an event bigger than the budget is a part of its own; tiny budgets still end
    expect(chunkEvents([5, 500, 5], 100)).toEqual([{ start: 0, end: 1 }, { start: 1, end: 2 }, { start: 2, end: 3 }]);
    // a session that grows keeps its first cuts
    expect(chunkEvents([...tokens, 30, 30], 100).slice(0, chunks.length - 1)).toEqual(chunks.slice(0, -1));
    expect(halves({ start: 0, end: 10 })).toEqual([{ start: 0, end: 5 }, { start: 4, end: 10 }]);
    expect(halves({ start: 3, end: 4 })).toBeUndefined();
  });

  it('tell a later part the titles of the earlier ones and list the known items', () => {
    const events: ViewEvent[] = [0, 1, 2].map((i) => ({ index: i, line: i + 1, text: `[E${i}] user: hi ${i}` }));
    const known = [{ id: 'abcdef0123', category: 'pitfall' as const, scope: 'repo' as const, repo: 'shop', title: 'Port 4000 is taken', terms: new Set<string>() }];
    const text = requestText({ session: session([]), events, chunk: { start: 1, end: 3 }, part: 2, parts: 2, known, earlier: ['First title'] });
    expect(text).toContain('Part 2 of 2: events E1 to E2.');
    expect(text).toContain('- First title');
    expect(text).toContain('- abcdef0123 [pitfall, repo shop] Port 4000 is taken');
    expect(text.endsWith('[E1] user: hi 1\n[E2] user: hi 2\n')).toBe(true);
  });
});

describe('the answer', () => {
  const item = { category: 'pitfall', scope: 'repo', title: 'T.', knowledge: 'K', confidence: 0.9, evidence: [{ event: 'E3', quote: 'some quote here' }] };
  it('is read as an array, {items}, fenced or with prose around it', () => {
    for (const text of [JSON.stringify([item]), JSON.stringify({ items: [item] }), `Here:\n\`\`\`json\n${JSON.stringify([item])}\n\`\`\`\n`, `Sure! ${JSON.stringify([item])} Done.`]) {
      const a = parseAnswer(text);
      expect(a.problems).toEqual([]);
      expect(a.entries).toEqual([{ kind: 'item', category: 'pitfall', scope: 'repo', title: 'T', knowledge: 'K', confidence: 0.9, tags: [], evidence: [{ event: 3, quote: 'some quote here' }] }]);
    }
  });
  it('names what is wrong and keeps the valid entries', () => {
    const a = parseAnswer(JSON.stringify([item, { ...item, category: 'insight' }, { same_as: 'abcdef0123', evidence: [{ event: 1, quote: 'x'.repeat(12) }] }, { same_as: 'nope', evidence: [] }]));
    expect(a.entries.map((e) => e.kind)).toEqual(['item', 'same']);
    expect(a.problems).toEqual(['item 2: category must be one of fact, pitfall, pattern, tool-quirk, question', 'item 4: same_as must be the 10-character id of a known item']);
    expect(parseAnswer('I could not find anything.').unreadable).toBe(true);
  });
});

describe('grounding', () => {
  const events: ViewEvent[] = [
    { index: 2, line: 5, text: '[E2] tool_result Bash (error): Error: “port” 4000   is already\nin use' },
    { index: 4, line: 9, text: '[E4] assistant: Killing the stale process fixed it.' },
    { index: 9, line: 20, text: '[E9] assistant: unrelated' },
    { index: 10, line: 25, text: '[E10] assistant: unrelated too' },
    { index: 12, line: 30, text: '[E12] assistant: far away: stale process' },
  ];
  const g = new GroundingIndex(events);
  it('folds case, white space and typographic quotes', () => {
    expect(fold('A “B”  ‘c’\n d')).toBe('a "b" \'c\' d');
    expect(g.ground([{ event: 2, quote: 'error: "PORT" 4000 is already in use' }])?.event.index).toBe(2);
  });
  it('accepts a neighbour within three shown events and cites the one holding the quote', () => {
    const r = g.ground([{ event: 9, quote: 'Killing the stale process' }]);
    expect(r?.event).toEqual(events[1]);
    expect(r?.quotes).toEqual(['Killing the stale process']);
  });
  it('rejects a quote that is nowhere, too short, or only far away, and the label', () => {
    expect(g.ground([{ event: 2, quote: 'segmentation fault' }])).toBeUndefined();
    expect(g.ground([{ event: 2, quote: 'in use' }])).toBeUndefined();
    expect(g.ground([{ event: 2, quote: 'far away: stale process' }])).toBeUndefined();
    expect(g.ground([{ event: 2, quote: '[E2] tool_result Bash' }])).toBeUndefined();
  });
  it('turns grounded entries into candidates and counts the rest', () => {
    const known = new KnownItems([]);
    const s = session([]);
    const conv = toCandidates(
      [
        { kind: 'item', category: 'pitfall', scope: 'repo', title: 'T', knowledge: 'K', confidence: 0.9, tags: [], evidence: [{ event: 4, quote: 'stale process fixed it' }] },
        { kind: 'item', category: 'fact', scope: 'repo', title: 'T2', knowledge: 'K2', confidence: 0.4, tags: [], evidence: [{ event: 4, quote: 'stale process fixed it' }] },
        { kind: 'item', category: 'fact', scope: 'repo', title: 'T3', knowledge: 'K3', confidence: 0.9, tags: [], evidence: [{ event: 4, quote: 'never said this at all' }] },
        { kind: 'same', sameAs: 'abcdef0123', evidence: [{ event: 4, quote: 'stale process fixed it' }] },
      ],
      s,
      g,
      known,
      'model:m@12345678',
    );
    expect(conv.candidates).toHaveLength(1);
    expect(conv.candidates[0]).toMatchObject({ repo: 'shop', evidence: { event: 4, line: 9 }, extractor: 'model:m@12345678', rule: 'model' });
    expect(conv.ungrounded).toBe(1);
    expect(conv.dropped).toBe(2); // low confidence, and an id no store item has
  });
});

describe('settings', () => {
  it('parse model: with defaults and reject what would silently do nothing', () => {
    const c = parseModelConfig({ provider: 'anthropic' }, 'compound.config.yaml');
    expect(c).toMatchObject({ provider: 'anthropic', name: 'claude-haiku-4-5', max_concurrency: 4 });
    expect(() => parseModelConfig({ provider: 'anthropic', api_key: 'sk-x' }, 'f')).toThrow(/api_key is not a known key/);
    expect(() => parseModelConfig({ provider: 'anthropic', api_key_env: 'sk-ant-abc-def' }, 'f')).toThrow(/name an environment variable/);
    expect(() => parseModelConfig({ provider: 'command' }, 'f')).toThrow(/command is required/);
    expect(() => parseModelConfig({ provider: 'openai', price: { input_per_mtok: 1 } }, 'f')).toThrow(/price must be/);
  });
  it('let flags override the file, and choose the model only when one is configured', () => {
    expect(extractorSetup({}, DEFAULT_CONFIG).extractor).toBe('rules');
    const model = parseModelConfig({ provider: 'anthropic', name: 'claude-sonnet-4-5', max_cost_per_run: 2, price: { input_per_mtok: 3, output_per_mtok: 15 } }, 'f');
    const cfg = { ...DEFAULT_CONFIG, model };
    expect(extractorSetup({}, cfg)).toMatchObject({ extractor: 'model', maxCost: 2, model: { name: 'claude-sonnet-4-5' } });
    const other = extractorSetup({ model: 'claude-haiku-4-5', maxCost: '0.5' }, cfg);
    expect(other).toMatchObject({ maxCost: 0.5, model: { name: 'claude-haiku-4-5' } });
    expect(other.model?.price).toBeUndefined(); // the file's price was for the other model
    expect(extractorSetup({ modelProvider: 'openai' }, cfg).model).toMatchObject({ provider: 'openai', name: 'gpt-4.1-mini', max_cost_per_run: 2 });
    expect(extractorSetup({ modelCommand: 'claude -p' }, DEFAULT_CONFIG).model).toMatchObject({ provider: 'command', command: 'claude -p' });
    expect(() => extractorSetup({ extractor: 'model' }, DEFAULT_CONFIG)).toThrow(/needs a model/);
    expect(() => extractorSetup({ batchOut: 'x' }, DEFAULT_CONFIG)).toThrow(/need the model extractor/);
    expect(() => extractorSetup({ maxCost: '-1' }, cfg)).toThrow(/--max-cost/);
  });
  it('limits how many run at once', async () => {
    const limit = limiter(2);
    let active = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 6 }, () => limit(async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
    })));
    expect(most).toBe(2);
  });
});
