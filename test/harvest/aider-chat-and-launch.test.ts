import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { withAiderLaunches } from '../../src/harvest/aider-launches.js';
import { readSessions } from '../../src/sessions/read.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';

/** The aider-shell-line items of an aider chat history written to a temporary checkout. */
async function items(history: string): Promise<{ title: string; text: string; scope: string; category: string }[]> {
  const file = put(tempDir(), '.aider.chat.history.md', history);
  const { sessions } = await readSessions([file]);
  return sessions.flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-shell-line').map((c) => ({ title: c.title, text: c.text, scope: c.scope, category: c.category })));
}

const launch = `\n# aider chat started at 2025-07-16 20:11:30\n\n> /usr/local/bin/aider --model gpt-4.1  \n> Aider v0.85.2  \n> Git repo: .git with 57 files  \n\n`;

describe('a shell command typed into aider as chat', () => {
  it('says aider sent it to the model, and how to run it', async () => {
    const history = `${launch}#### git add .  \n#### git commit -m "sync the files for aider"  \n\nUnderstood. I will follow the instructions.\n\n> Tokens: 1.8k sent, 15 received.  \n`;
    const [item] = await items(history);
    expect(item).toEqual({
      title: 'aider sends a shell command typed without /run to the model',
      text: 'Aider runs only its own commands: a message without a leading `/` or `!` goes to the model as chat. `git add .` typed into aider ran nothing; the model answered (`Understood. I will follow the instructions.`). Run it as `/run git add .` or `!git add .` (git also as `/git add .`).',
      scope: 'agent',
      category: 'tool-quirk',
    });
  });

  it('says an environment variable belongs to the shell that starts aider', async () => {
    const history = `${launch}#### export OLLAMA_API_BASE=http://localhost:11434  \n> http://localhost:11434  \n> Add URL to the chat? (Y)es/(N)o [Yes]: y  \n> Scraping http://localhost:11434...  \n`;
    const [item] = await items(history);
    expect(item!.text).toBe(
      'Aider runs only its own commands: a message without a leading `/` or `!` goes to the model as chat. `export OLLAMA_API_BASE=…` typed into aider ran nothing; aider offered to scrape the URL in it. Set environment variables in the shell before starting aider (`/run export` runs in a subshell).',
    );
    // the value is this machine's, and may be a key: the item keeps the name only
    const [key] = await items(`${launch}#### export OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789  \n\nUnderstood.\n`);
    expect(key!.text).toContain('`export OPENAI_API_KEY=…` typed into aider ran nothing');
    expect(key!.text).not.toContain('sk-proj');
  });

  it('counts a failed request as sent; a way out typed without / (exit, :q) lost only that request', async () => {
    expect(await items(`${launch}#### :q  \n\nI notice you have not shared any files yet.\n\n> Tokens: 2.4k sent, 84 received.  \n`)).toEqual([]);
    expect(await items(`${launch}#### exit  \n\nGoodbye!\n\n> Tokens: 2.4k sent, 84 received.  \n`)).toEqual([]);
    const [npm] = await items(`${launch}#### npm start  \n> litellm.NotFoundError: VertexAIException - models/gemini-1.5-pro-latest is not found  \n`);
    expect(npm!.text).toContain('`npm start` typed into aider ran nothing; aider sent it to the model as a prompt. Run it as `/run npm start` or `!npm start`.');
    // aider's own launch line typed into aider: a running aider switches models itself
    const [again] = await items(`${launch}#### uv tool run --from aider-chat aider --model gemini/gemini-3-flash  \n\nI cannot run commands.\n`);
    expect(again!.text).toContain('A running aider changes its model with `/model <name>`.');
    // typed as it stands, and its launch options on their own, with a line continuation
    const [plain] = await items(`${launch}#### aider --model gemini/gemini-1.5-pro-exp-0827  \n\nOk, I understand the rules.\n`);
    expect(plain!.title).toBe('aider sends its own launch line typed into it to the model');
    // a bare `aider` asked for nothing a running aider could do: a slip, no lesson
    expect(await items(`${launch}#### aider  \n\n\`aider\` is a command-line tool that facilitates pair programming.\n`)).toEqual([]);
    // (never `/run aider .`: a running aider adds files itself)
    const [dot] = await items(`${launch}#### aider .  \n\nIt seems you shared a folder.\n`);
    expect(dot!.text).toContain('`aider .` typed into aider ran nothing');
    expect(dot!.text).toContain('A running aider takes files with `/add <file>`');
    expect(dot!.text).not.toContain('/run aider');
    const [option] = await items(`${launch}#### --read '**/*' \\  \n\nThe files most likely to need changes are these.\n`);
    expect(option!.title).toBe('aider sends a launch option typed as a message to the model');
    expect(option!.text).toBe(
      "Aider runs only its own commands: a message without a leading `/` or `!` goes to the model as chat. `--read '**/*'` typed into aider ran nothing; the model answered (`The files most likely to need changes are these.`). Options go on the aider command line or in `.aider.conf.yml`; a running aider takes its in-chat commands (here `/read-only <file>`).",
    );
    // three lessons, three items wherever they meet in one store
    const signature = async (message: string) => (await readSessions([put(tempDir(), '.aider.chat.history.md', `${launch}#### ${message}  \n\nUnderstood.\n`)])).sessions.flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-shell-line').map((c) => c.signature));
    expect(new Set([...(await signature('git add .')), ...(await signature("--read '**/*'")), ...(await signature('aider --model gpt-4o'))]).size).toBe(3);
    // (a sentence that starts with an option's name is a request)
    expect(await items(`${launch}#### --verbose is not working for me  \n\nLet me look.\n`)).toEqual([]);
  });

  it('writes nothing for a request that starts with a program name, or a command aider ran after all', async () => {
    // sentences about a command, and requests that start with a word that is also a program
    // and a look typed as chat (`ls`, `git status`): the model's answer lost nothing
    for (const message of ['npm install fails on the CI runner', 'git push is rejected, why?', 'make the interface reflect the controller', 'ls the files you changed.', 'ls', 'git status'])
      expect(await items(`${launch}#### ${message}  \n\nLet me look.\n\n> Tokens: 1.8k sent, 15 received.  \n`)).toEqual([]);
    // the model proposed the command and aider offered to run it
    expect(await items(`${launch}#### npm test  \n\n\`\`\`bash\nnpm test\n\`\`\`\n\n> Tokens: 1.8k sent, 15 received.  \n> npm test  \n> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Running npm test  \n`)).toEqual([]);
    // aider's own commands
    expect(await items(`${launch}#### /run git status  \n> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: n  \n\n#### !ls  \n> Add 1 line of command output to the chat? (Y)es/(N)o [Yes]: n  \n`)).toEqual([]);
  });
});

