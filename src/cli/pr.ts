/**
 * `compound pr`: opens or updates the one pull request of the nightly branch, the way the
 * changesets action keeps one release PR. Idempotent: an open PR for the branch is updated (title
 * and body), else one is created; a merged or closed one is left alone, so the next night opens
 * a new one. GitHub REST through GITHUB_API_URL (default api.github.com) with GITHUB_TOKEN; the
 * repository from --repo or GITHUB_REPOSITORY. The token is never printed.
 */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { EXIT, RuntimeError, UsageError } from '../core/errors.js';
import { redact } from '../redact/index.js';
import { action } from './run.js';
import { note, out, printJson } from './io.js';

interface PrFlags {
  branch: string;
  base?: string;
  title?: string;
  bodyFile?: string;
  repo?: string;
  json?: boolean;
}

interface PullRequest {
  number: number;
  html_url: string;
  state: string;
}

/** GitHub refuses a longer body. */
const MAX_BODY = 65_536;
const ATTEMPTS = 4;

async function call(method: string, url: string, token: string, body?: unknown): Promise<unknown> {
  let last = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'x-github-api-version': '2022-11-28', 'user-agent': 'compound', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      last = `network error (${(err as Error).message})`;
      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      continue;
    }
    const text = await res.text();
    if (res.ok) return text === '' ? undefined : (JSON.parse(text) as unknown);
    const detail = redact(text.split(token).join('[REDACTED]').replace(/\s+/g, ' ')).text.slice(0, 300);
    if (res.status < 500 && res.status !== 429) {
      const fix = res.status === 401 ? 'GITHUB_TOKEN is missing or invalid' : res.status === 403 ? 'the token may lack pull-requests: write, or Actions may not be allowed to create pull requests (repository settings > Actions > General)' : res.status === 422 ? 'the branch may not exist on the remote yet: push it first' : 'see the message';
      throw new RuntimeError('E_GITHUB', `${method} ${url}: HTTP ${res.status} (${detail})`, { fix });
    }
    last = `HTTP ${res.status} (${detail})`;
    await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
  }
  throw new RuntimeError('E_GITHUB', `${method} ${url}: ${last} after ${ATTEMPTS} attempts`, { fix: 'try again later' });
}

export function register(program: Command): void {
  program
    .command('pr')
    .description('open or update the one pull request of a branch (GitHub REST: GITHUB_API_URL, GITHUB_TOKEN, GITHUB_REPOSITORY)')
    .requiredOption('--branch <name>', 'the branch with the knowledge changes (e.g. knowledge/nightly)')
    .option('--base <name>', 'the branch to merge into (default: main)')
    .option('--title <text>', 'pull request title (default: "compound: knowledge from agent sessions")')
    .option('--body-file <file>', "the body, e.g. harvest's --pr-body output")
    .option('--repo <owner/name>', 'the repository (default: GITHUB_REPOSITORY)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample (in the nightly job, after harvest --commit --branch knowledge/nightly --pr-body pr.md and a push):\n  $ compound pr --branch knowledge/nightly --body-file pr.md')
    .action(
      action(async (flags: PrFlags) => {
        const token = process.env.GITHUB_TOKEN ?? process.env.GH_TOKEN;
        if (!token) throw new UsageError('compound pr needs a token in $GITHUB_TOKEN', { fix: 'in GitHub Actions: env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }} (or a GitHub App / fine-grained token so checks run on the PR)' });
        const repo = flags.repo ?? process.env.GITHUB_REPOSITORY;
        if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError(`--repo ${repo ?? '(none)'} is not owner/name`, { fix: 'pass --repo owner/name or set GITHUB_REPOSITORY' });
        const api = (process.env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
        const [owner] = repo.split('/');
        const base = flags.base ?? 'main';
        const title = flags.title ?? 'compound: knowledge from agent sessions';
        let body = flags.bodyFile ? readFileSync(flags.bodyFile, 'utf8') : '';
        if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY - 80)}\n\n_… cut to fit GitHub's limit._\n`;
        const head = `${owner}:${flags.branch}`;
        const open = (await call('GET', `${api}/repos/${repo}/pulls?state=open&head=${encodeURIComponent(head)}&base=${encodeURIComponent(base)}&per_page=10`, token)) as PullRequest[];
        let pr: PullRequest;
        let created = false;
        if (Array.isArray(open) && open.length > 0) {
          pr = (await call('PATCH', `${api}/repos/${repo}/pulls/${open[0]!.number}`, token, { title, body })) as PullRequest;
        } else {
          pr = (await call('POST', `${api}/repos/${repo}/pulls`, token, { title, head: flags.branch, base, body })) as PullRequest;
          created = true;
        }
        if (flags.json) printJson({ created, number: pr.number, url: pr.html_url });
        else out(`${created ? 'opened' : 'updated'} pull request #${pr.number}: ${pr.html_url}`);
        if (!created) note(`the open pull request of ${flags.branch} was updated, not a second one opened`);
        return EXIT.ok;
      }),
    );
}
