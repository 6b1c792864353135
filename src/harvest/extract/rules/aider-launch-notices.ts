/**
 * Aider's notices about a launch and what it ran with: a --read file it did not find, a tracked
 * path gone from disk, an account whose quota is used up, a model name it did not know (and the
 * one it suggested that worked), --yes-always scraping a URL, files it may not write, a start in
 * a subfolder, and a failed model followed by one that worked. Each is about the setup a session
 * starts from (the checkout, the account, the command line), not about one reply.
 */
import { CONFIDENCE } from '../../candidate.js';
import { escapeRegExp } from '../../../core/regexp.js';
import type { Draft } from '../build.js';
import { clip, code } from '../text.js';
import { errorLine } from '../diagnosis.js';
import { tokens } from '../commands.js';
import { fileName, type SessionView } from '../view.js';
import type { AiderLaunch, Session } from '../../../sessions/model.js';
import { EDIT_FORMAT, LITELLM_ERROR, REPO_MAP_MISSING } from '../../aider-launches.js';
import { DECLINED } from '../../../sessions/readers/aider.js';
import { AIDER_VERSION, bannerValue, GIT_DIR, isAbsolute, launchLine, MAX_NAMED, repoPath, TOKEN_LIMIT, underRoot } from './aider-notice-lines.js';

const MISSING_READ = /^(?:Error: )?Read-only file (.+?) does not exist\. Skipping\.?\s*$/;
const CUR_DIR = /^Cur working dir: (.+?)\s*$/;

/** A file passed with --read (or /read-only) that aider did not find: named from the repository
 * root, and, when aider ran in a subfolder and looked there, that said too. */
export function missingReadDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hit = lines.find((l) => MISSING_READ.test(l.line));
  if (!hit) return undefined;
  const gitDir = bannerValue(lines, GIT_DIR);
  const curDir = bannerValue(lines, CUR_DIR);
  const path = MISSING_READ.exec(hit.line)![1]!;
  // a file outside the repository (`~/.config/aider/CONVENTIONS.md`) is this machine's, not the repository's
  if (isAbsolute(path) && underRoot(path, gitDir) === undefined) return undefined;
  const missing = repoPath(path, gitDir);
  const here = curDir && gitDir && curDir !== gitDir ? repoPath(curDir, gitDir) : undefined;
  const inHere = here !== undefined && missing.startsWith(`${here}/`);
  return {
    category: 'tool-quirk',
    scope: 'repo',
    title: `aider skipped read-only ${fileName(missing)}: not found`,
    text: `Aider skips a read-only file that does not exist: ${code(missing)} (${code(`Read-only file ${fileName(missing)} does not exist. Skipping.`)}).${inHere ? ` Aider ran in ${code(here)}, not at the repository root, and looked for the file there.` : ''}`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'read-only', fileName(missing)],
    quotes: [clip(`Read-only file ${missing} does not exist. Skipping.`, 160)],
    rule: 'aider-notice',
    signature: `aider read-only file not found ${missing}`,
    score: 6,
  };
}

const DELETED_HINT = /^Has it been deleted from the file system but not from git\?/;
/** A file's name: with an extension, or a dotfile (`.gitignore`); a bare name is most often a folder. */
const HAS_EXTENSION = /[^/.]\.[A-Za-z0-9]+$|(?:^|\/)\.[^/.]+$/;

/** Aider's note of a file it could not read as text (`<path>: 'utf-8' codec can't decode byte 0x92
 * in position 1426: invalid start byte`, then its hint `Use --encoding …`). */
const UNDECODABLE = /^(.+?): 'utf-8' codec can't decode byte (0x[0-9a-f]{2}) in position (\d+): [\w ]+$/;
/** Compiled and binary files, build output and vendored trees: whether they belong in git or in
 * the chat is the project's call (a reviewer rejected or edited every such item), no encoding's. */
const NOT_SOURCE = /(?:^|[\\/])(?:__pycache__|install|build|dist|log|vendor|third_party|node_modules)[\\/]|\.(?:pyc|pyo|bin|so|dll|exe|o|a|class|jar|png|jpe?g|gif|ico|pdf|zip|gz|db|sqlite3?|h|hpp)$/i;
/** Windows-1252's typographic marks, the bytes a file saved in that encoding most often holds. */
const CP1252: Readonly<Record<string, string>> = { '0x91': '‘', '0x92': '’', '0x93': '“', '0x94': '”', '0x96': '–', '0x97': '—', '0x85': '…' };

/** A source file of the project aider could not read as text: it is not UTF-8, and aider's repo
 * map skips it until it is re-saved as UTF-8 (aider's own hint, `--encoding`, changes how every
 * file is read). Said for one such file, of the repository, where aider's path can be placed in
 * it; a byte of Windows-1252's typographic marks is named as that mark. */
export function undecodableDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => UNDECODABLE.test(l.line));
  if (hits.length !== 1) return undefined;
  const [, path, byte, position] = UNDECODABLE.exec(hits[0]!.line)!;
  const { named, located } = inRepository(view, lines, [path!]);
  if (!located || NOT_SOURCE.test(named[0]!)) return undefined;
  const file = named[0]!;
  const mark = CP1252[byte!];
  return {
    category: 'fact',
    scope: 'repo',
    title: `${clip(file.replace(/^.*\//, ''), 40)} is not UTF-8, which aider cannot read`,
    // (a fact of the repository's file, not of how aider behaves)
    text: `${code(file)} is not UTF-8 (aider: ${code(`'utf-8' codec can't decode byte ${byte} in position ${position}`)}), so aider's repo map skips it. Replace the byte at offset ${position}${mark ? ` (Windows-1252's ${mark}, most often pasted text) with UTF-8's ${mark}` : ''} and check the file for others; aider's hint ${code('--encoding')} would change how every file is read.`,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'encoding'],
    quotes: [clip(hits[0]!.line, 200)],
    rule: 'aider-notice',
    signature: 'aider cannot decode a tracked file',
    score: 5,
  };
}

/** Paths aider named (absolute ones, as its warnings give them) as the repository names them, and
 * whether every one could be placed so: by aider's own notices of the chat's files, else by the
 * repository root its banner, another launch of the history or the history's folder gives (a
 * launch at the root prints none). A bare name of an absolute path says too little to act on. */
function inRepository(view: SessionView, lines: { line: string }[], raw: readonly string[]): { named: string[]; located: boolean } {
  const launches = view.session.aiderLaunches;
  const gitDir = bannerValue(lines, GIT_DIR) ?? launches?.all.map((l) => l.gitRoot).find((r) => r !== undefined) ?? rootByHistoryFolder(raw, view.session);
  const paths = namedPaths(lines);
  const placed = raw.map((p) => inCheckout(p, paths));
  return {
    named: [...new Set(raw.map((p, i) => placed[i] ?? repoPath(p, gitDir)))],
    located: raw.every((p, i) => placed[i] !== undefined || !isAbsolute(p) || underRoot(p, gitDir) !== undefined),
  };
}

