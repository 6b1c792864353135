/**
 * A planted-secrets corpus: every fake secret and some personal data written into the shapes of
 * the transcript formats the harvester reads (JSONL with escaped strings, doubly escaped tool
 * arguments, Python-style JSON, pretty JSON, markdown, raw shell output).
 */
import { fakeB64, fakePem, SECRETS as S } from './fakes.js';

export interface CorpusDoc {
  name: string;
  text: string;
  /** Every string that must be gone after redact. */
  planted: string[];
  /** True when each line is a JSON document that must still parse after redact. */
  jsonl?: boolean;
  json?: boolean;
}

const USER = 'marco';
const EMAIL = 'marco.rossi@gmail.com';
const pem = `-----BEGIN OPENSSH PRIVATE KEY-----\n${fakePem(5)}\n-----END OPENSSH PRIVATE KEY-----`;
const k8sSecret = fakeB64(24);

/** Python json.dumps style: spaces after ":" and ",". */
function pyDumps(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

function claudeCode(): CorpusDoc {
  const env = { cwd: `/home/${USER}/projects/shop`, sessionId: 's-1', version: '2.1.39', gitBranch: 'main' };
  const lines = [
    { ...env, type: 'user', message: { role: 'user', content: `deploy with my token ${S.ghp} and ping ${EMAIL}` } },
    {
      ...env,
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: `export OPENAI_API_KEY=${S.openai}\nnpm test` } }],
      },
    },
    {
      ...env,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            is_error: true,
            content: `Exit code 1\nError: connect ECONNREFUSED\n  at postgres://shop:${S.urlPassword}@db:5432/shop\n${pem}\nhint: ${USER} owns /home/${USER}/.ssh`,
          },
        ],
      },
      toolUseResult: `Error: Exit code 1\nAuthorization: Bearer ${S.bearer}`,
    },
    { ...env, type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Set STRIPE_KEY=${S.stripeLive} and JWT ${S.jwt}; Marco asked for it.` }] } },
  ];
  return {
    name: 'claude-code.jsonl',
    text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    planted: [S.ghp, EMAIL, S.openai, S.urlPassword, pem.split('\n')[2] as string, S.bearer, S.stripeLive, S.jwt, `/home/${USER}`, USER, 'Marco'],
    jsonl: true,
  };
}

function codex(): CorpusDoc {
  const args = JSON.stringify({ cmd: `curl -H 'Authorization: Bearer ${S.bearer}' -u deploy:${S.cliPassword} https://ci/x\nDB_PASSWORD=${S.envPassword} ./migrate`, workdir: `/Users/${USER}/repos/shop` });
  const lines = [
    { timestamp: '2026-01-05T10:00:00.000Z', type: 'session_meta', payload: { id: '019b', cwd: `/Users/${USER}/repos/shop`, git: { repository_url: 'git@github.com:acme/shop.git' } } },
    { timestamp: '2026-01-05T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: args, call_id: 'call_1' } },
    {
      timestamp: '2026-01-05T10:00:02.000Z',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'call_1', output: `Process exited with code 0\nOutput:\nAWS_ACCESS_KEY_ID=${S.awsAccess}\nAWS_SECRET_ACCESS_KEY=${S.awsSecret}\nSLACK_BOT_TOKEN=${S.slackBot}` },
    },
    { timestamp: '2026-01-05T10:00:03.000Z', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'call_1', command: ['/bin/zsh', '-lc', `hf download --token ${S.hf}`], exit_code: 0 } },
  ];
  return {
    name: 'codex.jsonl',
    text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    planted: [S.bearer, S.cliPassword, S.envPassword, `/Users/${USER}`, S.awsAccess, S.awsSecret, S.slackBot, S.hf],
    jsonl: true,
  };
}

function hermes(): CorpusDoc {
  const lines = [
    { role: 'session_meta', model: 'anthropic/claude-sonnet-4', platform: 'cli', timestamp: '2026-01-05T10:00:00.000001' },
    { role: 'user', content: `my anthropic key is ${S.anthropic} — use it 🙂`, timestamp: '2026-01-05T10:00:00.000001' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'terminal', arguments: pyDumps({ command: `git push https://x-access-token:${S.ghs}@github.com/acme/shop.git` }) } }],
    },
    { role: 'tool', content: pyDumps({ output: `remote: Permission denied to ${EMAIL}\nfatal: unable to access`, exit_code: 128, error: null }), tool_call_id: 'call_1' },
  ];
  return {
    name: 'hermes.jsonl',
    text: lines.map(pyDumps).join('\n') + '\n',
    planted: [S.anthropic, S.ghs, EMAIL],
    jsonl: true,
  };
}