/** The aider-env-warning items of an aider chat history. */
async function envItems(history: string): Promise<{ title: string; text: string; scope: string }[]> {
  const file = put(tempDir(), '.aider.chat.history.md', history);
  const { sessions } = await readSessions([file]);
  return sessions.flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-env-warning').map((c) => ({ title: c.title, text: c.text, scope: c.scope })));
}

describe("aider's warning that a model's environment variables are not set", () => {
  const warned = (model: string, vars: string[]) =>
    `\n# aider chat started at 2026-04-05 03:59:29\n\n> aider --model ${model}  \n> Warning: ${model} expects these environment variables  \n${vars.map((v) => `> - ${v}: Not set  \n`).join('')}> You can skip this check with --no-show-model-warnings  \n> Aider v0.82.3  \n\n#### add a login page  \n\n`;

  it('is noise on a setup where the model then answered in the same launch', async () => {
    const [item] = await envItems(`${warned('ollama/qwen3', ['OLLAMA_API_BASE'])}Here is the login page.\n\n> Tokens: 8.3k sent, 970 received.  \n`);
    expect(item).toEqual({
      title: 'aider\'s warning "OLLAMA_API_BASE: Not set" is harmless here',
      text: 'At launch aider warns that `ollama/qwen3` expects `OLLAMA_API_BASE` (`OLLAMA_API_BASE: Not set`), yet on this setup the model answered in the same launch: unset, litellm uses Ollama at http://localhost:11434, so the warning is noise while Ollama listens there (for another address, set it before starting aider). `--no-show-model-warnings` hides it, and all other model warnings.',
      scope: 'agent',
    });
    // litellm's ollama_chat/ is the same Ollama
    const [chat] = await envItems(`${warned('ollama_chat/qwen3:8b', ['OLLAMA_API_BASE'])}Here is the login page.\n\n> Tokens: 8.3k sent, 970 received.  \n`);
    expect(chat!.text).toContain('unset, litellm uses Ollama at http://localhost:11434');
    // Bedrock: litellm asks boto3, which finds credentials aider's check does not look for
    const [bedrock] = await envItems(`${warned('bedrock/anthropic.claude-3', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])}Here is the login page.\n\n> Tokens: 8.3k sent, 970 received.  \n`);
    expect(bedrock!.text).toContain("the model answered in the same launch: litellm's Bedrock client can find AWS credentials through boto3 (a `~/.aws` profile, SSO), which aider's check does not see (the transcript does not show which it used).");
    // a provider with no known default says less
    const [other] = await envItems(`${warned('azure/gpt-4o', ['AZURE_API_KEY'])}Here is the login page.\n\n> Tokens: 8.3k sent, 970 received.  \n`);
    expect(other!.text).toContain('the model answered in the same launch: the provider found its settings without it, and the warning can be ignored here.');
  });

  it('says nothing when the requests then failed: for want of credentials aider said twice what was missing, another failure may not be the warning\'s', async () => {
    const failed = `${warned('bedrock/anthropic.claude-3', ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])}> litellm.AuthenticationError: BedrockException - Unable to locate credentials  \n`;
    expect(await envItems(failed)).toEqual([]);
    const openrouter = `${warned('openrouter/google/gemini-2.0-flash-exp:free', ['OPENROUTER_API_KEY'])}> litellm.AuthenticationError: AuthenticationError: OpenrouterException - b'{"error":{"message":"No auth credentials found","code":401}}'  \n`;
    expect(await envItems(openrouter)).toEqual([]);
    const missing = `${warned('ollama/codellama', ['OLLAMA_API_BASE'])}> litellm.APIConnectionError: OllamaException - {"error":"model 'codellama' not found"}  \n`;
    expect(await envItems(missing)).toEqual([]);
  });
});