/** Aider's repo map covers every file git tracks: one deleted or moved on disk without the
 * deletion committed makes aider warn, once per launch ("Repo-map can't include <file>", "Has it
 * been deleted from the file system but not from git?"), until the deletion is committed. A warning
 * only this launch gave, which a later launch of the same history no longer gave, was passing
 * (the files came back, a sync folder had not caught up): nothing for the next session. One that
 * recurs across launches is the state of the checkout, until a last launch no longer gives it. */
export function deletedTrackedDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l, i) => REPO_MAP_MISSING.test(l.line) && DELETED_HINT.test(lines[i + 1]?.line ?? ''));
  if (hits.length === 0) return undefined;
  const launches = view.session.aiderLaunches;
  if (launches && launches.all.slice(launches.at + 1).some((l) => !l.missingTracked) && !launches.all.some((l, i) => i !== launches.at && l.missingTracked)) return undefined;
  // nor one the history's last launch that sent a message (aider builds its repo map before the
  // request, answered or failed) no longer gave: by then the deletion was committed or the folder
  // untracked, whatever launches warned before
  const lastSent = launches?.all.slice(launches.at + 1).filter((l) => l.outcome !== 'idle').pop();
  if (lastSent !== undefined && !lastSent.missingTracked) return undefined;
  // one launch's warning alone may be a passing state (a sync folder catching up, a move under
  // way): the checkout's state is what two launches or more met (a reviewer rejected one launch's)
  if (launches !== undefined && launches.all.filter((l) => l.missingTracked).length < 2) return undefined;
  const raw = hits.map((h) => REPO_MAP_MISSING.exec(h.line)![1]!);
  const { named, located } = inRepository(view, lines, raw);
  // a name without an extension (`sc/lib/forge-std`) is most often a submodule or a nested
  // repository, which aider warns about the same way: no deleted file, nothing to remove
  const folders = named.filter((f) => !HAS_EXTENSION.test(f));
  const installed = installedFolder(raw);
  if (folders.length === named.length && installed === undefined) return undefined;
  // (never a `git rm` for a submodule: aider leaves out what .aiderignore lists)
  const submodule = folders.length > 0 ? `; a submodule folder (here ${code(folders[0]!)}) draws the same harmless warning: list it in ${code('.aiderignore')} instead` : '';
  // most of the warned files in one folder of generated files (an IDE's index, build output):
  // that folder was committed by mistake, and the tool rewrites it all the time
  const generated = installed ?? generatedFolder(raw.filter((f) => HAS_EXTENSION.test(f)));
  const files = named.filter((f) => HAS_EXTENSION.test(f));
  const warns = `${code("Repo-map can't include <file>")}, ${code('Has it been deleted from the file system but not from git?')}`;
  // an item that cannot say which path is gone only repeats aider's own hint
  if (!generated && !located) return undefined;
  // a path the session itself had just moved or removed is this task's work in progress
  if (!generated && files.some((f) => movedInSession(view, f, hits[0]!.event) || namedAtAnotherPath(view, f))) return undefined;
  // the generated folder where the checkout has it (`tools/venv`), when the warned paths say
  const where = generated === undefined ? undefined : folderIn(named, generated);
  const which = where !== undefined && named.length === 1 ? `Here it is ${code(clip(named[0]!, 60))}, in` : 'Here they are files of';
  const text = generated
    ? `Aider warns once per launch about each path git tracks that is no file on disk: ${warns}. ${which} a ${code(`${where ?? generated}/`)} folder, generated files git should not track: untrack it (${code(`git rm -r --cached ${where ?? `<path>/${generated}`}`)}), add it to ${code('.gitignore')} and commit.`
    : `Git tracks ${files.slice(0, 2).map(code).join(', ')}${files.length > 2 ? ` and ${files.length - 2} more` : ''}, ${files.length > 1 ? 'which are' : 'which is'} no file on disk, so aider's repo map warns about it at every launch (${code("Repo-map can't include <file>")}). If ${code('git status')} shows it deleted or moved on purpose, commit that (${code(`git rm --cached ${clip(files[0]!, 50)}`)}), else restore it${submodule}.`;
  return {
    category: 'tool-quirk',
    // (named paths and a generated folder are this repository's: what it tracks and should untrack)
    scope: 'repo',
    title: generated ? `git tracks generated ${where ?? generated}/ files, which aider warns about` : `git tracks ${clip(files[0]!, 40)}, which is gone from disk`,
    text,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'repo-map', 'git'],
    quotes: [hits[0]!.line],
    rule: 'aider-notice',
    signature: 'aider repo-map tracked file deleted',
    score: 5,
  };
}

