/** A small builder for hand-made Sessions used by the extractor tests. */
import type { Session, SessionEvent } from '../../src/sessions/model.js';

type Extra = { injected?: boolean };

export class SessionBuilder {
  private events: SessionEvent[] = [];
  private calls = 0;

  constructor(private readonly meta: Partial<Session> = {}) {}

  private push(e: Omit<SessionEvent, 'index' | 'source'> & Extra): this {
    const index = this.events.length;
    this.events.push({ ...e, index, source: { file: 'test.jsonl', line: index + 1 } } as SessionEvent);
    return this;
  }

  user(text: string, extra: Extra = {}): this {
    return this.push({ kind: 'user', text, ...extra });
  }

  assistant(text: string): this {
    return this.push({ kind: 'assistant', text });
  }

  reasoning(text: string): this {
    return this.push({ kind: 'reasoning', text });
  }

  summary(text: string): this {
    return this.push({ kind: 'summary', text, injected: true });
  }

  /** A notice of the agent's own program (aider's `> …` lines). */
  system(text: string): this {
    return this.push({ kind: 'system', text, injected: true });
  }

  bootstrap(text: string): this {
    return this.push({ kind: 'bootstrap', text, itemIds: [], injected: true });
  }

  /** A tool call and its result. */
  tool(
    name: string,
    input: Record<string, unknown>,
    output: string,
    result: { isError?: boolean; exitCode?: number; rejected?: boolean; cascade?: boolean } = {},
  ): this {
    const callId = `call_${++this.calls}`;
    const command = typeof input.command === 'string' ? input.command : undefined;
    this.push({ kind: 'tool_call', name, input, callId, ...(command ? { command } : {}) });
    return this.push({
      kind: 'tool_result',
      callId,
      name,
      output,
      isError: result.isError ?? (result.exitCode !== undefined && result.exitCode !== 0),
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      ...(result.rejected ? { rejected: true } : {}),
      ...(result.cascade ? { cascade: true } : {}),
    });
  }

  /** A tool call the transcript shows no result of (an export that kept no output for it). */
  unanswered(name: string, input: Record<string, unknown>): this {
    const callId = `call_${++this.calls}`;
    const command = typeof input.command === 'string' ? input.command : undefined;
    return this.push({ kind: 'tool_call', name, input, callId, ...(command ? { command } : {}) });
  }

  /** A shell command through the Bash tool. */
  bash(command: string, output: string, exitCode = 0): this {
    return this.tool('Bash', { command }, exitCode === 0 ? output : `Exit code ${exitCode}\n${output}`, { exitCode });
  }

  build(): Session {
    return {
      id: 'test-session',
      format: 'claude-code',
      agent: 'claude-code',
      repo: 'demo',
      cwd: '/home/dev/demo',
      models: [],
      file: 'test.jsonl',
      bytes: 0,
      warnings: [],
      ...this.meta,
      events: this.events,
    };
  }
}

/** A build that fails on a schema field, the agent's cause, one schema edit, a regenerate and a
 * build that passes: the shape of an error fix with a cause and a fix. */
export function schemaFixSession(): SessionBuilder {
  return new SessionBuilder()
    .user('fix the build')
    .bash('pnpm build', "Type error: Argument 'animalID' is required by AnimalCreateInput.", 1)
    .assistant('The issue is that `animalID` is required because it is marked `@id` without a default in the schema.')
    .tool('Edit', { file_path: '/home/dev/demo/prisma/schema.prisma', old_string: 'animalID Int @id', new_string: 'animalID Int @id @default(autoincrement())' }, 'ok')
    .bash('pnpm dlx prisma generate', 'Generated Prisma Client')
    .bash('pnpm build', 'Compiled successfully', 0);
}