describe('an exhausted API quota', () => {
  it('is told as no rate limit, with the retries aider still made', async () => {
    const file = put(tempDir(), '.aider.chat.history.md', `\n# aider chat started at 2025-02-04 22:40:09\n\n> aider --model gpt-3.5-turbo  \n> Aider v0.73.0  \n> Main model: gpt-3.5-turbo with whole edit format  \n\n#### make the frontend  \n> litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs.', 'type': 'insufficient_quota'}}  \n> The API provider has rate limited you. Try again later or check your quotas.  \n> Retrying in 0.2 seconds...  \n`);
    const { sessions } = await readSessions([file]);
    const [item] = sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('quota')));
    expect(item).toMatchObject({ scope: 'agent', category: 'pitfall' });
    expect(item!.text).toBe(
      "Requests (here with `gpt-3.5-turbo`) failed with 429 `You exceeded your current quota, please check your plan and billing details`: the account has no credit left, whichever model it asks for, and no wait fixes that, yet aider v0.73.0 reads it as a rate limit and retries with growing backoff (`Retrying in 0.2 seconds`…). Stop it (Ctrl-C) and fix the plan or the key.",
    );
  });
});

describe("a request larger than the provider's tokens-per-minute limit", () => {
  const history = (limit: number, requested: number, retried: boolean) =>
    `\n# aider chat started at 2024-10-13 19:44:28\n\n> aider --model groq/llama3-70b-8192  \n> Aider v0.59.1  \n> Main model: groq/llama3-70b-8192 with whole edit format  \n\n#### /add .  \n> Directory /srv/prodj is not in git.  \n\n#### /add *  \n\n#### explain the code  \n> litellm.RateLimitError: RateLimitError: GroqException - Error code: 413 - {'error': {'message': 'Request too large for model \`llama3-70b-8192\` in organization \`org_01\` on tokens per minute (TPM): Limit ${limit}, Used 0, Requested ${requested}, please reduce your message size and try again.', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}  \n${retried ? '> Retrying in 0.2 seconds...  \n' : ''}`;
  const items = async (text: string) => {
    const { sessions } = await readSessions([put(tempDir(), '.aider.chat.history.md', text)]);
    return sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('tokens-per-minute')));
  };

  it('is told as no rate limit: the request must shrink', async () => {
    const [item] = await items(history(6000, 64183, true));
    expect(item).toMatchObject({ scope: 'agent', category: 'pitfall' });
    // (the organization's id stays out of the evidence)
    expect(item!.quotes.join(' ')).not.toContain('org_01');
    expect(item!.text).toBe(
      "A 64,183-token request to `llama3-70b-8192` was over the key's 6,000 tokens-per-minute limit (`Request too large … (TPM)`): no wait lets it through, yet aider v0.59.1 retried it as a rate limit (`Retrying in 0.2 seconds`…). Shrink the request (`/tokens` shows it): `/drop` files (the chat held what `/add *` had added) or lower `--map-tokens`.",
    );
  });

  it('names no repo map where the launch had none', async () => {
    const [item] = await items(history(6000, 64183, true).replace('with whole edit format  \n', 'with whole edit format  \n> Repo-map: disabled  \n'));
    expect(item!.text).toMatch(/`\/drop` files \(the chat held what `\/add \*` had added\)\.$/);
  });

  it('is nothing where the request fits the limit or aider did not retry it', async () => {
    expect(await items(history(12000, 9000, true))).toEqual([]);
    expect(await items(history(6000, 64183, false))).toEqual([]);
  });
});