/** A provider's refusal for an account with no credit left (OpenAI's 429 `insufficient_quota`). */
const QUOTA_GONE = /^litellm\.RateLimitError\b.*?(You exceeded your current quota[^.'"]*|insufficient_quota)/;
const RETRYING = /^Retrying in [\d.]+ seconds/;
/** A free tier's quota, as Gemini names it (`…PerMinute…-FreeTier`, `generate_content_free_tier_…`). */
const FREE_TIER = /-FreeTier\b|_free_tier_/;
/** A quota counted per minute or per day, or a free tier's, and the server's own wait
 * (`"retryDelay": "56s"`): a limit that resets with time, whatever its message says of plan and
 * billing. */
const TIME_WINDOW = new RegExp(`Per(?:Minute|Day|Hour)|${FREE_TIER.source}`);
const RETRY_DELAY = /"retryDelay":\s*"(\d+(?:\.\d+)?s)"/;

/** A 429 that says the account's quota is used up is no rate limit: no wait fixes it, yet aider
 * retries it with growing backoff like one. The next session should stop and fix the billing.
 * A quota of a time window (a free tier's requests per minute and per day) does reset: there the
 * item says aider's backoff is shorter than the wait the server asks for. */
export function quotaDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => QUOTA_GONE.test(l.line));
  const retrying = at < 0 ? undefined : lines.slice(at + 1, at + 4).map((l) => RETRYING.exec(l.line)?.[0]).find((r) => r !== undefined);
  if (retrying === undefined) return undefined;
  const said = QUOTA_GONE.exec(lines[at]!.line)![1]!;
  const model = view.session.models[0];
  const none = NO_QUOTA.exec(lines[at]!.line)?.[0];
  if (none !== undefined) return noQuotaDraft(view, lines, at, model, retrying, none);
  if (TIME_WINDOW.test(lines[at]!.line)) return timeWindowDraft(view, lines, at, model, retrying);
  const version = bannerValue(lines, AIDER_VERSION);
  return {
    category: 'pitfall',
    scope: 'agent',
    title: 'aider retries an exhausted API quota (429) as a rate limit',
    text:
      `Requests${model ? ` (here with ${code(model)})` : ''} failed with 429 ${code(clip(said, 90))}: the account has no credit left, whichever model it asks for, and no wait fixes that, ` +
      `yet aider${version ? ` ${version}` : ''} reads it as a rate limit and retries with growing backoff (${code(retrying)}…). Stop it (Ctrl-C) and fix the plan or the key.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: quotaTags(model),
    quotes: [clip(said, 120)],
    rule: 'aider-notice',
    signature: 'aider quota exhausted retried',
    score: 6,
  };
}

/** A request larger than the provider's tokens-per-minute limit (Groq's 413 `Request too large
 * for model `x` … on tokens per minute (TPM): Limit 6000, … Requested 64183`). */
const OVER_TPM = /Request too large for model `?([^`\s]+)`?[^\n]*?tokens per minute \(TPM\): Limit (\d+),[^\n]*?Requested (\d+)/;

/** A request larger than the per-minute token limit never fits in a minute, so no wait lets it
 * through, yet aider retries it like a rate limit: the request must shrink (files dropped from
 * the chat) or the limit grow. Said where aider retried it. */
export function overTpmDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => OVER_TPM.test(l.line));
  if (at < 0) return undefined;
  const [, model, limit, requested] = OVER_TPM.exec(lines[at]!.line)!;
  if (Number(requested) <= Number(limit)) return undefined;
  const retrying = lines.slice(at + 1, at + 4).map((l) => RETRYING.exec(l.line)?.[0]).find((r) => r !== undefined);
  if (retrying === undefined) return undefined;
  const version = bannerValue(lines, AIDER_VERSION);
  const n = (x: string): string => Number(x).toLocaleString('en-US');
  // (a launch with its repo map off sends none: the files are all of it)
  const mapOff = lines.some((l) => /^Repo-map: disabled\b/.test(l.line));
  // a wildcard `/add` before it (`/add *`, `/add .`) is what filled the chat
  // (the last one: an earlier `/add .` may have been refused)
  const wildcard = view.prompts.filter((p) => p.index < lines[at]!.event).map((p) => p.text.trim()).findLast((t) => /^\/add\s+(?:\S*\*\S*|\.)(?:\s|$)/.test(t));
  return {
    category: 'pitfall',
    scope: 'agent',
    title: "aider retries a request larger than the provider's tokens-per-minute limit",
    text:
      `A ${n(requested!)}-token request to ${code(model!)} was over the key's ${n(limit!)} tokens-per-minute limit (${code('Request too large … (TPM)')}): no wait lets it through, ` +
      `yet aider${version ? ` ${version}` : ''} retried it as a rate limit (${code(retrying)}…). Shrink the request (${code('/tokens')} shows it): ${code('/drop')} files${wildcard ? ` (the chat held what ${code(wildcard)} had added)` : ''}${mapOff ? '' : ` or lower ${code('--map-tokens')}`}.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'quota', 'tokens'],
    // (the provider's words without the organization's id between them)
    quotes: [`Request too large for model \`${model!}\` … on tokens per minute (TPM): Limit ${limit!}, … Requested ${requested!}`],
    rule: 'aider-notice',
    signature: 'aider request over tokens per minute retried',
    score: 6,
  };
}

/** Gemini's quota line for a model the tier gives nothing (`Quota exceeded for metric:
 * …/generate_content_free_tier_requests, limit: 0, model: gemini-3.1-pro`). */
const NO_QUOTA = /Quota exceeded for metric: [^,\\]*, limit: 0, model: [\w.-]+/;

/** A 429 whose quota is zero: the tier serves the model no requests at all, so neither a wait nor
 * aider's retries help; the launch of the same history that then got answers says with what. */
function noQuotaDraft(view: SessionView, lines: { line: string; event: number }[], at: number, model: string | undefined, retrying: string, said: string): Draft {
  const launches = view.session.aiderLaunches;
  const answered = (l: { outcome: string; model?: string }): boolean => l.outcome === 'answered' && l.model !== undefined && l.model !== model;
  const worked = launches?.all.slice(launches.at + 1).find(answered)?.model;
  // (a model an earlier launch of the history got answers from is one the tier serves too)
  const before = worked === undefined ? launches?.all.slice(0, launches.at).findLast(answered)?.model : undefined;
  const version = bannerValue(lines, AIDER_VERSION);
  const metric = said.replace(/Quota exceeded for metric: (?:[\w.]+\/)?/, '');
  // a free tier's metric says whose limit it is: the tier's, for every key on it
  const free = FREE_TIER.test(said);
  const way = worked ? `The launch with ${code(worked)} then worked.` : before ? `${code(before)} got answers in an earlier launch; use a model the tier serves, or a billed key.` : 'Use a model the tier serves, or a billed key.';
  return {
    category: 'pitfall',
    scope: 'agent',
    title: free ? `aider: ${clip(model ?? 'the model', 40)} gets no free-tier requests (limit 0)` : `aider: ${clip(model ?? 'the model', 40)} has no quota on this key (429, limit 0)`,
    text:
      `${requestsOf(model)} failed with 429 (${code(clip(metric, 110))}): the ${free ? 'free tier' : "key's tier"} allows this model no requests at all, so no wait helps, ` +
      `yet aider${version ? ` ${version}` : ''} retried (${code(retrying)}…). ${way}`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: quotaTags(model),
    quotes: [clip(said, 160)],
    rule: 'aider-notice',
    signature: 'aider quota zero retried',
    score: 6,
  };
}

/** "`gemini/x`'s requests", or the model's when the launch names none. */
function requestsOf(model: string | undefined): string {
  return model ? `${code(model)}'s requests` : "The model's requests";
}

/** A quota item's tags: aider, quota and the model's provider. */
function quotaTags(model: string | undefined, ...more: string[]): string[] {
  return ['aider', 'quota', ...more, ...(model ? [model.split('/')[0]!] : [])];
}

/** `Retrying in 0.2 seconds...` → `0.2 s`. */
function seconds(retrying: string): string {
  return `${/[\d.]+/.exec(retrying)?.[0] ?? '?'} s`;
}

/** A 429 of a quota that resets (a free tier's per-minute and per-day limits): aider retries
 * after fractions of a second, while the server named how long to wait. */
function timeWindowDraft(view: SessionView, lines: { line: string; event: number }[], at: number, model: string | undefined, retrying: string): Draft {
  const line = lines[at]!.line;
  const delay = RETRY_DELAY.exec(line)?.[1];
  const free = FREE_TIER.test(line);
  const windows = [/PerMinute/.test(line) ? 'per minute' : '', /PerDay/.test(line) ? 'per day' : ''].filter(Boolean).join(' and ');
  const limit = `${free ? "the provider's free-tier limit" : "the provider's quota"}${windows ? ` (counted ${windows})` : ''}`;
  // the retries aider made before the next message, as the history shows them, and those the
  // history shows failing (another 429 after them; the last one may have no outcome at all)
  const after = lines.slice(at + 1);
  const end = after.findIndex((l) => /^Tokens: /.test(l.line));
  const run = end < 0 ? after : after.slice(0, end);
  const retries = run.filter((l) => RETRYING.test(l.line));
  const tries = retries.map((l) => RETRYING.exec(l.line)![0]);
  const failedTries = run.filter((l, i) => RETRYING.test(l.line) && run.slice(i + 1).some((r) => QUOTA_GONE.test(r.line))).length;
  const last = tries.at(-1);
  // the model's reply after the last retry, before the next message: it went through, so the
  // window that ran out was not a day's
  const lastRetry = retries.at(-1)?.event;
  const events = view.session.events;
  let through = false;
  for (let i = (lastRetry ?? Infinity) + 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'user' && !e.injected) break;
    if (e.kind === 'system' && QUOTA_GONE.test(e.text)) break;
    if (e.kind === 'assistant' && e.text.trim() !== '') {
      through = true;
      break;
    }
  }
  const daily = /PerDay/.test(line) && !through;
  const outcome = through
    ? failedTries > 0
      ? `; ${failedTries} of the ${tries.length} retries shown failed before one went through`
      : ''
    : failedTries > 0
      ? `, and ${failedTries > 1 ? `the ${failedTries} retries shown` : 'the retry shown'} failed`
      : '';
  const version = bannerValue(lines, AIDER_VERSION);
  return {
    category: 'pitfall',
    scope: 'agent',
    title: `aider retries a ${free ? 'free-tier ' : ''}quota limit (429) sooner than the provider asks`,
    text:
      `${requestsOf(model)} hit ${limit}: 429 ${code('You exceeded your current quota')}${delay ? `, retry in ${delay}` : ''}. ` +
      `Aider${version ? ` ${version}` : ''} retried after ${seconds(retrying)}${last && last !== retrying ? ` up to ${seconds(last)}` : ''}${delay ? ', sooner than that' : ''}${outcome}. Use another model or a billed key${daily ? ' (a per-day limit resets only the next day)' : ', or wait for the reset'}.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: quotaTags(model, 'rate-limit'),
    quotes: ['You exceeded your current quota', ...(delay ? [`"retryDelay": "${delay}"`] : [])],
    rule: 'aider-notice',
    signature: 'aider quota window retried',
    score: 5,
  };
}

/** The claim that a model name does not work with aider, whichever way a session showed it. */
function modelNameClaim(model: string): string {
  return `aider model name does not work ${model}`;
}

/** `Warning for gemini/gemini-3-flash: Unknown context window size and costs, using sane defaults.` */
const UNKNOWN_MODEL = /^Warning for (\S+?): Unknown context window size and costs\b/;
const SUGGESTION = /^-\s+(\S+)\s*$/;

/** A model name litellm does not know: aider warns and suggests names it knows. When this launch
 * got no answer and a later launch of the same history with one of those names did, the item says
 * which name to use (dated: which names a provider serves changes). A launch that answered anyway
 * (a local model litellm has no table for) says nothing. */
export function suggestedNameDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const launches = view.session.aiderLaunches;
  if (!launches || launches.all[launches.at]?.outcome === 'answered') return undefined;
  const at = lines.findIndex((l) => UNKNOWN_MODEL.test(l.line));
  if (at < 0 || !/^Did you mean one of these\?/.test(lines[at + 1]?.line ?? '')) return undefined;
  const unknown = UNKNOWN_MODEL.exec(lines[at]!.line)![1]!;
  const suggested: string[] = [];
  for (const l of lines.slice(at + 2)) {
    const name = SUGGESTION.exec(l.line)?.[1];
    if (name === undefined) break;
    suggested.push(name);
  }
  const worked = launches.all.slice(launches.at + 1).find((l) => l.outcome === 'answered' && l.model !== undefined && suggested.includes(l.model))?.model;
  if (worked === undefined) return undefined;
  // a name cut off inside a word of the right one (`deepseek/deepse` for `deepseek/deepseek-v4-pro`)
  // is a slip of the typing, not a name anyone would write again; one that lacks a whole part
  // (`gemini-3-flash` for `gemini-3-flash-preview`) is the provider's naming, worth knowing
  if (worked.startsWith(unknown) && /[A-Za-z0-9]/.test(unknown.at(-1)!) && /[A-Za-z0-9]/.test(worked[unknown.length]!)) return undefined;
  // what aider did with the name it did not know (`Model: sonnet with whole edit format`): what
  // the launch showed, where no request may have been sent with it (a reviewer found "failed" too strong)
  const fallback = lines.find((l) => l.line.startsWith(`Model: ${unknown} with `))?.line;
  const version = bannerValue(lines, AIDER_VERSION);
  return {
    category: 'pitfall',
    scope: 'agent',
    // one name suggested is the name; of many (`sonnet`: 40 names of three providers) the one
    // the user took is one choice among them, and the lesson is the full name (a reviewer would
    // not pin one dated model as the answer)
    title: suggested.length > 3 ? `aider${version ? ` ${version}` : ''} does not know ${clip(unknown, 40)}: name the model in full` : `aider: use ${clip(worked, 38)}, not ${clip(unknown, 30)}`,
    text: `${aiderKnows(view, version)} did not know ${code(unknown)} (${code('Unknown context window size and costs')})${fallback ? ` and ran it with defaults (${code(clip(fallback, 80))})` : ''}; ${suggested.length > 3 ? `it listed ${suggested.length} full names it knows, and a later launch naming one of them, ${code(worked)}, worked.` : `it suggested ${code(worked)}${suggested.length > 1 ? ' among others' : ''}, and a later launch naming ${code(worked)} in full worked.`}`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'model', unknown.split('/')[0]!],
    quotes: [`Warning for ${unknown}: Unknown context window size and costs`],
    rule: 'aider-notice',
    // (the same claim as a request with that name that failed: the name does not work; one item)
    signature: modelNameClaim(unknown),
    score: 6,
  };
}

/** A launch line with aider's flag that answers every question yes. */
const YES_ALWAYS = launchLine(String.raw`--yes-always\b`);
const SCRAPING = /^Scraping (https?:\/\/[^\s/]+)/;

/** With `--yes-always` aider says yes to its own offers too: a URL in the message is scraped into
 * the chat, and its offer to install Playwright for that is answered yes, with nobody asked. A
 * scripted run that passes a ticket's URL in `--message` does both. Said when the launch shows
 * it happen; the way out is aider's own switch, `--no-detect-urls`. */
export function yesAlwaysDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  if (!lines.some((l) => YES_ALWAYS.test(l.line))) return undefined;
  const scraped = lines.map((l) => SCRAPING.exec(l.line)?.[1]).find((h) => h !== undefined);
  if (scraped === undefined) return undefined;
  const installed = view.session.events.some((e) => (e.kind === 'system' || e.kind === 'assistant') && /\bplaywright install\b/.test(e.text));
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider --yes-always also says yes to scraping URLs',
    text:
      `With \`--yes-always\` aider answers its own offers yes as well: a URL in the message (${code(scraped.replace(/^https?:\/\//, '').replace(/[?#:].*$/, ''))}) was scraped into the chat${installed ? ', and its offer to install Playwright for that was answered yes' : ''}, with nobody asked. ` +
      'In scripted runs pass `--no-detect-urls` (or keep URLs out of `--message`) unless the page should be read.',
    confidence: CONFIDENCE.verified,
    event: lines.find((l) => SCRAPING.test(l.line))!.event,
    tags: ['aider', 'yes-always'],
    quotes: [`Scraping ${scraped}`],
    rule: 'aider-notice',
    signature: 'aider yes-always scrapes urls',
    score: 5,
  };
}

