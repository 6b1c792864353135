/**
 * One small session written in each transcript format the harvester reads, from the same list
 * of turns, in the shapes FORMATS.md documents (Python-style JSON for Hermes, codex's exec
 * output header, Gemini's run_shell_command report, SpecStory's rendered markdown). Tests use
 * it to plant the same text in the same place of every format.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeClaudeSession, type Turn } from '../harvest/model/fake-model.js';

export type { Turn };

export const FORMATS = ['claude-code', 'codex', 'hermes', 'openai-chat', 'aider', 'gemini-cli', 'specstory'] as const;
export type WrittenFormat = (typeof FORMATS)[number];

/** Python json.dumps: spaces after ":" and ",". */
function pyDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

function write(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const jsonl = (records: readonly unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function clock(start: string): () => string {
  let t = Date.parse(start);
  return () => new Date((t += 2000)).toISOString();
}

function codex(dir: string, n: number, cwd: string, turns: readonly Turn[], start: string): string {
  const id = `019cc1a0-7e21-7b40-9a11-${String(n).padStart(12, '0')}`;
  const at = clock(start);
  const out: unknown[] = [{ timestamp: at(), type: 'session_meta', payload: { id, timestamp: start, cwd, originator: 'codex_cli_rs', cli_version: '0.120.0', source: 'cli', model_provider: 'openai' } }];
  let call = 0;
  for (const t of turns) {
    if ('user' in t) out.push({ timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: t.user, images: [] } });
    else if ('assistant' in t) out.push({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.assistant }] } });
    else {
      const callId = `call_${n}_${++call}`;
      out.push({ timestamp: at(), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: t.bash, workdir: cwd }), call_id: callId } });
      const output = `Chunk ID: c${call}\nWall time: 0.4 seconds\nProcess exited with code ${t.error ? 1 : 0}\nOriginal token count: 20\nOutput:\n${t.output}\n`;
      out.push({ timestamp: at(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output } });
    }
  }
  const stamp = start.slice(0, 19).replace(/:/g, '-');
  return write(join(dir, `rollout-${stamp}-${id}.jsonl`), jsonl(out));
}

function hermes(dir: string, n: number, cwd: string, turns: readonly Turn[], start: string): string {
  const at = () => start.replace('Z', '').replace(/\.\d+$/, '.402211');
  const lines: string[] = [
    pyDumps({ role: 'session_meta', tools: [{ type: 'function', function: { name: 'terminal', description: 'Run a shell command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }], model: 'anthropic/claude-sonnet-4', platform: 'cli', timestamp: at() }),
  ];
  let call = 0;
  for (const t of turns) {
    if ('user' in t) lines.push(pyDumps({ role: 'user', content: t.user, timestamp: at() }));
    else if ('assistant' in t) lines.push(pyDumps({ role: 'assistant', content: t.assistant, finish_reason: 'stop', timestamp: at() }));
    else {
      const id = `call_${n}_${++call}`;
      lines.push(pyDumps({ role: 'assistant', content: '', finish_reason: 'tool_calls', tool_calls: [{ id, type: 'function', function: { name: 'terminal', arguments: JSON.stringify({ command: `cd ${cwd} && ${t.bash}` }) } }], timestamp: at() }));
      lines.push(pyDumps({ role: 'tool', content: JSON.stringify({ output: t.output, exit_code: t.error ? 1 : 0, error: null }), tool_call_id: id, timestamp: at() }));
    }
  }
  const stamp = start.slice(0, 19).replace(/[-:]/g, '').replace('T', '_');
  return write(join(dir, `${stamp}_${(0xa00000 + n).toString(16)}.jsonl`), `${lines.join('\n')}\n`);
}

function openaiChat(dir: string, n: number, cwd: string, turns: readonly Turn[], start: string): string {
  const at = clock(start);
  const out: unknown[] = [{ role: 'system', content: `You are a coding agent working in ${cwd}. Use the shell tool to run commands.` }];
  let call = 0;
  for (const t of turns) {
    if ('user' in t) out.push({ role: 'user', content: t.user, timestamp: at() });
    else if ('assistant' in t) out.push({ role: 'assistant', content: t.assistant, model: 'gpt-4.1', timestamp: at() });
    else {
      const id = `call_${n}_${++call}`;
      out.push({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ command: t.bash }) } }], model: 'gpt-4.1', timestamp: at() });
      out.push({ role: 'tool', tool_call_id: id, content: `${t.output}\nExit code: ${t.error ? 1 : 0}`, timestamp: at() });
    }
  }
  return write(join(dir, `chat-${n}.jsonl`), jsonl(out));
}

