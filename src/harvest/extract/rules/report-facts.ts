/**
 * Facts from reports: where things live, how they are built and configured, as a subagent or
 * the agent's closing summary states them after reading the code. One item per report section
 * (its heading gives the context), keeping only the section's concrete lines; the best sections
 * of each report are kept, more for longer reports. A closing message only counts for lines
 * whose identifiers the session's tool output confirms (a proposal names things nobody saw).
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { howToUse, reportsOf, type Report, type ReportLine, type Section } from '../report.js';
import { STILL_BROKEN, clip, clipWhole, concreteness, oneLine, plainApostrophes, sentence, unreadableProse } from '../text.js';
import { editedFiles, isEdit, promptBefore, type SessionView } from '../view.js';
import { isCorrection } from './user-corrections.js';

/** Headings that say what kind of text follows, not what it is about; agents answer in the user's
 * language ("Resumen de …", "Zusammenfassung", "Visão geral"). */
const GENERIC_TITLE = /\b(?:report|overview|exploration|summary|analysis|findings|review|results?|changes|what changed|key insights|conclusion|relationships|answer|resumen|resumo|r[ée]sum[ée]|zusammenfassung|[üu]bersicht|riepilogo|panoramica|vis[ãa]o geral|descripci[óo]n general|an[áa]lisis|an[áa]lise|analyse|conclusi[óo]n|conclus[ãa]o)\b/i;
const QUESTION_SECTION = /\b(?:recommend\w*|next steps?|open questions?|unknowns?|todo|follow[- ]?ups?|suggest\w*|risks?)\b/i;
const PROPOSAL_SECTION = /\b(?:propos\w*|checklist|will|differences?|previous versions?|alternatives?|options?|benefits?|pros|cons|trade-?offs?|implementation steps|examples?|before|after|old implementation|new implementation|comparison|plan|needed|could|should|would|sketch\w*|roadmap|suggest\w*|enables?)\b/i;
const PATTERN_WORDS = /\b(?:pattern|procedure|how to|convention|protocol|recipe|steps to|workflow)\b/i;
const IMPORTANT = /\b(?:pattern|rule|gotcha|pitfall|important|critical|caveat|convention|workflow|never|always|must)\b/i;
/** How to run, test, build, configure and debug: what the next session needs first. */
const OPERATIONAL = /\b(?:config(?:uration)?|settings?|scripts?|commands?|test(?:s|ing)?|build|lint\w*|hooks?|ci|install\w*|setup|environment|env|versions?|runtime|node\.js|logs?|logging|debug|deploy\w*|port|server|docs?|documentation|commits?|migrations?|priority|requires?)\b/i;
/** Imperative lines make a procedure (a pattern); descriptive ones a fact. */
const ACTIONABLE = /(?:^|[:;]\s*)(?:use|run|call|create|avoid|always|never|before|first|set up|import|mock|spy|add|do not|don't|keep)\b/i;
/** "Potential Security Weaknesses", "Possible causes": what the writer suspects, not what the
 * session showed; speculation stated as fact. */
const SPECULATIVE_SECTION = /\b(?:potential(?:ly)?|possibly|suspected|likely|probabl[ey])\b|\bpossible (?:causes?|issues?|problems?|bugs?|reasons?|risks?|weakness\w*|vulnerabilit\w*)\b/i;
/** "Status: none currently defined", "Current gaps": the state of the day, not durable. Agents
 * answer in the user's language: "Estado del proyecto", "État actuel", "Aktueller Stand". */
const TRANSIENT_HEADING = /\b(?:status|currently|gaps|not yet|todo|so far|(?:test|build|check) results?|validation(?: run)?|verification)\b|(?:^|\s)(?:estado (?:del proyecto|do projeto|actual|atual)|situaci[oó]n actual|progreso|avances?|[ée]tat (?:du projet|actuel)|avancement|(?:aktueller )?stand der|aktueller stand|fortschritt|stato (?:del progetto|attuale)|avanzamento)(?=$|[\s:.,;])/i;
const FINDING_SECTION = /\b(?:issues?|bugs?|problems?|critical|findings?|root cause|pitfalls?|gotchas?)\b/i;
/** "Built:", "Created", "Done", "Changes": a heading that is only the work done lists what this turn made. */
const WORK_DONE_HEADING = /^(?:built|created|implemented|written|scaffolded|generated|done|changes)\s*:?\s*$/i;
/** "Removed", "Kept", "Added", "What changed": a change log of the agent's own edits, not how things are. */
const CHANGELOG_SECTION = /^(?:removed|kept|added|changed|updated|deleted|what(?:'s| has)? changed|summary of (?:changes|simplifications)|(?:key |main )?(?:edits|changes made|files? (?:changed|modified)))\b/i;
/** "Task 6: Input Validation", "Step 2", "Phase 1": a step of the agent's own work, a progress
 * report; so is a heading that reports work done ("All Issues Fixed", "Completed tasks", "Here's
 * what was added", "Documentation Updated"). */
const PROGRESS_SECTION = /^(?:task|step|phase|stage|part|milestone|ticket|issue)\s*#?\d+\b|^(?:all\b[^:]{0,30}\b(?:fixed|resolved|completed|done|finished|addressed)|(?:completed|finished|done|fixed|resolved)\b|what (?:i|we) (?:did|changed|fixed))|\bwhat (?:was|were|i|we|i'?ve|we'?ve|has been|have been) (?:just )?(?:added|changed|did|done|fixed|updated|created|removed|built|implemented|written)\b|\b(?:fixed|resolved|completed?|done|finished|closed|successfully|updated|added|created|implemented|applied)\s*(?:[:!✅]*$|[—–]\s)/i;
/** A label that announces the agent's own change ("Enhanced Port Cleanup", "App (Updated - shows
 * Terminal)", "Recompiled Application"): the change log of this turn. */
const CHANGE_LABEL = /\((?:updated|new|simplified|fixed|improved|enhanced|rewritten)\b|^(?:enhanced|improved|simplified|recompiled|rebuilt|refactored|reworked|new)\b/i;
/** A status mark in a line ("→ FIXED: Created …", "✅ Done"): a change log, not how things are. */
const STATUS_LINE = /\b(?:FIXED|DONE|RESOLVED|COMPLETED|IMPLEMENTED)\b|✅/;
/** A line in which the agent reports its own action ("I've started …", "I updated …", "I read
 * `genesis.md` …", "I checked …"): what it did this turn, not how things are. */
const FIRST_PERSON_DID = /^(?:i'?ve|i have|i(?: just| also| first)? (?:started|created|ran|added|updated|fixed|changed|installed|removed|wrote|moved|made|set up|restarted|read|checked|looked|reviewed|inspected|opened|scanned|went through))\b/i;
/** A closing line that opens with what the agent just did to the repository or how it checked
 * it ("Pushed. The README is live at …", "Verified with sample input …", "Implemented: X now
 * has …"): the outcome of this turn, not how things are. (A line that opens "Implemented X as …"
 * may still say how X works.) */
const TURN_OUTCOME = /^(?:pushed|committed|deployed|merged|published|released|shipped|done|all set|verified|tested)\b|^(?:implemented|fixed|completed|added|updated|changed)\s*:/i;
/** A closing line that reports a change the agent made ("Added a toolbar …", "Blocks are now
 * collapsible …", "The script now: …", "The project now builds", "the panel on the left (…) now shows your
 * text"): this turn's change log.
 * ("Implemented X as …" may still say how X works.) */
const CHANGE_LINE = /^(?:added|created|fixed|updated|removed|refactored|kept|moved|renamed|replaced)\b|\b(?:is|are) now\b|\b(?:now|no longer) (?:shows|has|uses|works|supports|returns|displays|runs|includes|handles|accepts|renders|opens|lets|gives|prints|loads|saves|sends|calls|checks|reads|writes)\b|^(?:(?:the|this|your) )?[\w.`-]+(?: [\w.`-]+)? now\b|\b(?:updated|added|created|written|saved|registered) (?:in|to|at|under) `|^new (?:[\w-]+ ){0,3}(?:file|story|page|test|module|component|script|doc) (?:at|in) `/i;
/** A heading that opens with the agent's own change ("Implemented `wordfreq` with:", "Added"):
 * what follows lists this turn's work. */
const changeHeading = (inner: string): boolean => /^implemented\b/i.test(inner) || CHANGE_LINE.test(inner) || FILES_TOUCHED.test(inner);
/** "File touched", "Files changed", "Modified files": the list of what this turn edited. */
const FILES_TOUCHED = /^(?:(?:the )?files? (?:touched|changed|modified|edited|created|updated|added)|(?:touched|changed|modified|edited|created|updated|new) files?)\s*:?$/i;
/** A verdict on the change under review ("No security-relevant behavior change", "No issues
 * found", "LGTM") or on what the agent was asked to check ("No virus or exploit found"): about
 * one diff or one look, not about the code base. */
const REVIEW_VERDICT = /^(?:no (?:(?:new |security[- ]relevant |behaviou?r(?:al)? |functional |breaking |significant )*(?:changes?|issues?|regressions?|findings?|problems?|concerns?|vulnerabilit\w*|virus(?:es)?|malware|exploits?|backdoors?)\b)|lgtm\b|looks good to me\b)/i;
/** An offer to the user ("If you want, I can also …") or what the user can do now ("You can now
 * run …"): the close of this task, not how the repository is. */
const OFFER_LINE = /^(?:if you (?:want|like|'d like|prefer)|would you like|let me know|shall i|do you want|i can also|you can now)\b/i;
const MIN_LINE = 2;
const SECTION_CHARS = 360;
const COMPACT_REPORT = 1800;

function context(section: Section): string {
  const useful = section.headings.filter((h, i) => !(GENERIC_TITLE.test(h) && concreteness(h) === 0 && i < section.headings.length - 1));
  // "Tests (12 total)": the count is the day's, stale at the next test
  return useful.slice(-2).map((h) => h.replace(/\s*\(\d+\s+(?:total|tests?|files?|items?)\)/i, '')).join(' / ');
}

/** How a fact names its section (the filters read the whole `context`): the innermost heading
 * alone when it names a file or an identifier ("Build Script (`assets/build.js`)"). A path of
 * headings ("BUILD AND ASSET PIPELINE / Build Script …") reads as a fragment of the report, not
 * as the subject of a fact. */
function subjectOf(section: Section, ctx: string): string {
  const inner = section.headings[section.headings.length - 1];
  const path = ctx.split(' / ');
  // "DATABASE / Current State": the aspect names no subject; the heading above it does
  if (path.length === 2 && ASPECT_HEADING.test(path[1]!.trim())) return sentenceCase(path[0]!);
  // "Utils System (`src/utils/`) / Testing Pattern for exec-dependent modules": the inner heading
  // is the subject, the place the outer one names says where ("… (`src/utils/`)")
  const place = path.length === 2 && !NAMES_FILE.test(path[1]!) ? /\((`?[^()`\s]*[/.][^()`\s]*`?)\)\s*$/.exec(path[0]!)?.[1] : undefined;
  if (place !== undefined) return factLine(sentenceCase(`${path[1]!.trim()} (${place})`));
  // a reply's lead-in that became the heading of its list ("No — all three overrides need to
  // stay, each for a concrete reason:") keeps no answer word either
  return factLine(sentenceCase(inner !== undefined && ctx.includes(' / ') && NAMES_FILE.test(inner) ? inner : ctx));
}

/** Headings that name an aspect of what the heading above names ("Current State", "Key
 * Concepts", "Output"), not a subject of their own. */
const ASPECT_HEADING = /^(?:(?:the )?current (?:state|setup)|overview|details|key (?:concepts|components|points|facts|ideas)|output|structure|contents|notes|usage|general)$/i;

/** A heading in capitals ("MIX.EXS DEPENDENCIES") is the report's typography: in a fact's
 * subject it reads as shouting. */
function sentenceCase(heading: string): string {
  return heading
    .split(' / ')
    .map((h) => {
      if (!/[A-Z]{2}/.test(h) || /[a-z]/.test(h)) return h;
      const lower = h.toLowerCase();
      // a file name keeps its case ("MIX.EXS DEPENDENCIES" is about mix.exs)
      return /^[\w-]+\.[a-z]{1,5}\b/.test(lower) ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' / ');
}

/** A heading that names a file or a code identifier (`x`, dev.exs). */
const NAMES_FILE = /`[^`]+`|\b[\w-]+\.[a-z]{1,5}\b/i;

/** Whether most words of a code span occur in the corpus (values may be paraphrased: `host:port`). */
function spanSeen(span: string, corpus: string): boolean {
  if (corpus.includes(span)) return true;
  const parts = span.split(/[^a-z0-9_]+/).filter((t) => t.length >= 3);
  return parts.length > 0 && parts.filter((t) => corpus.includes(t)).length * 2 >= parts.length;
}

/** Identifiers in code spans that the session's tool output (not the agent's own edits) shows. */
function grounded(line: string, corpus: string): boolean {
  const spans = [...line.matchAll(/`([^`\n]{3,80})`/g)].map((m) => m[1]!.toLowerCase().replace(/^~\//, ''));
  if (spans.length === 0) return true;
  return spans.filter((s) => spanSeen(s, corpus)).length * 2 >= spans.length;
}

interface Scored {
  draft: Draft;
  score: number;
}

/** A line that starts with its verb ("Streams output via …") continued a lead-in that named the
 * subject ("Spotter … It:"); under a generic heading ("Summary") nothing says what does it. */
const BARE_VERB = /^(?:streams|uses|loads|handles|provides|renders|reads|writes|returns|runs|calls|creates|stores|sends|receives|manages|supports|shows|displays|fetches|parses|generates|builds|checks|validates|converts|wraps|exposes|implements|contains|defines|discovers|integrates|allows|enables|lets)\b/i;

function subjectless(ctx: string, line: string): boolean {
  return (ctx === '' || (GENERIC_TITLE.test(ctx) && concreteness(ctx) === 0) || PRONOUN_HEADING.test(ctx)) && BARE_VERB.test(line);
}

/** "What it does", "How it works": the heading's subject is a pronoun, named only above it. */
const PRONOUN_HEADING = /^(?:what|how|why|where) (?:it|this|they|these) (?:does|do|is|are|works?)\b[^/]*$/i;
/** "Why it happens", "Why this fails": the reply's diagnosis of the problem the conversation
 * named, for this one case; its lines answer that and name too little alone. */
const WHY_IT_HEADING = /^why (?:it|this|that|they|these|those) [a-z]+\b[^/]*$/i;

/** "The error you're seeing is because:", "What you're getting": the agent's reading of what the
 * user meets right now, addressed to them. */
const USER_MOMENT = /\byou(?:'re| are)? (?:seeing|getting|encountering|experiencing|hitting|running into)\b/i;
/** A lead that stops mid-sentence ("… is because:", "… means that:"): the list under it is the
 * rest of one sentence of this reply, not a section of a report. */
const CUT_SENTENCE = /\b(?:because|since|that|is|are|was|were|to|of|and|or|with|by)\s*:?$/i;

/** A heading under which the agent reports this turn, not how things are: work done, its own
 * action, a change it announces, its verdict on a diff, an offer to the user, its reading of what
 * the user sees now. */
export function turnHeading(inner: string): boolean {
  return (
    PROGRESS_SECTION.test(inner) ||
    FIRST_PERSON_DID.test(inner) ||
    TURN_OUTCOME.test(inner) ||
    changeHeading(inner) ||
    REVIEW_VERDICT.test(inner) ||
    CHANGE_LABEL.test(inner) ||
    OFFER_LINE.test(inner) ||
    USER_MOMENT.test(inner) ||
    CUT_SENTENCE.test(inner)
  );
}

/** A section anywhere under a heading that reports work done ("All 3 subtasks completed" /
 * "spotter-dov.1 — Extracted …"): part of the same progress report. */
function underProgress(section: Section): boolean {
  return section.headings.some((h) => PROGRESS_SECTION.test(h));
}

/** A placeholder for what the agent did not know (`vercel.com/<your-team-or-username>/app`,
 * `database: "../path/to/your.db"`). */
const PLACEHOLDER = /<(?:your|my|the)[-_ ][^>]{1,40}>|\bpath\/to\/|\byour[-_.]?(?:db|database|project|app|file|token|key|domain|username)\b/i;

/** "The diff introduces no new sink", "this patch only renames": about the change under
 * review, which is history once merged, not how the code is. */
const ABOUT_THE_DIFF = /\b(?:the|this) (?:diff|patch|changeset) (?:only |also |just )?(?:introduces|adds|removes|changes|does|doesn'?t|keeps|makes|replaces|renames|touches|moves)\b|\bthis (?:pr|pull request|change)\b/i;

/** "Here is the corrected SEARCH/REPLACE block. It will find …": the reply hands over its own edit. */
const PRESENTS_CHANGE = /^here(?:'s| is| are) (?:the |my |an? )?(?:corrected|fixed|updated|revised|modified|amended|new|complete|full)\b/i;

/** A UUID names one thing of one moment (a session file, a request, a run): a line that needs
 * one says nothing a later session can use. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;

/** "See section 1 above", "as described below": a pointer to other text, nothing on its own. */
const CROSS_REFERENCE = /^(?:see|refer to|as (?:shown|described|mentioned|noted|listed))\b.*\b(?:above|below|earlier|previous(?:ly)?)\b/i;

/** A line that is no fact whatever its score: a pointer to one line of a file, a run's result, prose the rules cannot read, an offer, a status
 * mark, a verb without its subject, a placeholder where the fact should be, a one-off id, talk
 * about the diff under review, the agent handing over its own edit, a pointer elsewhere. */
/** "`packages/x/src/image.ts:1`": one line of one file, a place where something was today (a
 * diagnostic, a hit), not how the code is (a folder name may hold spaces: "00- Dissertation/"). */
const LINE_POINTER = /^`[^`]+:\d+(?:[:,-]\d+)*`[.;,]?$/;

/** Whether a report line only points at a line of a file. */
export function onlyPointsAt(line: string): boolean {
  return LINE_POINTER.test(line.trim());
}

/** Words that only say a path is a configuration file, or where it is. */
const PATH_FILLER = new Set(['config', 'configs', 'configuration', 'file', 'files', 'at', 'in', 'is', 'the', 'a', 'an', 'and', 'live', 'lives', 'located', 'stored', 'under', 'settings', 'for', 'its', 'of', 'here', 'also']);

/** "Kitty config at `.config/kitty/kitty.conf`", "AeroSpace: `.config/aerospace/aerospace.toml`":
 * a program named by the path of its own file says only what the file tree says; a line that adds
 * what the file does ("Tmux: `tmux.conf` remaps the prefix to `Ctrl-a`") says more. */
export function namesOnlyItsPath(line: string): boolean {
  const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const paths = spans.filter((p) => /[\w-]\/|\.[A-Za-z]\w{0,5}$/.test(p)).map((p) => p.toLowerCase());
  if (paths.length === 0 || paths.length !== spans.length) return false;
  const words = line.replace(/`[^`]*`/g, ' ').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '' && !PATH_FILLER.has(w));
  return words.length > 0 && words.every((w) => paths.some((p) => p.includes(w)));
}

/** "`gradle test` in `backend` — 53 passed", "all 12 tests pass": the result of one run, this
 * session's, not how things are. */
const RUN_RESULT = /\b\d+\s+(?:(?:unit |integration )?tests?\s+)?(?:passed|passing|pass|failed|failing)\b|\ball\s+\d+\s+(?:tests?|specs?|checks?)\b|\ball (?:the )?(?:[\w-]+ )?(?:tests?|specs?|checks?) (?:now )?(?:pass|passed|are passing|are green)\b/i;

/** "You'll need an `oauth.json` file to …", "There is no PS1 in your zsh configuration — you use
 * the pure prompt": told to the user, of their own next step or their setup that moment; a fact
 * says how the repository is, of itself. (Quoted text and code are left out: a message quoted may
 * say "your".) */
const SECOND_PERSON = /\b(?:you|your|yours|you're|you've|you'll|you'd)\b/i;
function addressesTheUser(line: string): boolean {
  return SECOND_PERSON.test(plainApostrophes(line).replace(/`[^`]*`/g, ' ').replace(/"[^"\n]*"|“[^”\n]*”/g, ' '));
}

/** "providers: OpenAI, Azure OpenAI, AWS Bedrock, Ollama": a label and the names of the members of
 * something, nothing said of them: a roll call the code answers up to date, stale at the next one
 * added. */
const ROLL_CALL = /^[^:`]{2,40}:\s*(?:[A-Z][\w.+-]*(?: [A-Z][\w.+-]*)*\s*,\s*){2,}(?:and\s+)?[A-Z][\w.+-]*(?: [A-Z][\w.+-]*)*\.?$/;
/** Three versions or more in one line ("`@xterm/xterm ^6.0.0`, `@xterm/addon-fit ^0.11.0`, …"): the
 * manifest's list, which the manifest says up to date. */
const VERSION_LIST = /(?:\d+\.\d+\.\d+[^\d]+){2,}\d+\.\d+\.\d+/;
/** "We clone the repository using `gitService.clone`", "Then we try to create a branch": a walk
 * through one run of the code, told as its steps, not how the code is. */
const WE_WALK = /^(?:then |first |next |finally |now |here )?we (?:clone|try|call|create|check|get|set|pass|run|send|read|write|load|build|start|fetch|parse|loop|iterate|return|store|save|update|remove|look|open|go|enter|hit|reach)\b/i;

/** "`python3 render.py in.jsonl -o out.html`; or `… > out.html`", "Regenerate HTML: `…`": in the
 * closing report of a turn that made the thing, commands with at most a two-word label and nothing
 * said of them: the handover's steps for the user; the session's own runs of the command say how
 * it is run (project-commands.ts). */
function onlyCommands(line: string): boolean {
  if (!line.includes('`')) return false;
  const words = line.replace(/`[^`]*`/g, ' ').match(/\p{L}{2,}/gu) ?? [];
  return words.filter((w) => !/^(?:or|and|then|also|e\.?g|run|with)$/i.test(w)).length <= 2;
}

/** A handover line kept for how it says to use something: a command or setting, and words on it. */
function usageStated(line: string): boolean {
  return howToUse(line) && !onlyCommands(line);
}

function noFactLine(ctx: string, line: string): boolean {
  return onlyPointsAt(line) || namesOnlyItsPath(line) || ROLL_CALL.test(line) || VERSION_LIST.test(line) || WE_WALK.test(line) || addressesTheUser(line) || RUN_RESULT.test(line) || unreadableProse(line) || OFFER_LINE.test(line) || STATUS_LINE.test(line) || PLACEHOLDER.test(line) || UUID.test(line) || ABOUT_THE_DIFF.test(line) || PRESENTS_CHANGE.test(line) || CROSS_REFERENCE.test(line) || subjectless(ctx, line);
}

function keptLines(section: Section, report: Report, corpus: string): ReportLine[] {
  const ctx = context(section);
  const important = IMPORTANT.test(ctx);
  return section.lines.filter(
    (l) =>
      l.score >= (important ? 0 : MIN_LINE) &&
      !noFactLine(ctx, l.text) &&
      // advice and the writer's weighing of a finding ("Impact: … creating technical debt") are its opinion
      !/^(?:recommendation|suggestion|next step|impact|severity)s?:/i.test(l.text) &&
      (report.source === 'delegate' || grounded(l.text, corpus)),
  );
}

/** Base names of the files the session changed after `event` (a report read before them). */
function editedAfter(view: SessionView, event: number): Set<string> {
  const out = new Set<string>();
  for (const s of view.steps) if (s.call.index > event && !s.failed && !s.rejected && isEdit(s)) for (const f of editedFiles(s)) out.add(f);
  return out;
}

/** What the session's edits after `event` took out of the code, lowercased: an edit's old text
 * (`old_string`, also inside `edits`) and the removed lines of a patch or diff. */
function removedAfter(view: SessionView, event: number): string {
  const parts: string[] = [];
  const collect = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      if (key === 'old_string' || key === 'oldString' || key === 'old_str') parts.push(v);
      else if (/^(?:diff|patch|input)$/.test(key) || v.includes('*** Begin Patch')) for (const l of v.split('\n')) if (/^-(?!--)/.test(l)) parts.push(l.slice(1));
    } else if (Array.isArray(v)) for (const x of v) collect(x, key);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
  };
  for (const s of view.steps) if (s.call.index > event && !s.failed && !s.rejected && isEdit(s)) collect(s.call.input);
  return parts.join('\n').toLowerCase();
}

/** A line naming an identifier (a code span) that a later edit of the session took out or
 * rewrote: it describes code that is no longer there in that form ("`serverUrl` is not filled in
 * the zero state" before the edit that fills it). */
function rewrittenLater(line: string, removed: string): boolean {
  if (removed === '') return false;
  for (const m of line.matchAll(/`([^`\s]{4,60})`/g)) {
    const id = m[1]!.toLowerCase();
    if (/^[\w$.#-]+$/.test(id) && /[a-z]/.test(id) && removed.includes(id)) return true;
  }
  return false;
}

/** Whether the turn that `event` closes (since the user's last prompt) changed files. */
function editedInTurn(view: SessionView, event: number): boolean {
  const from = promptBefore(view, event)?.index ?? -1;
  return view.steps.some((s) => s.call.index > from && s.call.index < event && !s.failed && !s.rejected && isEdit(s));
}

/** Base names of the files the session changed before `event` (a closing report on its own work). */
function editedBefore(view: SessionView, event: number): Set<string> {
  const out = new Set<string>();
  for (const s of view.steps) if (s.call.index < event && !s.failed && !s.rejected && isEdit(s)) for (const f of editedFiles(s)) out.add(f);
  return out;
}

/** A section about a file (its heading names it, or the module it holds) that the session
 * changed after the report describes code that no longer exists: stale the moment it is written. */
function staleSection(ctx: string, changed: Set<string>): boolean {
  if (changed.size === 0) return false;
  if ([...ctx.matchAll(/[\w.-]+\.[a-z]{1,5}\b/gi)].some((m) => changed.has(m[0]))) return true;
  // a module named the way its file is (TranscriptRenderer in transcript_renderer.ex, TranscriptRenderer.tsx or transcript-renderer.ts)
  const stems = new Set([...changed].map((f) => f.replace(/\.[^.]+$/, '').replace(/[-_]/g, '').toLowerCase()));
  return [...ctx.matchAll(/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g)].some((m) => stems.has(m[0].toLowerCase()));
}

/** "Why you get thousands of logs": a report's diagnosis of a problem. When the session's later
 * edits changed the code (`removed` holds what they took out), the problem was worked on and the
 * diagnosis describes the code as it was before. */
function fixedDiagnosis(section: Section, removed: string): boolean {
  return removed !== '' && section.headings.some((h) => /^why\b/i.test(h));
}

/** A section of one short line ("Features: Code syntax highlighting (via Highlight.js)",
 * "Edge Cases Handled: Concurrent syncs (protected by `isSyncing` flag)") is a fragment of a
 * longer description: too little to stand alone as a fact. */
function tooSlight(kept: readonly ReportLine[]): boolean {
  // measured without the directories of its paths: `/home/…/assets/app.css` says `app.css`
  return kept.length === 1 && (kept[0]!.text.replace(/(?:~|\.{0,2})(?:\/[\w.-]+)+\//g, '').length < 90 || LOCATION_ONLY.test(kept[0]!.text));
}

/** "5 registered agents: CodeMie Native, Claude Code, …": a count that leads a list. */
const COUNTED_LIST = /^\d+ ((?:[a-z][\w-]* ){0,2}[a-z][\w-]*s):(?=(?:\s*[^,;]{1,40},){2})/i;

/** "Issue: …" before a finding: the heading already says it is one. */
const FINDING_LABEL = /^(?:issue|problem|finding|observation):\s*/i;
/** A commit named by its SHA ("the latest commit (`48ce1136a2`) changed …"): the id means
 * nothing after a rebase and nothing to a reader; the sentence says what the commit did. */
const SHA_ASIDE = /\s*\((?:commit )?`?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}`?\)|(?<=\b[Cc]ommit) `?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}`?(?=[\s,.;:]|$)/g;
/** "Found it.", "Found the problem:": the agent announcing its find, before it says what it is. */
const FOUND_LEAD = /^(?:found it|found (?:the|a) (?:issue|problem|bug|cause|culprit))[.!:]\s+/i;

/** "No — all three overrides need to stay …", "Yes, …": the answer to the user's question,
 * before the fact that answers it. */
const ANSWER_LEAD = /^(?:no|yes|yep|nope|correct|right|exactly|indeed)\s*(?:[—–]|--?|[,.:!])\s+(?=\S)/i;

/** "Looking at the git history, …", "After reviewing the code, …": how the agent looked, not
 * what it found. */
const LOOKED_LEAD = /^(?:looking (?:at|through)|checking|after (?:reviewing|looking (?:at|through)|checking|reading)|having (?:looked at|checked|reviewed|read))\b[^,]{0,80},\s*/i;

/** A report line as a fact states it: without the agent's announcement, its answer word, how it
 * looked, or a commit's SHA. */
function factLine(text: string): string {
  const line = text.replace(FOUND_LEAD, '').replace(SHA_ASIDE, '');
  const fact = line.replace(ANSWER_LEAD, '').replace(LOOKED_LEAD, '');
  return fact === line ? line : fact.charAt(0).toUpperCase() + fact.slice(1);
}

/** "Location: `/home/…/pane_list_live.ex`": where the section's code is (the code block that
 * followed was left out), however long the path. */
const LOCATION_ONLY = /^(?:file|location|located at|path|source):\s*`[^`]+`\.?$/i;

/** "How to Test:", "Try it out", "Testing instructions": a closing report's steps for the user to
 * check this turn's work (click the buttons, watch the log), its handover, not how things are. */
const TRY_IT_SECTION = /^(?:how to (?:test|try|use|run|verify|check)\b|testing(?: instructions| steps)?\s*:?\s*$|to (?:test|try) (?:it|this)\b|try it(?: out)?\b)/i;

/** A section whose heading says it is taken from a file ("Workflow (from DEVELOPER_GUIDELINES.md)",
 * "Per README.md", "Configuration Flow (documented in ARCHITECTURE.md)"): it restates that file,
 * which the next session reads itself and which stays right when the file changes. */
const RESTATES_FILE = /(?:^|[\s(/])(?:from|per|according to|as (?:stated|described|documented) in|(?:documented|described|explained) in|summari[sz]ed from)\s+`?[\w./-]+\.(?:md|mdx|txt|rst|adoc)\b/i;

/** A heading that names a settings file (`tsconfig.json`, `pyproject.toml`, `.eslintrc.yml`). */
const SETTINGS_FILE = /(?:^|[\s(`/])[\w.-]*\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf)\b/i;
/** A line that opens by quoting one setting, key and value (`` `outDir: "./dist"` - … ``,
 * `"strict": true`, `moduleResolution = NodeNext`). */
const SETTING_QUOTED = /^`["']?[\w.$-]+["']?\s*[:=]\s*[^`]+`/;

/** Paths a text names in code spans or as absolute or home paths. */
const NAMED_PATH = /`([^`\s]*\/[^`\s]*)`|(?<![\w.`])((?:~|\/(?:home|Users|tmp))\/[^\s`'",;)]+)/g;

/** A repository that keeps the home's own files (`dotfiles`, `.dotfiles`, `dots`, `chezmoi`). */
const DOTFILES_REPO = /^(?:\.?dot-?files?|\.?dots|\.files|chezmoi|dotfiles[-_.][\w.-]+|[\w.-]+[-_]dotfiles)$/i;

/** A section whose every named path lies outside the working directory, in the user's home
 * (`~/.claude/settings.json`) or the temp folder, tells how this machine is set up: true
 * whichever repository a session works in. Not in a session on a dotfiles repository: the home's
 * files are what that repository keeps. */
function aboutTheMachine(text: string, cwd: string | undefined, repo: string | undefined): boolean {
  if (repo !== undefined && DOTFILES_REPO.test(repo)) return false;
  const paths = [...text.matchAll(NAMED_PATH)].map((m) => (m[1] ?? m[2])!);
  if (paths.length === 0) return false;
  const inRepo = (p: string) => cwd !== undefined && cwd.length > 1 && p.startsWith(`${cwd.replace(/\/+$/, '')}/`);
  return paths.every((p) => /^(?:~|\/(?:home|Users)\/[^/]+|\/tmp)\//.test(p) && !inRepo(p));
}

function sectionDraft(view: SessionView, section: Section, report: Report, corpus: string, changed: Set<string>, removed: string, later: Set<string>, onlyHowToUse: boolean): Scored | undefined {
  const ctx = context(section);
  const inner = section.headings[section.headings.length - 1] ?? '';
  if (report.source === 'closing' && TRY_IT_SECTION.test(inner)) return undefined;
  if (RESTATES_FILE.test(ctx)) return undefined;
  if (WHY_IT_HEADING.test(ctx)) return undefined;
  if (QUESTION_SECTION.test(ctx) || PROPOSAL_SECTION.test(ctx) || SPECULATIVE_SECTION.test(ctx) || TRANSIENT_HEADING.test(ctx) || CHANGELOG_SECTION.test(inner) || WORK_DONE_HEADING.test(inner) || turnHeading(inner) || underProgress(section)) return undefined;
  // the whole heading path: a section under a heading about a changed file is about that file
  if (staleSection(section.headings.join(' / '), changed) || fixedDiagnosis(section, removed)) return undefined;
  const kept = keptLines(section, report, corpus).filter((l) => !rewrittenLater(l.text, removed) && !actedOnLater(ctx, l.text, later) && (!onlyHowToUse || usageStated(l.text)));
  // a settings file's keys and values quoted back, in half its lines or more ("tsconfig.json:
  // `outDir: "./dist"` - compiled output"): the file says them, up to date
  if (SETTINGS_FILE.test(ctx) && kept.filter((l) => SETTING_QUOTED.test(l.text)).length * 2 >= kept.length) return undefined;
  // a sentence its list finishes says what it says with every item: part of the list misstates it
  if (section.leadIn && kept.length < section.lines.length) return undefined;
  if (kept.length === 0 || tooSlight(kept) || unreadableProse(`${ctx} ${kept.map((l) => l.text).join(' ')}`)) return undefined;
  const best = [...kept].sort((a, b) => b.score - a.score).slice(0, 3);
  const bonus = (IMPORTANT.test(ctx) ? 3 : 0) + (OPERATIONAL.test(ctx) || kept.some((l) => OPERATIONAL.test(l.text)) ? 2 : 0);
  const score = best.reduce((n, l) => n + l.score, 0) / Math.max(1, best.length) + Math.min(2, best.length - 1) + 0.5 * Math.min(2, concreteness(ctx)) + bonus;
  // The best lines that fit the section budget (at most five), shown in reading order.
  const chosen = new Set<ReportLine>();
  let used = ctx.length + 2;
  for (const l of [...kept].sort((a, b) => b.score - a.score)) {
    const len = Math.min(220, l.text.length) + 2;
    if (chosen.size >= 5 || (used + len > SECTION_CHARS && chosen.size > 0)) continue;
    chosen.add(l);
    used += len;
  }
  // a long line ends at its last whole sentence or clause that fits, not mid-word
  // a finding's label ("Issue: …") repeats what its heading says, and a count before a list
  // ("7 providers: OpenAI, …") is stale at the next addition (and often already off by one)
  const parts = kept.filter((l) => chosen.has(l)).map((l) => clipWhole(factLine(l.text).replace(FINDING_LABEL, '').replace(COUNTED_LIST, '$1:'), 220, 60).replace(/[.;]$/, ''));
  const body = parts.join('; ');
  // a heading that names only the kind of content ("Summary", "Relationships") is no subject:
  // the lines say what they are about
  const named = subjectOf(section, ctx);
  const subject = GENERIC_TITLE.test(named) && concreteness(named) === 0 ? '' : named;
  const text = sentence(subject ? `${subject}: ${body}` : body);
  const category = (PATTERN_WORDS.test(ctx) || PATTERN_WORDS.test(body)) && ACTIONABLE.test(body) ? 'pattern' : 'fact';
  return {
    score,
    draft: {
      category,
      ...(aboutTheMachine(`${ctx} ${body}`, view.session.cwd, view.session.repo) ? { scope: 'global' as const } : {}),
      // a subject that is only the heading above an aspect ("Database") says little alone: the
      // title goes on with what the section says of it ("Database: SQLite via ash_sqlite")
      // (not when that line is itself a labelled entry: "Unit tests: `vitest run src`")
      title: (subject && subject !== ctx && !subject.includes(' / ') && !NAMES_FILE.test(subject) && !/^[^:`]{1,40}:/.test(parts[0]!) ? `${subject}: ${clip(parts[0]!, 60)}` : subject || clip(parts[0]!, 70)).replace(/`/g, ''),
      text,
      confidence: CONFIDENCE.stated,
      event: report.event,
      tags: ['report'],
      quotes: [],
      rule: 'report-fact',
      // On the scale of the other rules (5 stated … 9 verified); a parent's copy of a subagent report ranks lower.
      score: (report.source === 'delegate' && view.session.subagent === undefined && !view.session.parentId ? 2 : 3) + Math.min(5, score / 2),
    },
  };
}

/** A line whose subject is the line before's ("Each has …", "It also …", "They …"). */
const CONTINUES = /^(?:(?:each|both|it|they|this|these|those)\s+(?:also\s+)?(?:has|have|is|are|was|were|can|will|gets?|gives?|keeps?|shows?|uses?|runs?|takes?|makes?)\b|also\b)/i;

/** A short report (a closing summary) reads best as one item: its lead, then its sections. */
/** A lead sentence that reports a change the agent made ("I installed …"; not "I've looked through …"). */
const LEAD_DID = /^i(?:'ve| have)?(?: just)? (?:started|created|ran|added|updated|fixed|changed|installed|removed|wrote|moved|made|set up|restarted)\b/i;
/** A lead that presents the state of the work ("Here's the current state:", "Here's where we
 * are:"): what follows is a progress report (built, still needed), not how things are. */
const LEAD_STATUS = /^(?:[^.!?\n]{0,60}[.!]\s+)?here(?:'s| is) (?:the )?(?:current state|current status|status|progress|where (?:we|things) (?:are|stand))\b/i;

/** A lead sentence that says the work is done ("The profile image upload and the image serving
 * are in place.", "The export is now implemented.", "Implementation complete."): a progress
 * report of this turn. */
const LEAD_DONE = /^(?:[^.!?\n]|\.(?=\w)){0,160}\b(?:is|are) (?:now )?(?:in place|done|complete|completed|implemented|finished|ready to use|live|(?:installed|set up|configured) and working|up and running)[.!]|^(?:[\w-]+ ){0,3}(?:complete|completed|done|finished)[.!:]/i;

/** A reply that opens by saying what the user added or shared ("Thank you! You have now added:
 * …", "You've shared …"): talk about the chat, its list what the user gave or should give. A
 * polite "Thanks for the details." or a causal "Thanks to `convex.json`, …" says nothing of it. */
const TO_THE_USER = /^(?:\W*(?:thanks|thank you)\b(?! to\b)[^.!?\n]{0,40}[.!?]\s*)?you(?:'ve| have)? (?:now |just )?(?:added|shared|provided|sent|uploaded|pasted|given)\b/i;
/** A reply that opens by handing over what the turn made ("You now have two options on your
 * desktop to launch …", "Now you have a working …"): what follows describes this turn's product
 * and how the user operates it. */
const HANDOVER = /^(?:(?:great|perfect|done|ok(?:ay)?)\W+)?(?:you(?:'ve| have)? now (?:have|got)|now you(?:'ve| have)(?: got)?|you now have)\b/i;
export const handsOver = (lead: string): boolean => HANDOVER.test(lead);

/** A line whose files are all ones the session itself wrote ("`.env` with placeholders …",
 * "`bot/client.py` for login logic" closing a turn that made them): what this turn put there,
 * which the files now say. */
function aboutWrittenFiles(line: string, written: Set<string>): boolean {
  if (written.size === 0) return false;
  const files = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter((f) => /(?:^|\/)[\w.-]*\.[A-Za-z]\w{0,5}$|^\.\w+$/.test(f));
  return files.length > 0 && files.every((f) => written.has(f.replace(/^.*\//, '')));
}

/** A finding (under a heading of issues, bugs, problems) that names, as a path in a code span
 * (`.local/bin/playlist`, `src/app.ts`), a file the session edited after the report: the edit
 * acted on it, and the line tells the file as it was. */
function actedOnLater(ctx: string, line: string, files: Set<string>): boolean {
  if (files.size === 0 || !FINDING_SECTION.test(ctx)) return false;
  return [...line.matchAll(/`([^`\s]+)`/g)].some((m) => /\/|\.[A-Za-z]\w{0,5}$/.test(m[1]!) && files.has(m[1]!.replace(/^.*\//, '')));
}

/** A line without the label it opens with ("Text: I added it to …" says "I added it to …"). */
function withoutLabel(line: string): string {
  return line.replace(/^[^:`]{1,30}:\s+/, '');
}

function compactDraft(report: Report, corpus: string, changed: Set<string>, removed: string, later: Set<string>, onlyHowToUse: boolean): Draft | undefined {
  // "I installed oxfmt and oxlint and set them up …" opening the summary: what follows reports
  // that change (its config, its scripts), as a heading "Here's what was added" would
  // (without the emphasis the lead is often written in: "**No virus or exploit found.** …")
  const lead = plainApostrophes(oneLine(report.text)).trimStart().replace(/^[*_]+(?=\S)/, '');
  // (and so does one that opens on the turn's outcome, "Implemented: X now has …", "Done. …", or
  // with its verdict on what it was asked to check, "No virus or exploit found.")
  if (LEAD_DID.test(lead) || LEAD_DONE.test(lead) || LEAD_STATUS.test(lead) || TURN_OUTCOME.test(lead) || REVIEW_VERDICT.test(lead)) return undefined;
  const parts: string[] = [];
  let best = 0;
  for (const section of report.sections) {
    const ctx = context(section);
    const inner = section.headings[section.headings.length - 1] ?? '';
    if (WHY_IT_HEADING.test(ctx)) continue;
    if (QUESTION_SECTION.test(ctx) || PROPOSAL_SECTION.test(ctx) || SPECULATIVE_SECTION.test(ctx) || TRANSIENT_HEADING.test(ctx) || TRY_IT_SECTION.test(inner) || WORK_DONE_HEADING.test(inner) || turnHeading(inner) || underProgress(section) || staleSection(section.headings.join(' / '), changed) || fixedDiagnosis(section, removed)) continue;
    // A line ending in ':' announced content (a code block) that was left out: it says nothing alone.
    // "I've started both servers": what the agent did this time, not how things are
    const fits = (l: ReportLine): boolean => l.score >= 1 && !/:$/.test(l.text) && !noFactLine(ctx, l.text) && !FIRST_PERSON_DID.test(withoutLabel(l.text)) && !aboutWrittenFiles(l.text, changed) && !TURN_OUTCOME.test(l.text) && !CHANGE_LINE.test(l.text) && grounded(l.text, corpus) && !/^(?:recommendation|suggestion)s?:/i.test(l.text) && !rewrittenLater(l.text, removed) && !actedOnLater(ctx, l.text, later) && (!onlyHowToUse || usageStated(l.text));
    // "Each has a Collapse button" goes on from the line before: without that line it names nothing
    const kept = section.lines.filter((l, i) => fits(l) && (!CONTINUES.test(l.text) || (i > 0 && fits(section.lines[i - 1]!))));
    if (kept.length === 0 || unreadableProse(`${ctx} ${kept.map((l) => l.text).join(' ')}`)) continue;
    best = Math.max(best, ...kept.map((l) => l.score));
    const body = kept.map((l) => factLine(l.text).replace(/[.;]$/, '')).join('; ');
    const subject = subjectOf(section, ctx);
    // (after a turn of edits the heading above a command is mostly a line of the change log,
    // "Distinguishes roles with a pastel scheme:", unless it names the file the command is for)
    const named = subject !== '' && !GENERIC_TITLE.test(subject) && (!onlyHowToUse || NAMES_FILE.test(subject));
    parts.push(named ? `${subject}: ${body}` : body);
  }
  if (parts.length === 0 || best < MIN_LINE) return undefined;
  const text = sentence(parts.join('. '));
  return {
    category: PATTERN_WORDS.test(text) && ACTIONABLE.test(text) ? 'pattern' : 'fact',
    title: clip(parts[0]!.replace(/`/g, ''), 70),
    text,
    confidence: CONFIDENCE.stated,
    event: report.event,
    tags: ['report', 'summary'],
    quotes: [],
    rule: 'report-fact',
    score: 4 + Math.min(4, best / 2),
  };
}

/** Everything the session's tools printed, except the echo of the agent's own edits. */
function toolCorpus(view: SessionView): string {
  return view.steps
    .filter((s) => !isEdit(s) && !s.failed)
    .map((s) => s.output)
    .join('\n')
    .toLowerCase();
}

/** Whether the first line of a report names one of `written` (base names) as a word of its own. */
function leadNamesWritten(text: string, written: Set<string>): boolean {
  const lead = text.split('\n').find((l) => l.trim() !== '') ?? '';
  for (const f of written) {
    const at = lead.indexOf(f);
    if (f.length >= 4 && at >= 0 && !/[\w./-]/.test(lead.charAt(at + f.length)) && (at === 0 || !/[\w-]/.test(lead.charAt(at - 1)))) return true;
  }
  return false;
}

/** A closing message the user answered with a correction, or with "it is still broken", was
 * disputed; its content is not knowledge. */
export function disputed(view: SessionView, report: Report): boolean {
  if (report.source !== 'closing') return false;
  const next = view.prompts.find((p) => p.index > report.event);
  // "it still does it": the claim of the report did not hold
  return next !== undefined && (isCorrection(next.text) || STILL_BROKEN.test(next.text));
}

/** A session asked to review a change ("Review this change for security vulnerabilities"). */
const REVIEW_TASK = /^\s*(?:please\s+)?(?:(?:security|code)\s+)?review (?:this|the|these|my|our) (?:\w+ )?(?:change|diff|patch|pr|pull request|commit|branch)(?:es|s)?\b/i;

/** A prompt that points at a commit by its hash ("Look at changes in f89d24a…", "in commit
 * d873199 the tests are fixed"): the reply tells what that commit changed, history, as a review
 * of a diff does. */
const ABOUT_A_COMMIT = /\b(?:commits?|changes? in|diff (?:of|in)|look at)\s+`?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/i;

/** The user asking which way to choose ("what should I use to deploy …", "which database would
 * you recommend", "what are my options"): the reply advises on a decision not yet made, and its
 * sections say what could be done, not how the repository is. */
const ASKS_ADVICE = /\b(?:what (?:should|would|could) (?:i|we) (?:use|choose|pick)|which (?:\w+ )?(?:should|would|could) (?:i|we)|what (?:are|would be) (?:my|our|the) (?:options|choices|alternatives)|(?:would|do|can) you recommend|what(?:'s| is) the best (?:way|option|choice|tool|service|platform))\b/i;

/** The user asking to be taught ("can you help me understand what each file is doing", "what's
 * the difference between X and Y", "how does X work?"): the reply is a lesson on the framework,
 * what its documentation says, told to this user; not something found out about the repository. */
const ASKS_TO_LEARN = /\b(?:help me (?:to )?understand|teach me|explain to me|eli5|i(?:'m| am) (?:trying to )?(?:learn|understand)(?:ing)?|what(?:'s| is| are) the difference between|what(?:'s| is) the purpose of|how does (?:the |this |a |an )?[\w.-]+ work)\b/i;

/** The user asking for a tour ("Explain this codebase to me", "give me an overview of the repo",
 * "walk me through this project"): the reply shows this user around what the files say, which
 * the files keep saying, up to date. */
const ASKS_FOR_TOUR = /\b(?:explain|describe|summari[sz]e|walk me through|give me an? (?:overview|tour|summary) of|tell me about)\s+(?:what\s+)?(?:this|the|my|our)\s+(?:code ?base|repo(?:sitory)?|project)\b|\bwhat(?:'s| is| does)\s+(?:this|the)\s+(?:code ?base|repo(?:sitory)?|project)(?:\s+do)?\s*\??\s*$/i;

/** The user asking to be shown something of theirs ("Show my statusline", "what's in my
 * settings?"): the reply displays what their files hold, which the files say, and say up to date. */
const ASKS_TO_SEE = /^\s*(?:please\s+)?(?:show|display|print|list)\s+(?:me\s+)?(?:my|our)\b|\bwhat(?:'s| is) in (?:my|our)\b/i;

/** A reply that ends by asking the user to approve what it means to do ("So let's do this —
 * I'll set up … Sound good?", "Shall I proceed?"), or what they meant ("Could you clarify what
 * you wanted me to recall?"): a proposal or a question back, whose lists are the agent's grounds
 * as it saw them at a glance, not what the session established. */
const ASKS_APPROVAL = /\b(?:sounds? good|shall i|should i|want me to|would you like me to|(?:ok(?:ay)?|ready) to (?:proceed|go ahead)|can i (?:proceed|go ahead)|proceed|go ahead|does (?:that|this) (?:work|look right)|(?:could|can) you (?:please )?(?:clarify|specify|confirm)|what (?:specifically |exactly )?(?:did|do) you (?:mean|want))\b[^.!?\n]{0,80}\?/i;
/** (asked in the reply's last paragraph, whatever follows the question there) */
function asksApproval(text: string): boolean {
  const paragraphs = text.trimEnd().split(/\n\s*\n/);
  return ASKS_APPROVAL.test(paragraphs[paragraphs.length - 1]!.slice(-300));
}

export function reportFactDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const summaries: Draft[] = [];
  let corpus: string | undefined;
  // the closing report of a review describes the change under review ("Replaces the throw with
  // a transform", "rename only"): history once merged, not how the code is
  const reviewing = REVIEW_TASK.test(view.prompts[0]?.text ?? '');
  for (const report of reportsOf(view)) {
    if (reviewing && report.source === 'closing') continue;
    const lead = oneLine(report.text).trimStart();
    if (TO_THE_USER.test(lead) || handsOver(lead) || asksApproval(report.text)) continue;
    // the report's language, which a section of a label and a path alone does not show
    if (unreadableProse(report.text)) continue;
    const asked = promptBefore(view, report.event)?.text ?? '';
    if (ASKS_ADVICE.test(asked) || ABOUT_A_COMMIT.test(asked) || ASKS_TO_LEARN.test(asked) || ASKS_TO_SEE.test(asked) || ASKS_FOR_TOUR.test(asked)) continue;
    // The user disputed the proposal of a disputed report; the problems it found still stand.
    const contested = disputed(view, report);
    // a subagent session's report goes stale with what its parent session changed after it
    const parentLater = view.session.parentEditsAfter ?? [];
    const changed = report.source === 'delegate' || parentLater.length > 0 ? editedAfter(view, report.event) : new Set<string>();
    for (const f of parentLater) changed.add(f);
    // a closing report's section about a file the session itself wrote tells what it put there:
    // this turn's change, which the file itself now says
    const written = report.source === 'closing' ? editedBefore(view, report.event) : new Set<string>();
    for (const f of written) changed.add(f);
    // a closing report that opens by naming a file the session wrote ("✅ **CLAUDE.md 파일을
    // 생성했습니다!**", "Created `README.md` with:") lists what went into that file, in any language
    if (leadNamesWritten(report.text, written)) continue;
    if (report.source === 'closing') corpus ??= toolCorpus(view);
    const facts = corpus ?? '';
    // a closing report of one turn, and code the session rewrote in the turns after it
    const removed = report.source === 'closing' ? removedAfter(view, report.event) : '';
    // and the files the session edited after it (a finding about one was acted on)
    const later = report.source === 'closing' ? editedAfter(view, report.event) : new Set<string>();
    // a closing report of a turn that changed files tells that change, whatever its wording;
    // only how it says to run or configure what is there now (a command, a setting, an
    // environment variable) outlasts the turn
    const onlyHowToUse = report.source === 'closing' && editedInTurn(view, report.event);
    if (report.source === 'closing' && report.text.length < COMPACT_REPORT && !contested) {
      const d = compactDraft(report, facts, changed, removed, later, onlyHowToUse);
      if (d && namesPlace(d)) summaries.push(d);
      continue;
    }
    const scored = report.sections
      .filter((s) => !contested || FINDING_SECTION.test(context(s)))
      .map((s) => sectionDraft(view, s, report, facts, changed, removed, later, onlyHowToUse))
      .filter((s): s is Scored => s !== undefined && namesPlace(s.draft))
      .sort((a, b) => b.score - a.score);
    // (more for a longer report, but five at most: past its best five, a long exploration report
    // lists what the code shows to whoever opens it, registries, folders and settings; so do
    // rule files, see repo-rules.ts)
    const keep = Math.max(2, Math.min(5, Math.ceil(report.text.length / 1500)));
    drafts.push(...scored.slice(0, keep).map((s) => s.draft));
  }
  // Turn summaries repeat each other across a long session: keep the most concrete few.
  const maxSummaries = Math.max(2, Math.floor(view.prompts.length / 4));
  const best = [...summaries].sort((a, b) => b.score - a.score || a.event - b.event).slice(0, maxSummaries);
  return [...drafts, ...summaries.filter((d) => best.includes(d))];
}

/** A path (`src/lib/`, `prisma/schema.prisma`), a file name with an extension (`build.js`; not
 * "e.g.", not a capitalised framework name such as Next.js), or a command to run (`npm run ci`). */
const PLACE = /`(?:sudo |npx )?[a-z][\w.-]*(?: +-{0,2}[\w.:=/-]+)+`|`[^`\s]*\w\/[^`\s]*`|(?<![\w/])(?:[\w.-]+\/)+[\w.-]*\.[A-Za-z]\w{0,5}\b|\b(?!e\.g\b|i\.e\b)[\w-]+\.(?!js\b)[a-z][a-z0-9]{0,5}\b|\b[a-z][\w-]*\.js\b/;

/** A fact about the repository says where it holds or how to act on it: a report section that
 * names no file, folder or command is about the conversation (progress, advice, a finding of the
 * moment); reviewers accepted none of 18 such items. Asked before the best are chosen, so such a
 * section takes no place of one that names where it holds. */
export function namesPlace(d: { title: string; text: string }): boolean {
  return PLACE.test(d.title) || PLACE.test(d.text);
}

export const reportFacts: RuleExtractor = ruleExtractor('report-fact', reportFactDrafts);