const UNSIZED_INPUT = /^Input tokens: ~([\d,]+) of 0\b/;

/** A model aider knows no limits for (`Unknown context window size and costs`) whose replies
 * were cut off again and again: aider's `has hit a token limit!` then reads every limit as `of 0`
 * and cannot say which was hit, and its advice is generic. What holds is that this model's
 * replies stop short of what aider asks of it; a whole-file format makes every reply long. */
export function unsizedTokenLimitDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => TOKEN_LIMIT.test(l.line));
  if (hits.length < 2) return undefined;
  const model = TOKEN_LIMIT.exec(hits[0]!.line)![1]!;
  if (!lines.some((l) => UNKNOWN_MODEL.exec(l.line)?.[1] === model)) return undefined;
  const input = lines.map((l) => UNSIZED_INPUT.exec(l.line)?.[1]).find((n) => n !== undefined);
  if (input === undefined) return undefined;
  const whole = bannerValue(lines, EDIT_FORMAT) === 'whole';
  // (`Output tokens: ~0 of 0`: the reply stopped before any text)
  const empty = lines.some((l) => /^Output tokens: ~0 of 0\b/.test(l.line));
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `aider: ${clip(model, 40)} keeps hitting a token limit aider cannot size`,
    text:
      `${code(model)}'s replies ended again and again in aider's ${code(`Model ${model} has hit a token limit!`)} (${code(`Input tokens: ~${input} of 0`)}): it knows no limits for this model (${code('Unknown context window size')}), so its counts say nothing${empty ? '; some replies came back empty' : ''}. ` +
      `Smaller requests${whole ? ' (the whole format resends whole files)' : ''}, \`/drop\` and \`/clear\` need not help.`,
    confidence: CONFIDENCE.verified,
    event: hits[0]!.event,
    tags: ['aider', 'model', 'token-limit', model.split('/')[0]!],
    quotes: [`Model ${model} has hit a token limit!`],
    rule: 'aider-notice',
    signature: `aider unsized token limit ${model}`,
    score: 5,
  };
}