describe("a free tier's quota, counted per minute and per day", () => {
  it('is told as a limit that resets, with the wait the server asked for', async () => {
    const body = String.raw`{\n  "error": {\n    "code": 429,\n    "message": "You exceeded your current quota, please check your plan and billing details.",\n    "status": "RESOURCE_EXHAUSTED",\n    "details": [{"violations": [{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}, {"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "56s"}]\n  }\n}\n`;
    const file = put(tempDir(), '.aider.chat.history.md', `\n# aider chat started at 2025-04-07 03:59:01\n\n> aider --model gemini  \n> Aider v0.81.1  \n> Main model: gemini/gemini-2.5-pro-preview-03-25 with diff-fenced edit format  \n\n#### add a detector  \n> litellm.RateLimitError: litellm.RateLimitError: VertexAIException - b'${body}'  \n> The API provider has rate limited you. Try again later or check your quotas.  \n> Retrying in 0.2 seconds...  \n`);
    const { sessions } = await readSessions([file]);
    const [item] = sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('quota')));
    expect(item!.title).toBe('aider retries a free-tier quota limit (429) sooner than the provider asks');
    expect(item!.text).toContain("hit the provider's free-tier limit (counted per minute and per day): 429 `You exceeded your current quota`, retry in 56s. Aider v0.81.1 retried after 0.2 s, sooner than that. Use another model or a billed key (a per-day limit resets only the next day).");
    // retries the history shows failing are counted (the last may have no outcome)
    const error = `> litellm.RateLimitError: litellm.RateLimitError: VertexAIException - b'${body}'  \n`;
    const twice = put(tempDir(), '.aider.chat.history.md', `\n# aider chat started at 2025-04-07 03:59:01\n\n> aider --model gemini  \n> Aider v0.81.1  \n\n#### add a detector  \n${error}> Retrying in 0.2 seconds...  \n${error}> Retrying in 0.5 seconds...  \n${error}> Retrying in 1.0 seconds...  \n`);
    const [counted] = (await readSessions([twice])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('quota')));
    expect(counted!.text).toContain('Aider v0.81.1 retried after 0.2 s up to 1.0 s, sooner than that, and the 2 retries shown failed.');
    // a retry that then got the model's reply went through: the window that ran out was no day's
    const through = put(tempDir(), '.aider.chat.history.md', `\n# aider chat started at 2025-04-07 03:59:01\n\n> aider --model gemini  \n> Aider v0.81.1  \n\n#### add a detector  \n${error}> Retrying in 0.2 seconds...  \n${error}> Retrying in 0.5 seconds...  \n\nHere is the detector.\n\n> Tokens: 2k sent, 300 received.  \n`);
    const [passed] = (await readSessions([through])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('quota')));
    expect(passed!.text).toContain('Aider v0.81.1 retried after 0.2 s up to 0.5 s, sooner than that; 1 of the 2 retries shown failed before one went through. Use another model or a billed key, or wait for the reset.');
    expect(item!.text).not.toContain('no credit left');
  });

  it('is told as no quota at all where its limit is 0: no wait helps', async () => {
    const body = String.raw`{\n  "error": {\n    "code": 429,\n    "message": "You exceeded your current quota, please check your plan and billing details. \\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-3.1-pro\\nPlease retry in 1.66s.",\n    "status": "RESOURCE_EXHAUSTED",\n    "details": [{"violations": [{"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}]\n  }\n}\n`;
    const file = put(tempDir(), '.aider.chat.history.md', `\n# aider chat started at 2026-09-18 14:08:24\n\n> aider --model gemini/gemini-3.1-pro-preview  \n> Aider v0.86.2  \n> Main model: gemini/gemini-3.1-pro-preview with diff-fenced edit format  \n\n#### fix the countdown  \n> litellm.RateLimitError: litellm.RateLimitError: vertex_ai_betaException - b'${body}'  \n> Retrying in 0.2 seconds...  \n`);
    const [item] = (await readSessions([file])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('limit 0')));
    // (a free tier's metric: the tier's limit, for every key on it)
    expect(item!.title).toBe('aider: gemini/gemini-3.1-pro-preview gets no free-tier requests (limit 0)');
    expect(item!.text).toBe(
      "`gemini/gemini-3.1-pro-preview`'s requests failed with 429 (`generate_content_free_tier_requests, limit: 0, model: gemini-3.1-pro`): the free tier allows this model no requests at all, so no wait helps, yet aider v0.86.2 retried (`Retrying in 0.2 seconds`…). Use a model the tier serves, or a billed key.",
    );
    // a model an earlier launch of the history got answers from is named as one the tier serves
    const earlier = `\n# aider chat started at 2026-09-18 13:50:00\n\n> aider --model gemini/gemini-2.5-flash  \n> Aider v0.86.2  \n> Main model: gemini/gemini-2.5-flash with diff-fenced edit format  \n\n#### hi  \n\nHello!\n\n> Tokens: 2k sent, 12 received.  \n`;
    const two = put(tempDir(), '.aider.chat.history.md', earlier + readFileSync(file, 'utf8'));
    const [named] = withAiderLaunches((await readSessions([two])).sessions).flatMap((s) => extractSession(s).filter((c) => c.title.includes('limit 0')));
    expect(named!.text).toContain('`gemini/gemini-2.5-flash` got answers in an earlier launch; use a model the tier serves, or a billed key.');
    // and a limit of the key's own tier is told as the key's
    const keyed = put(tempDir(), '.aider.chat.history.md', readFileSync(file, 'utf8').replace('generate_content_free_tier_requests', 'generate_content_paid_tier_requests').replace('-FreeTier', ''));
    const [own] = (await readSessions([keyed])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('limit 0')));
    expect(own!.title).toBe('aider: gemini/gemini-3.1-pro-preview has no quota on this key (429, limit 0)');
  });
});