function gemini(): CorpusDoc {
  const doc = {
    sessionId: '5b1c',
    messages: [
      { id: 'm1', type: 'user', content: `use GOOGLE_API_KEY=${S.google} from C:\\Users\\${USER}\\secrets.txt` },
      {
        id: 'm2',
        type: 'gemini',
        content: '',
        toolCalls: [
          {
            id: 'run_shell_command-1',
            name: 'run_shell_command',
            args: { command: `gcloud auth print-access-token` },
            status: 'success',
            result: [{ functionResponse: { response: { output: `client_secret=${S.googleOauth}\nsendgrid: ${S.sendgrid}` } } }],
          },
        ],
      },
    ],
  };
  return {
    name: 'gemini.json',
    text: JSON.stringify(doc, null, 2),
    planted: [S.google, `C:\\\\Users\\\\${USER}`, S.googleOauth, S.sendgrid, USER],
    json: true,
  };
}

function aider(): CorpusDoc {
  const text = [
    '# aider chat started at 2025-01-05 10:00:00',
    '',
    '> aider --model gpt-4o  ',
    `> Git repo: /home/${USER}/src/shop/.git  `,
    '',
    `#### the deploy fails, my npm token is ${S.npm} and pypi ${S.pypi}  `,
    '',
    'The `.npmrc` needs the token:',
    '',
    '```ini',
    `//registry.npmjs.org/:_authToken=${S.npm}`,
    '```',
    '',
    `> Commit c339495 fix: read token from env (author ${EMAIL})  `,
    '',
    '```yaml',
    'apiVersion: v1',
    'kind: Secret',
    'data:',
    `  password: ${k8sSecret}`,
    `  webhook: ${S.slackWebhook}`,
    '```',
  ].join('\n');
  return { name: 'aider.md', text, planted: [`/home/${USER}`, S.npm, S.pypi, EMAIL, k8sSecret, S.slackWebhook, USER] };
}

function shell(): CorpusDoc {
  const text = [
    '$ env | sort',
    `GITLAB_TOKEN=${S.glpat}`,
    `GROQ_API_KEY=${S.groq}`,
    'HOME=/home/marco',
    `PPLX_API_KEY=${S.perplexity}`,
    `REPLICATE_API_TOKEN=${S.replicate}`,
    `SIGNING_SEED=${S.highEntropy}`,
    `XAI_API_KEY=${S.xai}`,
    '$ git log -1',
    'commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    `Author: Marco Rossi <${EMAIL}>`,
    '$ cat appsettings.json',
    `{ "ConnectionStrings": { "Db": "Server=db;User Id=sa;Password=${S.connPassword};" } }`,
    `$ doctl auth init -t ${S.digitalocean}`,
    `$ curl -H "X-Shopify-Access-Token: ${S.shopify}" https://shop.myshopify.com/admin`,
    `$ curl ${S.discordWebhook}`,
    `$ stripe listen --api-key ${S.stripeTest}`,
    `gho: ${S.gho} ghu: ${S.ghu} pat: ${S.githubPat} rk: ${S.stripeRestricted} proj: ${S.openaiProj}`,
    `xoxp: ${S.slackUser} basic: Authorization: Basic ${S.basic}`,
  ].join('\n');
  return {
    name: 'shell.txt',
    text,
    planted: [
      S.glpat, S.groq, '/home/marco', S.perplexity, S.replicate, S.highEntropy, S.xai, EMAIL, S.connPassword,
      S.digitalocean, S.shopify, S.discordWebhook, S.stripeTest, S.gho, S.ghu, S.githubPat, S.stripeRestricted,
      S.openaiProj, S.slackUser, S.basic, 'marco', 'Marco',
    ],
  };
}

export const CORPUS: readonly CorpusDoc[] = [claudeCode(), codex(), hermes(), gemini(), aider(), shell()];