/** With `--yes-always` aider answers every question yes but one: its prompt to run the shell
 * commands the model proposed, which it answers no. An unattended run never runs the tests or
 * installs the model asks for. Said when the launch shows a proposal declined that way. */
export function yesAlwaysDeclinesDraft(lines: { line: string; event: number }[]): Draft | undefined {
  if (!lines.some((l) => YES_ALWAYS.test(l.line))) return undefined;
  const at = lines.findIndex((l) => DECLINED.test(l.line));
  if (at < 0) return undefined;
  // the proposal aider echoed right above each declined prompt
  const declined = [...new Set(lines.flatMap((l, i) => (i > 0 && DECLINED.test(l.line) && !DECLINED.test(lines[i - 1]!.line) && lines[i - 1]!.line !== '' ? [lines[i - 1]!.line] : [])))].slice(0, 3);
  const named = declined.length > 0 ? ` (here ${declined.map((c) => code(clip(c, 60))).join(', ')})` : '';
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider --yes-always answers no to running shell commands',
    text: `With \`--yes-always\` aider answers yes to its questions except \`Run shell command?\`, which it answers no: the commands the model proposed${named} never ran. A scripted run has to run the tests and installs itself, outside aider.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'yes-always', 'shell'],
    quotes: [lines[at]!.line],
    rule: 'aider-notice',
    signature: 'aider yes-always declines shell commands',
    score: 5,
  };
}

/** Programs that move or remove files. */
const MOVES = /^(?:mv|rm|git mv|git rm|Move-Item|Remove-Item|Rename-Item|del|erase|move|ren|rename|rmdir|rd)$/i;

/** Whether a command run before event `before` moved or removed `file` or a folder holding it
 * (`/run mv label_bro_rs/src/utils src` for `label_bro_rs/src/utils/mod.rs`). */
function movedInSession(view: SessionView, file: string, before: number): boolean {
  return view.steps.some(
    (s) =>
      s.call.index < before &&
      s.simple.some((c, i) => MOVES.test(s.families[i] ?? '') && tokens(c).slice(1).some((t) => {
        const path = t.replace(/\\/g, '/').replace(/\/+$/, '');
        return !path.startsWith('-') && (file === path || file.startsWith(`${path}/`));
      })),
  );
}

/** Whether the user's messages name the file at another path (`scenes/roadChunks/road.tscn` for
 * a tracked `scenes/road/road.tscn`): it was moved and the move is not committed yet, work in
 * progress that the next commit ends. */
function namedAtAnotherPath(view: SessionView, file: string): boolean {
  const name = file.split('/').pop()!;
  if (!name.includes('.')) return false;
  const at = new RegExp(`(?:^|[\\s\`'"(])((?:[\\w.-]+/)+${escapeRegExp(name)})(?![\\w-]|\\.\\w)`);
  return view.prompts.some((p) => {
    const m = at.exec(p.text);
    return m !== null && m[1] !== file;
  });
}

/** `Unable to write file /home/h/web/nginx/x.conf after 5 attempts: [Errno 13] Permission denied: …` */
const UNWRITABLE = /^Unable to write file (.+?) after \d+ attempts: (\[Errno 13\] Permission denied|PermissionError\b[^:]*)/;

/** Files of the checkout the user running aider may not write (root-owned, read-only): aider's
 * edits to them fail after its retries, and it goes on to offer the reply's shell commands as if
 * the edit had been made. The next session should fix the ownership before asking for edits. A
 * path aider elsewhere names as a folder (`seniales/test` of `seniales/test/a.py`) is no such
 * file: the model put a folder's name above its code block, and a folder cannot be written. */
export function unwritableDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const gitDir = bannerValue(lines, GIT_DIR);
  const named = namedPaths(lines);
  const hits = lines.flatMap((l) => {
    const m = UNWRITABLE.exec(l.line);
    if (!m) return [];
    if (namesFolder(m[1]!, named)) return [];
    const file = inCheckout(m[1]!, named) ?? repoPath(m[1]!, gitDir);
    return [{ file, error: m[2]!, event: l.event, posix: m[1]!.startsWith('/') }];
  });
  if (hits.length === 0) return undefined;
  const files = [...new Set(hits.map((h) => h.file))];
  // the shell command aider offered right after, from the same reply (`sudo systemctl reload nginx`)
  const offered = hits.map((h) => shellOfferAfter(view, h.event)).find((c) => c !== undefined);
  const them = files.length > 1 ? 'them' : 'it';
  // every file took a later edit: its ownership was fixed in the session, which the item says
  const fixedLater = files.every((f) => appliedAfter(view, f, Math.max(...hits.filter((h) => h.file === f).map((h) => h.event))));
  return {
    category: 'pitfall',
    scope: 'repo',
    title: `aider ${fixedLater ? 'could not' : 'cannot'} write ${clip(files[0]!, 45)} (permission denied)`,
    text:
      `Aider could not write its edits to ${files.slice(0, MAX_NAMED).map(code).join(', ')} (${code(hits[0]!.error)}, after its retries)` +
      (fixedLater ? ` until ${files.length > 1 ? 'their' : 'its'} ${hits[0]!.posix ? 'ownership was' : 'permissions were'} fixed (later edits applied): ` : `: the user running aider may not write ${them} in this checkout. `) +
      `${hits[0]!.posix ? `${fixedLater ? 'check' : 'Check'} the owner (\`ls -l\`) and \`chown\` ${them} to the user who runs aider` : `${fixedLater ? 'fix' : 'Fix'} the permissions`}${fixedLater ? '' : ` before asking aider to edit ${them}`}.` +
      // the commands act on a file the edit never reached
      `${offered ? ` Aider still offers the reply's shell commands after a failed write (here ${code(clip(offered, 50))}): decline them.` : ''}`,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'permission'],
    quotes: [`${hits[0]!.error}: ${files[0]}`],
    rule: 'aider-notice',
    signature: `aider unwritable ${files.join(' ')}`,
    score: 6,
  };
}

/** The paths aider's notices name relative to the checkout (`Added x/y.ts to the chat`, a file name
 * on a line of its own). */
function namedPaths(lines: { line: string }[]): Set<string> {
  const out = new Set<string>();
  for (const { line } of lines) for (const t of line.split(/\s+/)) if (/^[\w.@-]+(?:\/[\w.@-]+)+$/.test(t) || /^[\w@-][\w.@-]*\.\w+$/.test(t)) out.add(t);
  return out;
}

/** An absolute path as the checkout names it: the longest path with a folder in it that aider's
 * notices name and the absolute path ends with (a bare file name says nothing of where it is). */
function inCheckout(path: string, named: ReadonlySet<string>): string | undefined {
  const slashed = path.replace(/\\/g, '/');
  return [...named].filter((p) => p.includes('/') && slashed.endsWith(`/${p}`)).sort((a, b) => b.length - a.length)[0];
}

/** Whether an absolute path is the folder of a path aider's notices name (`…\\seniales\\test` of
 * `seniales/test/test_plotting.py`). */
function namesFolder(path: string, named: ReadonlySet<string>): boolean {
  const slashed = path.replace(/\\/g, '/').replace(/\/+$/, '');
  return [...named].some((p) => {
    const dir = p.slice(0, p.lastIndexOf('/'));
    return dir.length > 0 && (slashed === dir || slashed.endsWith(`/${dir}`));
  });
}

/** Whether aider applied an edit to `file` after event `event` (its reader makes each edit a call). */
function appliedAfter(view: SessionView, file: string, event: number): boolean {
  return view.session.events.some((e) => e.index > event && e.kind === 'tool_result' && e.name === 'edit' && !e.isError && e.output.trim() === `Applied edit to ${file}`);
}

/** The shell command aider offered to run right after a notice, before the next message. */
function shellOfferAfter(view: SessionView, event: number): string | undefined {
  for (const e of view.session.events) {
    if (e.index <= event) continue;
    if (e.kind === 'tool_call') return e.command;
    if (e.kind === 'user' || e.kind === 'assistant') return undefined;
  }
  return undefined;
}

/** Folders of files a tool generates (an IDE's index and caches, build output, installed packages). */
const GENERATED = /^(?:\.vs|\.idea|\.vscode|\.gradle|\.next|\.nuxt|\.cache|\.pytest_cache|\.mypy_cache|__pycache__|node_modules|bin|obj|build|dist|target|out)$/;

/** Folders of installed packages (a virtualenv, node_modules): nobody commits one on purpose, so
 * one warned path in it shows it committed. */
const INSTALLED = /^(?:venv|\.venv|node_modules|site-packages|__pycache__)$/;

/** The folder of installed packages a warned path (a file or a folder) lies in. */
function installedFolder(paths: readonly string[]): string | undefined {
  return paths.flatMap((p) => p.split(/[\\/]/)).find((segment) => INSTALLED.test(segment));
}

/** The path of folder `name` in the checkout, from the first warned path (relative to the
 * repository root) that holds it: `tools/venv` of `tools/venv/lib`. */
/** The repository root in absolute paths aider printed, found by the chat history's own folder:
 * aider writes the history at the root of the repository it works in, so the one folder of that
 * name in the path is the root (`/home/u/Prototipo/backend/venv/lib` of `Prototipo/.aider.chat.history.md`).
 * Undefined where the name is not in the path once, or the history's folder is not known. */
function rootByHistoryFolder(paths: readonly string[], session: Session): string | undefined {
  if (!session.cwdFromFile || session.cwd === undefined) return undefined;
  const name = session.cwd.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '');
  const first = paths.find(isAbsolute);
  if (!name || first === undefined) return undefined;
  const parts = first.split(/[\\/]/);
  // (a name the path holds twice, in any case, names no one folder: `ProBrandwacht/…/probrandwacht`)
  const lower = parts.map((p) => p.toLowerCase());
  const at = lower.indexOf(name.toLowerCase());
  if (at < 1 || lower.lastIndexOf(name.toLowerCase()) !== at) return undefined;
  return parts.slice(0, at + 1).join(first.includes('\\') && !first.includes('/') ? '\\' : '/');
}

function folderIn(named: readonly string[], name: string): string | undefined {
  for (const p of named) {
    if (isAbsolute(p)) continue;
    const parts = p.split(/[\\/]/);
    const at = parts.indexOf(name);
    if (at >= 0) return parts.slice(0, at + 1).join('/');
  }
  return undefined;
}

/** The generated folder at least three warned files, and four in five of them, lie in (`.vs`),
 * wherever it is in their paths (aider names them absolute when it does not know the root). */
function generatedFolder(files: readonly string[]): string | undefined {
  const count = new Map<string, number>();
  for (const f of files) {
    const folder = f.split(/[\\/]/).slice(0, -1).find((segment) => GENERATED.test(segment));
    if (folder !== undefined) count.set(folder, (count.get(folder) ?? 0) + 1);
  }
  for (const [folder, n] of count) if (n >= 3 && n >= files.length * 0.8) return folder;
  return undefined;
}

const SUBFOLDER_NOTE = /^Note: in-chat filenames are always relative to the git working dir\b/;

/** The launch banner says `Git repo: none` (`--no-git`): aider then names files from the folder
 * it runs in, whatever note it prints about the git working dir (a reviewer found a session
 * that added `components/Contact.jsx` from `src/`). */
function withoutRepo(lines: { line: string; event: number }[], event: number): boolean {
  return lines.some((l) => l.event === event && /^Git repo: none\b/.test(l.line));
}

/** Aider started in a subfolder of the repository notes that the file names of its chat stay
 * relative to the repository root: a file of that folder is `backend/…` in the chat, and a path
 * without the folder names a file at the root. Said once at launch, and easily missed. */
export function subfolderDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => SUBFOLDER_NOTE.test(l.line) && !withoutRepo(lines, l.event));
  if (at < 0) return undefined;
  const near = lines.slice(at, at + 4);
  const cur = near.map((l) => CUR_DIR.exec(l.line)?.[1]).find((v) => v !== undefined);
  const git = near.map((l) => GIT_DIR.exec(l.line)?.[1]).find((v) => v !== undefined);
  // (only the folder's path inside the repository: the absolute paths name this machine)
  const here = cur !== undefined && git !== undefined ? underRoot(cur, git) : undefined;
  if (here === undefined) return undefined;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider started in a subfolder names chat files from the repository root',
    // (only what the note says: files named on aider's own command line are an exception no note
    // shows, and a reviewer took it for unsupported)
    text: `Aider started in a subfolder of the repository still takes the file names of its chat (\`/add\`, \`/drop\`, the model's edits) from the repository root (${code('Note: in-chat filenames are always relative to the git working dir, not the current working dir.')}): a file of that folder is named with the folder in front, and a path without the folder names a file at the root.`,
    confidence: CONFIDENCE.stated,
    event: lines[at]!.event,
    tags: ['aider', 'paths', 'subfolder'],
    quotes: [lines[at]!.line],
    rule: 'aider-notice',
    signature: 'aider in-chat filenames relative to git root',
    score: 5,
  };
}

/** A model request aider reports failed because of the model named or its quota (not a key; nor
 * Ollama's "model requires more system memory than is available", which depends on how large a
 * context aider asked for as much as on the model: a reviewer found the chat's size behind it). */
const NO_PROVIDER = /LLM Provider NOT provided/;
const MODEL_REFUSED = /LLM Provider NOT provided|not a valid model|is not found|does not exist|NotFoundError|exceeded your current quota|RateLimitError/i;
/** A quota of the account, not of the model ("check your plan and billing details"): another
 * model that then answered says nothing of which model name is right (the quota item tells it;
 * nor does a request too large for the key's tokens per minute, which its own item tells). */
const ACCOUNT_QUOTA = /check your plan and billing|insufficient_quota|credit balance is too low/i;
/** A quota the provider counts per model (Gemini's `Quota exceeded for metric: …, model: …`). */
const MODEL_QUOTA = /Quota exceeded for metric:/;
const KEY_PROBLEM = /AuthenticationError|API key|api_key|credential|unauthori[sz]ed|permission denied/i;

/** What a litellm error says, without the provider's wrapping: its `"message"`, else its first clause. */
function modelErrorMessage(line: string): string {
  const message = /"(?:message|error)":\s*"([^"]{5,600})"/.exec(line)?.[1];
  if (message) {
    const [first, next] = message.replace(/\\n.*$/, '').split(/(?<=\.)\s/);
    // the provider's next sentence when it names what to use instead ("The paid version is
    // available now - use this slug instead: deepseek/deepseek-r1"): the way on, in its words
    const instead = next !== undefined && next.length <= 100 && /\b(?:instead|use|replaced by|migrate to)\b/i.test(next) ? next : undefined;
    return (instead ? `${first!} ${instead}` : first!).replace(/\.$/, '').trim();
  }
  const after = line.replace(/^litellm\.\w+:\s*/, '').replace(/^(?:litellm\.)?\w+(?:Error|Exception):\s*/, '').replace(/^\w+Exception\s*-\s*/, '');
  return after.split(/(?<=\.)\s/)[0]!.replace(/\.$/, '');
}