describe('aider token limits', () => {
  const limit = (input: string) =>
    `> Model openai/ox-alpha has hit a token limit!  \n> Token counts below are approximate.  \n>  \n> Input tokens: ~${input} of 0 -- possibly exhausted context window!  \n> Output tokens: ~0 of 0 -- possibly exceeded output limit!  \n> https://aider.chat/docs/troubleshooting/token-limits.html  \n`;
  const history = (warned: boolean, hits: number) =>
    `\n# aider chat started at 2026-09-16 12:17:26\n\n> aider --model openai/ox-alpha  \n${warned ? '> Warning for openai/ox-alpha: Unknown context window size and costs, using sane defaults.  \n' : ''}> Aider v0.86.2  \n> Model: openai/ox-alpha with whole edit format  \n> Git repo: none  \n` +
    Array.from({ length: hits }, (_, i) => `\n#### write part ${i + 1} of the sniffer  \n\nHere is part ${i + 1}:\n\n${limit(`${2 + i},953`)}`).join('');
  const items = async (warned: boolean, hits: number) =>
    (await readSessions([put(tempDir(), '.aider.chat.history.md', history(warned, hits))])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('token limit')));

  it('says a model aider cannot size keeps having its replies cut, with no fix it did not see work', async () => {
    const [item] = await items(true, 3);
    expect(item!.title).toBe('aider: openai/ox-alpha keeps hitting a token limit aider cannot size');
    expect(item!.text).toBe(
      "`openai/ox-alpha`'s replies ended again and again in aider's `Model openai/ox-alpha has hit a token limit!` (`Input tokens: ~2,953 of 0`): it knows no limits for this model (`Unknown context window size`), so its counts say nothing; some replies came back empty. Smaller requests (the whole format resends whole files), `/drop` and `/clear` need not help.",
    );
    // once is a long reply; a model aider knows has counts that say which limit it was
    expect(await items(true, 1)).toEqual([]);
    expect(await items(false, 3)).toEqual([]);
  });
});

