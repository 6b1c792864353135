/**
 * Any program as the model (`claude -p --model haiku`, `codex exec -`, a local script): the whole
 * request on stdin (the system prompt, a blank line, then the view), the answer on stdout. A
 * non-zero exit, or no answer within the timeout, fails that request. The command line is run by
 * the shell, as a user types it in the config. Its batch lines use the OpenAI Batch format.
 */
import { spawn } from 'node:child_process';
import { RequestError, type RetryPolicy } from '../http.js';
import type { BatchResult, Completion, ModelProvider, Prompt, ProviderOptions } from '../provider.js';
import { OpenAIProvider } from './openai.js';

export function runCommand(command: string, input: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    // its own process group, so that a timeout stops the program and not only the shell around it
    const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], env, detached: process.platform !== 'win32' });
    const out: Buffer[] = [];
    let errTail = '';
    let done = false;
    const finish = (err?: Error, text?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(text ?? '');
    };
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      finish(new RequestError(`model command gave no answer within ${Math.round(timeoutMs / 1000)} s`, true));
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (errTail = (errTail + b.toString('utf8')).slice(-300)));
    child.on('error', (e) => finish(new RequestError(`model command could not start (${e.message})`, false)));
    child.on('close', (code, signal) => {
      if (code === 0) finish(undefined, Buffer.concat(out).toString('utf8'));
      else finish(new RequestError(`model command exited with ${code ?? signal}${errTail.trim() ? `: ${errTail.trim().split('\n').pop()}` : ''}`, false));
    });
    child.stdin.on('error', () => {}); // a command that does not read its input: its exit says the rest
    child.stdin.end(input);
  });
}

export class CommandProvider implements ModelProvider {
  readonly provider = 'command' as const;
  readonly model: string;
  private readonly command: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly retry: RetryPolicy;
  private readonly batch: OpenAIProvider;

  constructor(options: ProviderOptions) {
    this.model = options.config.name;
    this.command = options.config.command ?? '';
    this.env = options.env;
    this.retry = options.retry;
    this.batch = new OpenAIProvider(options);
  }

  ready(): void {
    // a command that cannot start fails its first request (and the session stays pending)
  }

  async complete(prompt: Prompt): Promise<Completion> {
    const text = await runCommand(this.command, `${prompt.system}\n\n${prompt.user}`, this.retry.timeoutMs, this.env);
    return { text, truncated: false };
  }

  batchLine(customId: string, prompt: Prompt): object {
    return this.batch.batchLine(customId, prompt);
  }

  batchResult(line: unknown): BatchResult | undefined {
    return this.batch.batchResult(line);
  }
}