/** Aider's notice that it picked the model from the API key it found in the environment. */
const AUTO_MODEL = /^Using \S+ model with API key from environment\b/;

/** "On 2026-08-31, aider": which model names a provider serves changes over months, so an item about
 * them says when it held (the launch's date, when the history records it). */
function aiderOn(view: SessionView): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(view.session.startedAt ?? '')?.[0];
  return day ? `On ${day}, aider` : 'Aider';
}

/** "Aider v0.62.1": which model names aider itself knows comes with its version (its own table of
 * models), so an item about a name aider did not know says which aider; the date where the
 * banner gives no version. */
function aiderKnows(view: SessionView, version: string | undefined): string {
  return version ? `Aider ${version}` : aiderOn(view);
}

/** A provider's router rather than a model (`openrouter/auto`, OpenRouter's free router
 * `openrouter/openrouter/free`): each request goes to a model it picks. */
const ROUTER = /(?:^|\/)(?:auto|free)$/;

/** Why the provider refused a model, in a few words for a title, when its message says it plainly. */
function refusalReason(message: string): string | undefined {
  if (/no longer available to new users/i.test(message)) return 'is closed to new users';
  if (/no longer available|has been (?:deprecated|retired|shut ?down)|is deprecated/i.test(message)) return 'is retired';
  if (/unavailable for free|no longer free/i.test(message)) return 'is no longer free';
  if (/\bnot found\b|does not exist|model_not_found|unknown model|invalid model/i.test(message)) return 'is not a model the API knows';
  return undefined;
}