describe('aider --yes-always', () => {
  it('says a URL in the message was scraped with nobody asked, by its host', async () => {
    const history = (flags: string) =>
      `\n# aider chat started at 2026-05-02 10:00:00\n\n> /opt/homebrew/bin/aider --model ollama_chat/qwen2.5-coder:14b ${flags} --message see https://app.clickup.com/t/86aea4mq9  \n> Aider v0.86.2  \n\n#### see https://app.clickup.com/t/86aea4mq9  \n> https://app.clickup.com/t/86aea4mq9  \n> Add URL to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Scraping https://app.clickup.com/t/86aea4mq9...  \n\nThe ticket asks for a battery.\n`;
    const file = put(tempDir(), '.aider.chat.history.md', history('--yes-always --no-auto-commits'));
    const { sessions } = await readSessions([file]);
    const [item] = sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('yes-always')));
    expect(item!.text).toBe(
      'With `--yes-always` aider answers its own offers yes as well: a URL in the message (`app.clickup.com`) was scraped into the chat, with nobody asked. In scripted runs pass `--no-detect-urls` (or keep URLs out of `--message`) unless the page should be read.',
    );
    // the user who answered the question: no item
    const asked = put(tempDir(), '.aider.chat.history.md', history('--no-auto-commits'));
    const again = (await readSessions([asked])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('yes-always')));
    expect(again).toEqual([]);
  });

  it('says the shell commands the model proposed were declined, however the flag stands on the launch line', async () => {
    const history = (launch: string) =>
      `\n# aider chat started at 2025-12-07 22:11:07\n\n> /usr/local/bin/aider ${launch} --message add the mongo utility  \n> Aider v0.86.1  \n> Model: gpt-4o with diff edit format  \n\n#### add the mongo utility  \n\nRun the tests:\n\n\`\`\`bash\nvitest run\n\`\`\`\n\n> Tokens: 3k sent, 200 received.  \n> vitest run  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: n  \n> npm install  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: n  \n`;
    const titles = async (launch: string) => (await readSessions([put(tempDir(), '.aider.chat.history.md', history(launch))])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('yes-always')));
    // (the flag first on the line, right after the program)
    const [item] = await titles('--yes-always');
    expect(item!.text).toBe(
      'With `--yes-always` aider answers yes to its questions except `Run shell command?`, which it answers no: the commands the model proposed (here `vitest run`, `npm install`) never ran. A scripted run has to run the tests and installs itself, outside aider.',
    );
    expect(await titles('--model gpt-4o --yes-always')).toHaveLength(1);
    // a user who answered no at the prompt chose to: no item
    expect(await titles('--model gpt-4o')).toEqual([]);
  });
});