function aider(dir: string, n: number, turns: readonly Turn[], start: string): string {
  const lines = ['', `# aider chat started at ${start.slice(0, 19).replace('T', ' ')}`, ''];
  for (const t of turns) {
    if ('user' in t) lines.push(...t.user.split('\n').map((l) => `#### ${l}  `), '');
    else if ('assistant' in t) lines.push(t.assistant, '');
    else lines.push('> Run shell command? (Y)es/(N)o [Yes]: y  ', ...`Running ${t.bash}\n${t.output}`.split('\n').map((l) => `> ${l}  `), '');
  }
  return write(join(dir, `a${n}`, '.aider.chat.history.md'), lines.join('\n'));
}

function gemini(dir: string, n: number, turns: readonly Turn[], start: string): string {
  const at = clock(start);
  const messages: unknown[] = [];
  let m = 0;
  const msgId = () => `0c1f6a2e-1111-4a0b-8c3d-${String(n * 100 + ++m).padStart(12, '0')}`;
  for (const t of turns) {
    if ('user' in t) messages.push({ id: msgId(), timestamp: at(), type: 'user', content: t.user });
    else if ('assistant' in t) messages.push({ id: msgId(), timestamp: at(), type: 'gemini', content: t.assistant, thoughts: [], model: 'gemini-2.5-pro' });
    else {
      const id = `run_shell_command-${n}${m}`;
      const output = `Command: ${t.bash}\nDirectory: (root)\nOutput: ${t.output}\nError: (none)\nExit Code: ${t.error ? 1 : 0}\nSignal: (none)\nBackground PIDs: (none)`;
      const ts = at();
      messages.push({
        id: msgId(),
        timestamp: ts,
        type: 'gemini',
        content: '',
        toolCalls: [{ id, name: 'run_shell_command', args: { command: t.bash }, result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }], status: 'success', timestamp: ts }],
        thoughts: [],
        model: 'gemini-2.5-pro',
      });
    }
  }
  const sessionId = `5e2a91c0-7d1b-4c3e-9f10-${String(n).padStart(12, '0')}`;
  const doc = { sessionId, projectHash: 'ab'.repeat(32), startTime: start, lastUpdated: at(), messages };
  return write(join(dir, `session-${start.slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}${n}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}

function specstory(dir: string, n: number, turns: readonly Turn[], start: string): string {
  const parts = ['<!-- Generated by SpecStory -->', '', `# Deploy the shop (${start.slice(0, 19).replace('T', ' ')})`, ''];
  let speaker = '';
  const say = (who: string) => {
    if (speaker !== who) parts.push(who === 'user' ? '_**User**_' : '_**Assistant**_', '');
    else parts.push('---', '');
    speaker = who;
  };
  for (const t of turns) {
    if ('user' in t) {
      say('user');
      parts.push(t.user, '', '---', '');
    } else if ('assistant' in t) {
      say('assistant');
      parts.push(t.assistant, '');
    } else {
      say('assistant');
      parts.push('```bash', t.bash, '```', '', '```', t.output, '```', '');
    }
  }
  return write(join(dir, `s${n}`, '.specstory', 'history', `${start.slice(0, 10)}_deploy-${n}.md`), `${parts.join('\n')}\n`);
}

/** Writes the turns as one session of `format` under `dir`; returns the file written. */
export function writeSession(format: WrittenFormat, dir: string, n: number, cwd: string, turns: readonly Turn[], start = '2026-03-02T09:00:00.000Z'): string {
  switch (format) {
    case 'claude-code':
      return writeClaudeSession(join(dir, `${n}.jsonl`), `${String(n).padStart(8, '0')}-2222-4c3d-9e8f-${String(n).padStart(12, '0')}`, cwd, turns, start);
    case 'codex':
      return codex(dir, n, cwd, turns, start);
    case 'hermes':
      return hermes(dir, n, cwd, turns, start);
    case 'openai-chat':
      return openaiChat(dir, n, cwd, turns, start);
    case 'aider':
      return aider(dir, n, turns, start);
    case 'gemini-cli':
      return gemini(dir, n, turns, start);
    case 'specstory':
      return specstory(dir, n, turns, start);
  }
}