/** Aider's reason for rejecting an edit, as it states it under its notice. */
const EDIT_REASON = /^(?:No filename provided before `{3,}.*|\^\^\^ Bad\/missing filename.*|UnifiedDiffNoMatch:.*|#\s*\d+ SEARCH\/REPLACE blocks? failed to match!?)$/m;

/** A launch whose model kept breaking aider's edit format (most of its edits rejected), and a later
 * launch with another model or edit format whose edits applied: the lesson is to switch, not to ask
 * the same model again. Said once per history, by the first such launch; the counts are the
 * launches' own. */
export function formatSwitchDraft(view: SessionView): Draft | undefined {
  const launches = view.session.aiderLaunches;
  if (!launches) return undefined;
  const { at, all } = launches;
  // (more rejections than one message's retries, aider's 3: the model failed on message after message)
  const bad = (l: AiderLaunch): boolean => l.model !== undefined && l.edits !== undefined && l.edits.rejected >= 4 && l.edits.rejected >= 2 * l.edits.applied;
  const goodAfter = (i: number): AiderLaunch | undefined => {
    const b = all[i]!;
    return all.slice(i + 1).find((l) => l.model !== undefined && l.edits !== undefined && l.edits.applied >= 2 && l.edits.applied >= 4 * l.edits.rejected && (l.model !== b.model || (l.editFormat !== undefined && b.editFormat !== undefined && l.editFormat !== b.editFormat)));
  };
  const first = all.findIndex((l, i) => bad(l) && goodAfter(i) !== undefined);
  if (first !== at) return undefined;
  const here = all[at]!;
  const good = goodAfter(at)!;
  const as = (l: AiderLaunch): string => `${code(l.model!)}${l.editFormat ? ` in the ${code(l.editFormat)} edit format` : ''}`;
  const failed = view.steps.find((s) => s.call.name === 'edit' && s.failed);
  // the fault the model repeated, when aider gave one reason for every rejection of the launch
  const reasons = new Set(view.steps.filter((s) => s.call.name === 'edit' && s.failed).map((s) => EDIT_REASON.exec(s.output)?.[0]?.trim() ?? ''));
  const one = reasons.size === 1 ? [...reasons][0] : undefined;
  const repeated = one ? ` (every time ${code(clip(one.replace(/^\^\^\^ /, ''), 70))})` : '';
  return {
    category: 'pattern',
    scope: 'agent',
    title: `aider: ${clip(here.model!, 40)} kept breaking its edit format`,
    // (no counts: aider's rejections count replies, its applied edits count files)
    text: `Aider rejected the edits ${as(here)} wrote, message after message${repeated}; a later launch with ${as(good)} applied its edits. When a model keeps doing so, suggest restarting aider with another ${code('--model')} or ${code('--edit-format')}: asking again does not help.`,
    confidence: CONFIDENCE.stated,
    event: failed?.outputEvent ?? view.session.events[0]?.index ?? 0,
    tags: ['aider', 'edit-format', 'model'],
    quotes: failed ? [clip(errorLine(failed.output, 120), 120)] : [],
    rule: 'aider-notice',
    signature: `aider model breaks edit format ${here.model}`,
    score: 6,
  };
}

/** A launch whose model requests failed (a model name litellm does not know, a quota), followed
 * by a launch with another model that got replies: which model name failed, and which worked.
 * (Launches that failed in between are not named: their errors may be others, a key, a network.) */
export function modelSwitchDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const launches = view.session.aiderLaunches;
  if (!launches) return undefined;
  const { at, all } = launches;
  const here = all[at];
  if (here?.outcome !== 'failed' || !here.model) return undefined;
  // said once, by the first failing launch of a run (idle launches in between do not end it)
  const before = all.slice(0, at).filter((l) => l.outcome !== 'idle').pop();
  if (before?.outcome === 'failed') return undefined;
  const error = lines.find((l) => LITELLM_ERROR.test(l.line));
  if (!error || !MODEL_REFUSED.test(error.line) || KEY_PROBLEM.test(error.line) || (ACCOUNT_QUOTA.test(error.line) && !MODEL_QUOTA.test(error.line)) || OVER_TPM.test(error.line)) return undefined;
  const rest = all.slice(at + 1);
  // the same model under another name (`openai/<name>` for a bare `<name>`) says what to change;
  // else the first model that worked
  const base = (m: string): string => m.replace(/^.*\//, '');
  const answered = rest.filter((l) => l.outcome === 'answered' && l.model && l.model !== here.model);
  const worked = (answered.find((l) => base(l.model!) === base(here.model!)) ?? answered.find((l) => !ROUTER.test(l.model!)) ?? answered[0])?.model;
  if (!worked) return undefined;
  // a router answers each request with a model it picks: its answers show no model that works,
  // so the item tells the failure alone
  const router = ROUTER.test(worked);
  const then = router ? '.' : `; the launch with ${code(worked)} then worked.`;
  const message = clip(modelErrorMessage(error.line), 180);
  // the same model with a provider in front (`openai/<name>` for `<name>`): what to change is the prefix
  // litellm's `LLM Provider NOT provided` says the same of any bare name: a name with a provider in
  // front that then worked shows the prefix, whatever the name after it
  const sameName = worked.endsWith(`/${here.model}`);
  const provider = !here.model.includes('/') && (sameName || (NO_PROVIDER.test(error.line) && worked.includes('/'))) ? (sameName ? worked.slice(0, -here.model.length - 1) : worked.split('/')[0]!) : undefined;
  // a model the launch reached through its own OpenAI-compatible server (LM Studio, a proxy): the
  // name is the server's, and only the `openai/` prefix tells litellm how to call it (a reviewer
  // found "needs the provider" too broad: known names need none)
  const compatibleServer = provider === 'openai' && lines.some((l) => /--openai-api-base\b/.test(l.line));
  // `Using openrouter/deepseek/deepseek-r1:free model with API key from environment.`: no --model
  const chosen = lines.some((l) => l.event <= error.event && AUTO_MODEL.test(l.line) && l.line.includes(here.model!));
  const version = bannerValue(lines, AIDER_VERSION);
  const reason = refusalReason(message);
  return {
    category: 'pitfall',
    scope: 'agent',
    title: provider
      ? compatibleServer
        ? 'aider: a model on an OpenAI-compatible server is named openai/<name>'
        : `aider needs the provider prefix on a model name (${clip(provider, 20)}/…)`
      : reason !== undefined
        ? `aider: ${clip(here.model, 45)} ${reason}` // (the text names the model that worked)
        : router
          ? `aider: ${clip(here.model, 50)} failed`
          : `aider: ${clip(here.model, 40)} failed, ${clip(worked, 40)} worked`,
    text: provider
      ? compatibleServer
        ? `A model on an OpenAI-compatible server (aider's ${code('--openai-api-base')}) is named ${code('openai/<name>')} for litellm: ${code(here.model)} alone failed (${code(message)}); ${sameName ? code(worked) : `a later launch with ${code(worked)}`} worked.`
        : `Aider (through litellm) needs the provider in front of a model name: ${code(here.model)} alone failed (${code(message)}); ${sameName ? code(worked) : `a later launch with ${code(worked)}`} worked.`
      : `${aiderOn(view)}'s requests with ${code(here.model)} failed (${code(message)})${chosen ? `; aider${version ? ` ${version}` : ''} had picked it itself from the API key in the environment (no ${code('--model')})` : ''}${then}${chosen ? ` Pass ${code('--model')} to choose the model.` : ''}`,
    confidence: CONFIDENCE.stated,
    event: error.event,
    tags: ['aider', 'model', ...here.model.split('/').slice(0, 1)],
    quotes: [message],
    rule: 'aider-notice',
    // one item per model that failed, whichever model each launch went on with or whichever
    // refusal its provider gave (two launches that hit the same 404 and then took different
    // models tell one failure; aider's own warning that it does not know the name, another)
    signature: modelNameClaim(here.model),
    score: 6,
  };
}