describe("aider's offer to upgrade itself", () => {
  const history = (python: string, outcome: string, version: string) =>
    `\n# aider chat started at 2026-02-24 16:53:06\n\n> Newer aider version v0.86.2 is available.  \n> ${python} -m pip install --upgrade --upgrade-strategy only-if-needed aider-chat  \n> Run pip install? (Y)es/(N)o [Yes]: y  \n> Collecting aider-chat  \n> Attempting uninstall: pyperclip  \n${outcome}` +
    `> /opt/homebrew/bin/aider --model xai/grok-code-fast-1  \n> Aider ${version}  \n> Git repo: .git with 50 files  \n\n#### add the page  \n`;
  const brewFailed = '> error: uninstall-no-record-file  \n>  \n> × Cannot uninstall pyperclip 1.9.0  \n> ╰─> The package\'s contents are unknown: no RECORD file was found for pyperclip.  \n>  \n> hint: The package was installed by brew. You should check if it can uninstall the package.  \n';
  const upgrades = async (python: string, outcome: string, version = 'v0.86.1') =>
    (await readSessions([put(tempDir(), '.aider.chat.history.md', history(python, outcome, version))])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('upgrade itself')));

  it('says an install a package manager owns refuses pip, with that manager\'s upgrade', async () => {
    const [item] = await upgrades('/opt/homebrew/Cellar/aider/0.86.1_2/libexec/bin/python', brewFailed);
    expect(item).toMatchObject({ title: 'aider installed with Homebrew cannot upgrade itself with pip', scope: 'agent', category: 'tool-quirk' });
    expect(item!.text).toBe(
      "Aider's offer at launch to upgrade itself (`Newer aider version v0.86.2 is available.`, `Run pip install?`) runs pip in the Python of its Homebrew install, which Homebrew owns: pip fails (`Cannot uninstall pyperclip 1.9.0`, `hint: The package was installed by brew`) and aider starts at the old version (`Aider v0.86.1`). Upgrade with `brew upgrade aider` and answer no to the offer.",
    );
    // an upgrade that worked, or whose failure names no package manager, is no lesson
    expect(await upgrades('/opt/homebrew/Cellar/aider/0.86.1_2/libexec/bin/python', '> Successfully installed aider-chat-0.86.2  \n> Re-run aider to use new version.  \n', 'v0.86.2')).toEqual([]);
    expect(await upgrades('/home/dev/venv/bin/python', '> ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device  \n')).toEqual([]);
    // the install's path says who owns it where pip's hint does not
    const [uv] = await upgrades('/home/dev/.local/share/uv/tools/aider-chat/bin/python', '> error: uninstall-no-record-file  \n');
    expect(uv!.text).toContain('Upgrade with `uv tool upgrade aider-chat`');
    expect(uv!.text).not.toContain('/home/dev');
  });
});

describe("a module aider's model needs, missing from aider's own Python", () => {
  const history = (site: string) =>
    `\n# aider chat started at 2025-04-16 09:58:45\n\n> /home/dev/.local/bin/aider --model us.anthropic.claude-3-7-sonnet-20250219-v1:0  \n> Aider v0.82.0  \n> Git repo: .git with 30 files  \n\n#### take a look at lua/dap_projects.lua  \n> litellm.APIConnectionError: No module named 'boto3'  \n> Traceback (most recent call last):  \n> File "${site}/litellm/main.py", line 2664, in completion  \n> response = bedrock_converse_chat_completion.completion(  \n> File "${site}/litellm/llms/bedrock/base_aws_llm.py", line 499, in _auth_with_env_vars  \n> import boto3  \n> ModuleNotFoundError: No module named 'boto3'  \n> You need to: pip install boto3  \n`;
  const items = async (site: string) =>
    (await readSessions([put(tempDir(), '.aider.chat.history.md', history(site))])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('own environment')));

  it("says it goes into that install's environment, by the installer its paths show", async () => {
    const [uv] = await items('/home/dev/.local/share/uv/tools/aider-chat/lib/python3.12/site-packages');
    expect(uv).toMatchObject({ title: 'aider installed with uv needs boto3 in its own environment', scope: 'agent' });
    expect(uv!.text).toBe(
      "Aider installed with uv runs in a Python of its own: its Bedrock model's requests failed with `No module named 'boto3'`, and the `pip install boto3` aider's message names reaches another Python. Aider's documentation installs it into aider's environment with `uv tool run --from aider-chat pip install boto3`.",
    );
    const [pipx] = await items('/home/dev/.local/pipx/venvs/aider-chat/lib/python3.12/site-packages');
    expect(pipx!.text).toContain('`pipx inject aider-chat boto3`');
    // an install whose way in nobody documented, or a Python of the user's own: no advice to give
    expect(await items('/opt/homebrew/Cellar/aider/0.82.0/libexec/lib/python3.12/site-packages')).toEqual([]);
    expect(await items('/home/dev/venv/lib/python3.12/site-packages')).toEqual([]);
  });
});

describe('command output added to an aider chat', () => {
  const run = (command: string, n: number) =>
    `\n#### fix the build  \n\nRun this:\n\n\`\`\`bash\n${command}\n\`\`\`\n\n> ${command}  \n> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Running ${command}  \n> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Added ${n} lines of output to the chat.  \n`;
  const limit = '\n#### fix npm run submit issue  \n\nLet us look.\n\n> Model gpt-4o has hit a token limit!  \n> Token counts below are approximate.  \n>  \n> Input tokens: ~127,266 of 128,000 -- possibly exhausted context window!  \n> Output tokens: ~72 of 16,384  \n';
  const items = async (outputs: [string, number][]) => {
    const history = `\n# aider chat started at 2025-07-16 13:01:46\n\n> aider --model gpt-4o  \n> Aider v0.85.1  \n> Model: gpt-4o with diff edit format  \n${outputs.map(([c, n]) => run(c, n)).join('')}${limit}`;
    return (await readSessions([put(tempDir(), '.aider.chat.history.md', history)])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('context window')));
  };

  it("is told as what filled the model's window, with the largest output", async () => {
    const [item] = await items([['npm install', 611], ['npm run submit', 215], ['npm run submit', 215]]);
    expect(item!.text).toBe(
      "Command output added to the chat (`Add command output to the chat?` answered yes) stays in the chat history and goes with every later message: 1041 lines were added here (`npm install`'s 611 among them) before `gpt-4o` hit its window (`Input tokens: ~127,266 of 128,000`). Answer no to long output and paste the lines that matter, or `/clear` the history.",
    );
    // a few lines of output did not fill it: some other message did
    expect(await items([['npm test', 40]])).toEqual([]);
  });
});

describe('what aider does on its own around the work', () => {
  const items = async (history: string, word: string) =>
    (await readSessions([put(tempDir(), '.aider.chat.history.md', history)])).sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes(word)));

  it("commits a file's uncommitted changes before editing it, unless launched without dirty commits", async () => {
    const history = (flags: string) =>
      `\n# aider chat started at 2025-01-02 10:00:00\n\n> /home/dev/.local/bin/aider --model gpt-4o${flags}  \n> Aider v0.70.0  \n> Git repo: .git with 3 files  \n\n#### add a search box  \n\nHere it is.\n\n> Tokens: 2.4k sent, 176 received.  \n> Committing src/Wiki.jsx before applying edits.  \n> Commit c522407 feat: Add Wiki component to the source directory  \n> Applied edit to src/Wiki.jsx  \n`;
    const [item] = await items(history(''), 'uncommitted');
    expect(item!.text).toBe(
      "Before it applies an edit to a file with uncommitted changes, aider commits those changes under a message it writes (`Committing src/Wiki.jsx before applying edits.`, then a commit `feat: Add Wiki component to the source directory`): uncommitted work in that file goes into a commit nobody wrote. Commit or stash it first, or start aider with `--no-dirty-commits`.",
    );
    expect(item!.text).not.toContain('c522407');
    expect(await items(history(' --no-dirty-commits'), 'uncommitted')).toEqual([]);
  });

  it('makes an empty file of a launch word that names no file, and says so; a file meant is no junk', async () => {
    const history = (word: string) =>
      `\n# aider chat started at 2025-12-09 10:52:17\n\n> /opt/homebrew/bin/aider ${word}  \n> Creating empty file /Users/dev/.config/nvim/${word}  \n> Aider v0.86.1  \n> Git repo: .git with 0 files  \n> Added ${word} to the chat.  \n\n#### fix the keymap  \n`;
    const [item] = await items(history('$'), 'empty file');
    expect(item!.text).toContain('a word that names no file made `Creating empty file …/$`, a junk file in the repository.');
    expect(item!.text).not.toContain('/Users/dev');
    expect(await items(history('notes.md'), 'empty file')).toEqual([]);
  });
});
