/**
 * What the user corrected or laid down: "no, it's not X", "don't …", "use X instead",
 * "X is the same as Y", "before …, check …", and answers to the agent's own questions.
 * A message is a correction only where the agent's answer concedes it ("You're right", "I
 * apologize"): the user's words alone cannot tell a correction from a request, a complaint or a
 * report, and reviewers merged none of those. A convention laid down in a sentence of its own
 * ("We use pnpm.") needs no concession.
 * The user's words are kept (they are the knowledge); the file the agent then worked on is
 * added as context so the item stands alone. Procedures become patterns, the rest facts.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { NARRATION, clip, code, concreteness, oneLine, sentence, sentences, stripMarkdown } from '../text.js';
import { isReadOnly } from '../commands.js';
import { EDIT_TOOLS, READ_TOOLS, editedFiles, fileName, isEdit, replyBefore, type SessionView, type Step } from '../view.js';
import { escapeRegExp } from '../../../core/regexp.js';
import { commitWishes } from './aider-notice-lines.js';

const CORRECTION = new RegExp(
  [
    String.raw`^(?:no|nope|wrong|not|actually|wait|stop|just)\b`,
    String.raw`\blet'?s not\b|\bnext time\b|\bmore efficient(?:ly)?\b`,
    String.raw`\b(?:\w{1,4}'s|it is|this is) not\b`, // "it's not", also typed "ir's not"
    String.raw`\b(?:isn'?t|aren'?t|don'?t|do not|doesn'?t|shouldn'?t|never|always|instead|rather than|we use|we don'?t)\b`,
    String.raw`\bshould (?:be|use|go)\b`,
    String.raw`\bmust(?: not)?\b`,
    String.raw`\b(?:is|are) (?:exactly )?the same (?:as|value)\b|\bsame value\b`,
    String.raw`\bthere (?:is|are) no\b`,
    String.raw`\b(?:bad idea|not needed|no need|overcomplicat\w*|over-engineer\w*|too complex|unnecessary)\b`,
    String.raw`\bonly (?:change|use|touch|edit|modify)\b`,
    String.raw`\bbefore (?:providing|proposing|doing|making|editing|committing|writing|changing|you|we)\b`,
  ].join('|'),
  'i',
);
const PROCEDURE = /^(?:before|first|always|never|when)\b|\bbefore (?:providing|proposing|doing|making|editing|committing|writing|changing|you|we)\b|\befficient(?:ly)?\b|\bworkflow\b/i;
/** A sentence that opens as a question asks, with or without its question mark ("does it make
 * sense to have it combined."): the user weighing an idea with the agent, not stating what is right. */
const OPENS_AS_QUESTION = /^(?:does|do|did|is|are|should|shall|can|could|would|will|what about|how about)\s+(?:it|we|you|i|they|this|that|these|there|the|our|my)\b/i;
/** The user pointing at something the agent did wrong ("you wasted", "next time"). */
const MISTAKE = /\b(?:you (?:just )?(?:wasted|forgot|missed|ignored|broke|did)|next time|i (?:told|asked) you|i (?:did )?specifically)\b/i;
/** "Two errors show up on chrome", "I'm getting this error", "It says '… doesn't exist'", "still happens": a failure reported. */
const BUG_REPORT = /^(?:(?:two|some|the|these|an?|new)\s+)?(?:errors?|warnings?|exceptions?|crash(?:es)?) (?:show(?:s)? up|appears?|occurs?|happens?|(?:is|are) (?:thrown|shown|raised))\b|^i(?:'m| am)? (?:get|got|see|getting|seeing) (?:an? |this |these |the following |two |some )?(?:errors?|exceptions?|warnings?)\b|^still (?:happens|fails|failing|broken)\b|^(?:it|this|that|chrome|the (?:browser|console|app|page|build)) (?:still )?(?:says|shows|prints|gives|throws)\b/i;

/** A page of an error report pasted whole (Next.js's overlay: `## Error Type` / `Build Error` /
 * `## Error Message`): the tool's words, however much they say "must". */
const PASTED_REPORT = /^#{1,4}\s*(?:Error Type|Error Message|Build Output|Call Stack|Stack trace)\b/im;
/** A correction that is only "use X instead of Y" (a tool, a command, a package). */
const INSTEAD_OF = /^(?:please\s+)?use\s+`?([\w.@/+-]+)`?\s+instead\s+of\s+`?([\w.@/+-]+)`?\s*[.!]?$/i;
/** A program's log line pasted in (`2026-05-02 16:48:32,173 | INFO | Done. mean_acc=0.75 …`):
 * the user judging a run's result ("this is not close to 85"), not what the agent got wrong. */
const PASTED_LOG = /^\s*\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?\]?\s*(?:\||-|:)?\s*\[?(?:INFO|DEBUG|WARN(?:ING)?|ERROR|CRITICAL|TRACE|FATAL)\b/m;
/** A terminal's text pasted in: a shell prompt in it (`jun@cloudshell:~/app (project)$`), or a
 * message that opens with a program's error line (`ERROR: (gcloud.builds.submit) … must be …`). */
const PASTED_TERMINAL = /(?:^|\s)[\w.-]+@[\w.-]+:[~/]\S*(?: \([^()\s]+\))?[$#%](?:\s|$)|^\s*(?:ERROR|FATAL|Error|error|fatal)(?::|\s\()/;
/** A browser console's own line pasted in (`Access to XMLHttpRequest at '…' has been blocked by
 * CORS policy: …`, `Uncaught TypeError: …`, `GET https://… 404`): the browser's words. */
const PASTED_CONSOLE = /^\s*(?:Uncaught (?:\(in promise\) )?\w*(?:Error|Exception)\b|Failed to load resource\b|Access to (?:XMLHttpRequest|fetch) at '[^']+' from origin '[^']+' has been blocked by CORS policy\b|(?:GET|POST|PUT|PATCH|DELETE|OPTIONS) https?:\/\/\S+ (?:net::ERR_\w+|\d{3}\b))/m;
/** "…, create one", "add it": the message ends by asking the agent to make what it says is missing. */
const MAKE_IT = /(?:^|[.!?,;]\s*|\b(?:so|then|and)\s+)(?:please\s+)?(?:create|add|make|write|build|generate|implement)\s+(?:one|it|them|that|this|those)\b[^.!?]{0,40}[.!]?\s*$/i;

/** A sentence that reports a symptom: a negation of what the software does ("X isn't working",
 * "it doesn't seem like the hotkey is working", "still not seeing it", "it won't minify
 * comments", "nothing happens", "it is the M command that doesn't"). */
const SYMPTOM_VERB = String.raw`(?:work|show|see|appear|happen|open|load|start|display|initiali[sz]e|respond|render|fire|trigger|delete|remove|get rid|minify|compile|build|launch|run|save|close|update|change)`;
const ADVERBS = String.raw`(?:\s+(?:really|even|actually|properly|still|quite|always|seem(?:s|ing)?\s+(?:to|like)(?:\s+[\w'-]+){0,4}?))*`;
const SYMPTOM = new RegExp(
  [
    // "the hotkey isn't working", "still not seeing it", "it doesn't seem like it is working"
    String.raw`\b(?:(?:is|are|was|were|does|do|did)n'?t|not|no longer)${ADVERBS}\s+(?:be\s+)?\w+ing\b`,
    // "it doesn't work", "it won't minify comments", "it seems to not work"
    String.raw`\b(?:(?:does|do|did|will|would|wo|can|could)n'?t|(?:does|do|did|will|would|can|could|to) not)${ADVERBS}\s+${SYMPTOM_VERB}\b`,
    String.raw`\bnothing (?:happens|happened|changes|changed|shows)\b`,
    // "it is the M command that doesn't", "it was working earlier, it's not now"
    String.raw`\b(?:does|do|did|is|are|was|were|will|wo)n'?t\s*[.!]*$|\b(?:it|this|that)(?:'s| is) not(?:\s+(?:now|anymore|any more))?\s*[.!]*$`,
  ].join('|'),
  'i',
);
/** A wish for a feature ("It would be good if any link …", "what about the links …", "I'd like
 * …", "I want it to be like …"): what the user wants of this task's result, a request, not what
 * the agent got wrong (however it is typed: "it sould be good if"). */
const WISH = /\b(?:it|that|this) \w+ be (?:good|nice|great|better|cool|useful|helpful|ideal) (?:if|to)\b|^(?:what|how) about\b|\bi(?:'d| would) (?:like|love)\b|\bi (?:want|need) (?:it|this|that|them) (?:to be|to look|like)\b/i;
/** A message that announces the next piece of work ("I have a new update we need to do", "One
 * more fix to push today: …"): a request, whatever the bug it then describes. */
const NEW_WORK = /^(?:(?:i|we) (?:have|got|need) (?:a |one |another )?(?:new |small |quick |last |more )?(?:update|fix|change|feature|request|task|bug|issue|thing)s?\b|one more (?:fix|thing|change|update|feature|bug|issue)\b|(?:here'?s|there'?s) (?:a |one |another )?(?:new |small |quick )?(?:update|fix|change|feature|request|task|bug|issue)\b)/i;
/** A sentence that only denies ("It isn't the key combination.", "It doesn't have to do with a
 * conflict.") says what is wrong, not what is right. */
const DENIAL = /^(?:but\s+)?(?:it|this|that)(?:'s not| is not|\s+isn'?t)\s+(?:the|a|an|about|because of)\b[^,;:.!?]{0,60}[.!]?$|^(?:but\s+)?(?:it|this|that) (?:doesn'?t|does not) have (?:anything )?to do with\b[^,;:.!?]{0,80}[.!]?$/i;
/** "look at lines 8-18", "see line 42": the place in a file the user points at this time. */
const LINE_POINTER = /\b(?:look at|see|check|in) lines?\s+\d+(?:\s*[-–]\s*\d+)?\b/i;
/** Doubt, not a statement: "I don't know", "not sure". */
const UNSURE = /\b(?:i (?:don'?t|do not) know|not sure|no idea)\b/i;
/** The user telling of their own experience ("i have never implemented JWT Token", "I'm new to
 * Spring"): about the person, not about the code, the tools or what the agent got wrong. */
const ABOUT_ME = /^(?:(?:but|and|so|well)\s+)?i(?:'ve| have) (?:never|not (?:yet )?(?:used|done|implemented|worked with|written|built|learned))\b|^(?:(?:but|and|so|well)\s+)?i(?:'m| am) (?:new to|not familiar with|a beginner|still learning|learning)\b/i;

/** "You are auditing the core repository …", "You are a senior engineer …": a prompt that casts
 * the agent in a role and hands it a task (its "Constraints: avoid …" are the task's terms). */
const ROLE_PROMPT = /^you(?: are|'re) (?:(?:an?|the)\s+(?:[\w-]+\s+){0,3}(?:engineer|developer|assistant|expert|agent|architect|reviewer|auditor|analyst|programmer|coder|consultant)\b|(?:now )?(?:auditing|reviewing|tasked|acting as|in charge of)\b(?![^.!?]{0,40}\bwrong\b))/i;
/** "You must fully embody this agent's persona … NEVER break character": a role-play template
 * (BMAD's agent activation) casts the agent; it says nothing about the project. */
const PERSONA = /\b(?:embody (?:this|the|an?) (?:agent|persona|role)|(?:agent|this) persona|break(?:ing)? character|stay in character|<agent-activation\b)/i;
/** "Your task isn't to reorganize the list, just verify it": what this session is to do. */
/** "You are looking at the wrong part of the codebase. Just take a look at …": where the agent is
 * to look for this task, not what is right about the code. */
const WRONG_PLACE = /\b(?:looking|searching|working) (?:at|in|on) the wrong\w* (?:part|file|files|place|function|module|folder|directory|repo\w*|project|class|component)\b/i;
const TASK_SCOPE = /\byour (?:task|job|goal) (?:is|isn'?t|was|wasn'?t|is not|was not)\b/i;
const MAX_CORRECTION = 300;
/** A message that opens with a task verb asks for work ("add …", "reorder …, DO NOT change …"):
 * a request, not a statement that something the agent believed or did was wrong. */
const REQUEST = /^(?:please\s+|can you\s+|could you\s+|now\s+|also\s+|and\s+)?(?:add|create|implement|write|make|update|reorder|sort|change|refactor|move|rename|build|generate|fix|remove|delete|replace|convert|extract|include|put|set up|setup|document|translate|format|rewrite|modify|edit|improve|optimi[sz]e|clean up|split|merge|show|list|explain|run|test|check|review|look at|read|find|search|open|give|tell|help|export|import|install|upload|download|deploy|commit|push|publish|release|copy|save|rerun|restart|start|revert|undo|audit|analy[sz]e|investigate|inspect|assess|evaluate|summari[sz]e|describe|provide|identify|suggest|prepare|finali[sz]e|verify|confirm|compare)\b/i;
const CONVENTION = /\b(?:always|never|we use|must)\b/i;
/** A sentence that is a convention: it opens with its cue. */
const STATED_CONVENTION = /^(?:always|never|we (?:always |never |only )?use|(?:you|we) must|(?:you|we) (?:always|never))\b/i;
/** A script fed through a heredoc, its body left out of the shown command (`python3 - <<EOF … EOF`). */
const HEREDOC_ELIDED = /<<-?\s*['"]?\w+['"]?\s*…/;
/** A sentence that tells the agent what to do (or not): an instruction, not a statement. */
const INSTRUCTION = /^(?:don'?t|do not|never|always|avoid|stop|use|prefer|keep|only)\b/i;
/** An interjection before the message proper ("no,", "NO. Listen.", "yeah,", "hang on", "wait"). */
const INTERJECTION = /^(?:(?:no+|nope|yeah|yes|yep|wait|stop|hang on|hold on|listen|ok(?:ay)?|hmm+|well|actually)\b[\s,.!:;-]*)+/i;
/** A sentence that asks for work or an answer ("can you also …", "please …", "tell me why"). */
const ASKS = /(?:^|[.!?]\s+|,\s*)(?:(?:then|also|and|now|so|therefore)\b[,\s]+)?(?:(?:can|could|would|will) you|please|kindly|tell me|show me|explain|i (?:want|need|would like|'d like) you to)\b/i;
/** A message that accepts the agent's work and goes on ("ok, now …", "great, but a small
 * update: …", "the tests now pass, now I want …") asks for the next change: a follow-up request. */
const FOLLOW_UP = /^(?:(?:ok(?:ay)?|great+|perfect|nice|cool|good|phenomenal|awesome|excellent|thanks?(?: you)?|the tests? (?:now )?pass(?:es)?)\b[\s!.,:;-]*)+(?:(?:the )?tests? (?:now )?pass(?:es)?\b[\s!.,:;-]*)?(?:(?:but|and|now|so|then)\b|(?:a|one) (?:small|last|final|little) (?:thing|update|change)|another thing|i (?:tweaked|changed|want|need|would like)|let'?s\b)/i;
/** Praise of the work ("it's just super beautiful", "looks great", "love it"): the user accepted
 * it, and what follows is the next step. */
/** "ah, that fixed it", "it works now": the agent's change worked, whatever the user adds. */
const FIXED_IT = /^(?:(?:ah|oh|ok(?:ay)?|yes|yep|great|nice|cool)\b[\s,.!]*)?(?:that|this|it|the (?:change|fix))\s+(?:(?:fixed|solved|did) it|(?:now )?works(?: now)?|worked)\b/i;
const PRAISE = /^(?:(?:it'?s|its|this is|that'?s|(?:it |this )?looks|(?:it |this )?works)\s+(?:(?:just|really|so|super|very|absolutely)\s+)*(?:beautiful|great|perfect|amazing|awesome|nice|good|excellent|fantastic|lovely|brilliant|gorgeous)|(?:i )?love (?:it|this))\b/i;
/** An opinion on what to do ("I don't think we need a Dockerfile", "I guess we should …"), not a
 * statement that something the agent believed or did was wrong ("I think X is the same as Y" is
 * one, politely put). */
const PLAN_OPINION = /\bi (?:don'?t|do not) (?:think|believe|feel)(?: that)? (?:we|you|i)\b|\bi (?:think|guess|suppose|feel)(?: that)? (?:we|you) (?:should|could|need|can|might|may|have to)\b/i;
/** Said for this task only: a plan or a stopgap, not how things are. */
const FOR_NOW = /^(?:never ?mind|forget it|scratch that)\b|\b(?:for now|for the moment|let'?s (?:try|keep|just|start|see|go)|in v1|keep v1|this time|temporar(?:y|ily)|as a first step)\b/i;
/** The next message takes it back ("never mind", "actually, let's continue using bash"). */
const WITHDRAWN = /^(?:(?:actually|oh|ok(?:ay)?|sorry)\b[\s,.!]*)?(?:never ?mind|nevermind|forget (?:it|that|about it)|scratch that|ignore (?:that|my last|what i said))\b|\blet'?s (?:continue|keep|stay|go on) (?:using|with)\b/i;
/** The user's guess at a cause ("I think it's because …", "maybe it's …"): a hypothesis to
 * check, not a statement of how things are. */
const GUESS = /\bi (?:think|guess|suspect|bet|believe)(?: that)? (?:it'?s|this is|that'?s|it is) because\b|^(?:but |so )?(?:maybe|probably|perhaps) (?:it'?s|it is|because|the)\b/i;
/** The agent's answer opens by taking the message as a request for work ("I'll help you modify
 * the code to …", "To implement the requested changes, we need to:", "To create a proof of
 * concept …"). A corrected agent says so ("You're right", "I apologize") or acts on the new fact
 * ("I'll update the shared gitconfig"). */
const TAKEN_AS_REQUEST = /^(?:(?:ok(?:ay)?|sure|certainly|alright|ah|great)[,.!]?\s+)?(?:(?:i (?:understand|see)|understood|got it)[,.!]?\s+)?(?:(?:i'?ll|i will|let me|i can)\s+help(?: you)?\b|to (?:implement|create|make|add|build) (?:the|this|these|that|a|an)\b|[^.!?:]{0,40}\bthe requested changes?\b)/i;
const ANSWER = /User has answered your questions?:\s*"([^"]+)"\s*=\s*"([^"]+)"/;
const AGREEMENT = /^(?:you'?re (?:absolutely )?(?:right|correct)|good (?:point|catch)|got it|understood|ah,?|i see|perfect|brilliant|excellent|great|sure|ok(?:ay)?)[!.,:]?\s*/i;

/** The agent's first concrete sentence after the correction: what it took the correction to mean. */
function reaction(view: SessionView, after: number, until: number): string | undefined {
  for (const e of view.events) {
    if (e.index <= after || e.index >= until) continue;
    if (e.kind !== 'assistant') continue;
    for (const raw of sentences(e.text)) {
      const s = raw.replace(/’/g, "'").replace(AGREEMENT, '').replace(AGREEMENT, '').trim();
      // a lead-in ("Current SyncState fields:") announces what follows and says nothing itself
      if (s.length < 20 || /[?:]$/.test(s) || concreteness(s) === 0) continue;
      const plain = s.replace(NARRATION, '').replace(/^[\s,:]+/, '').replace(/^(?:i (?:will|'ll|am going to|need to)|now|then|next|also|so)\b[\s,]*/i, '');
      return clip(plain.replace(/^(?:now|then)\b\s*/i, ''), 160);
    }
  }
  return undefined;
}

/** True when a prompt reads as a correction or a stated convention. */
export function isCorrection(text: string): boolean {
  return CORRECTION.test(text) || MISTAKE.test(text);
}

/** Files the agent edited and read right after the correction (edits first). */
function touched(view: SessionView, after: number, until: number): string[] {
  const edits: string[] = [];
  const reads: string[] = [];
  for (const s of view.steps) {
    if (s.call.index <= after || s.call.index >= until || s.failed || s.rejected) continue;
    const path = s.call.input.file_path ?? s.call.input.path;
    if (typeof path !== 'string') continue;
    const name = path.replace(/^.*\//, '');
    if (EDIT_TOOLS.has(s.call.name) && !edits.includes(name)) edits.push(name);
    else if (READ_TOOLS.has(s.call.name) && !reads.includes(name)) reads.push(name);
  }
  return [...edits.slice(0, 2), ...reads.filter((r) => !edits.includes(r)).slice(0, 1)];
}

/** Prose documents (design notes, plans, docs pages), as opposed to code and configuration. */
const PROSE_DOC = /\.(?:md|mdx|markdown|rst|adoc)$/i;
const FILE_ARG = /[\w./~-]+\.[A-Za-z]{1,8}\b/g;

/** The files a step works on, or undefined when it works on none that `draft` accepts (or on
 * no file at all). */
function draftFilesOf(step: Step, draft: (file: string) => boolean): string[] | undefined {
  const input = step.call.input;
  // a copied terminal's panel gives the path as the head of `args` ("docs/x.md: old => new")
  const named = [input.file_path ?? input.path ?? (typeof input.args === 'string' ? input.args.replace(/:.*$/s, '') : undefined)].filter((f): f is string => typeof f === 'string');
  const files = isEdit(step)
    ? editedFiles(step).length > 0 ? editedFiles(step) : named
    : READ_TOOLS.has(step.call.name)
      ? named
      : step.command !== undefined
        ? (step.command.match(FILE_ARG) ?? [])
        : [];
  return files.length > 0 && files.every(draft) ? files : undefined;
}

/** A correction that steers what the agent is drafting in this session: every step it led to
 * (up to the next prompt) works only on prose documents or on files the session itself had
 * already written, and so did the call the user rejected, if any. What the user wanted lands
 * in that draft (a design note, the feature being built), which the repository keeps; an item
 * would restate a detail of work that was still being settled. A correction after which the
 * agent looks at other code or configuration is about more than the draft and stays, and so
 * does a standing rule said about the draft ("always …", "next time …"). */
function steersDraft(view: SessionView, promptIndex: number, until: number): boolean {
  const before = view.steps.filter((s) => s.call.index < promptIndex);
  const own = new Set(before.filter((s) => !s.failed && !s.rejected && isEdit(s)).flatMap((s) => editedFiles(s)));
  const draft = (f: string): boolean => PROSE_DOC.test(f) || own.has(fileName(f));
  const rejected = before[before.length - 1]?.rejected ? before[before.length - 1] : undefined;
  if (rejected && !draftFilesOf(rejected, draft)) return false;
  const after = view.steps.filter((s) => s.call.index > promptIndex && s.call.index < until && (s.command !== undefined || isEdit(s) || READ_TOOLS.has(s.call.name)));
  if (after.length === 0) return rejected !== undefined;
  return after.every((s) => draftFilesOf(s, draft) !== undefined);
}

/** The sentences of a long prompt that carry the correction (cues or identifiers), in order. */
/** "You may proceed with the implementation.", "Go ahead.": leave to go on, no part of a correction. */
const GO_AHEAD = /^(?:(?:you may|you can|feel free to|please|now|then|ok(?:ay)?,?)\s+)?(?:proceed|go ahead|continue|carry on|start)\b[^.!?]{0,60}[.!]?$/i;

function correctionText(prompt: string): string {
  const plain = oneLine(stripMarkdown(prompt));
  const said = sentences(plain);
  const text = said.some((s) => GO_AHEAD.test(s)) ? said.filter((s) => !GO_AHEAD.test(s)).join(' ') : plain;
  if (text.length <= MAX_CORRECTION) return text;
  const all = sentences(oneLine(prompt)).map(oneLine).filter((s) => !GO_AHEAD.test(s));
  const cue = (s: string): boolean => CORRECTION.test(s) || MISTAKE.test(s);
  // Sentences with a correction cue first, then concrete ones while there is room; original order kept.
  const chosen = new Set<string>();
  let used = 0;
  for (const pass of [cue, (s: string): boolean => concreteness(s) > 0]) {
    for (const s of all) {
      if (chosen.has(s) || !pass(s) || used + s.length > MAX_CORRECTION) continue;
      chosen.add(s);
      used += s.length + 1;
    }
  }
  return all.filter((s) => chosen.has(s)).join(' ');
}

/** "NO. Listen. Use gpt-4o-mini.": the words that only mark disagreement say nothing the item's
 * "User correction:" does not; the correction is what follows them. */
function withoutInterjection(text: string): string {
  const rest = text.replace(INTERJECTION, '');
  return rest.length >= 12 && rest !== text ? rest.charAt(0).toUpperCase() + rest.slice(1) : text;
}

/** "You literally did the opposite!", "That's wrong.": a reproach says only that something was
 * wrong; a title says what is right, from the sentence after it. */
const REPROACH = /\b(?:opposite|wrong|not what i (?:asked|wanted|said))\b|^you (?:just |literally |completely |totally )?(?:did|broke|ignored|missed|forgot)\b/i;
function withoutReproach(text: string): string {
  const [first, ...rest] = sentences(text);
  if (first === undefined || rest.length === 0 || first.length > 60 || concreteness(first) > 0) return text;
  const at = text.indexOf(first);
  return REPROACH.test(first) && at >= 0 ? text.slice(at + first.length).replace(/^[\s.!?]+/, '') : text;
}

/** A short correction whose subject is a pronoun ("no it should be http") names nothing alone. */
const PRONOUN_LED = /^(?:(?:no+|nope|wrong)\b[\s,.!]*)?(?:it|this|that|they|these|those)(?:'s|\s)/i;
/** Narration of what the agent will do next, not a statement of how things are. */
const NARRATED = /^(?:'ll|i\b|i'|let me|let's|here|now\b|ok|okay|sure|great|done|first\b|next\b)/i;
const STATES = /\b(?:is|are|was|were|should|must|needs?|uses?|runs?|lives?|means?|requires?|expects?)\b/i;

/** The agent's reaction when it restates the correction as how things are ("for SSE we should
 * use HTTP, not WebSocket"): the statement the user's pronoun-led words stand for. */
function restatement(react: string | undefined): string | undefined {
  if (!react) return undefined;
  const s = react.replace(/^[-*•\s]+/, '').trim();
  if (s.length < 20 || s.endsWith(':') || NARRATED.test(s) || !STATES.test(s)) return undefined;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The reaction takes up a word of the correction ("http" in "no it should be http"): without
 * one, it is about something else and restates nothing. */
function echoesWord(text: string, react: string | undefined): boolean {
  if (!react) return false;
  const theirs = new Set(react.toLowerCase().match(/[a-z][\w.-]*/g) ?? []);
  return (text.toLowerCase().match(/[a-z][\w.-]*/g) ?? []).some((w) => w.length >= 3 && !ECHO_STOP.has(w) && theirs.has(w));
}
const ECHO_STOP = new Set(['the', 'and', 'not', 'but', 'should', 'would', 'could', 'this', 'that', 'there', 'here', 'its', "it's", 'always', 'never', 'need', 'try', 'use', 'just', 'with', 'from', 'for', 'are', 'was', 'works', 'work']);

/** Whether two prompts open with the same words (the first 60 characters, spacing ignored). */
function sameOpening(a: string, b: string): boolean {
  const head = (t: string): string => oneLine(t).toLowerCase().slice(0, 60);
  return head(a).length >= 40 && head(a) === head(b);
}

/** The agent conceding a point ("You're absolutely right", "I apologize", "Good catch", "Understood"). */
const CONCEDES = /\b(?:you(?:'re| are) (?:absolutely |completely |totally |quite |so )?(?:right|correct)|i apologi[sz]e|(?:my |sincere )?apologies\b|sorry\b|my (?:mistake|bad)\b|good (?:catch|point|call)\b|thanks?(?: you)? for (?:the |that |this )?(?:correction|clarification|catching|pointing)|understood\b|got it\b|i was wrong\b|i misunderstood\b|(?:that|this)(?:'s| is) (?:right|correct|a (?:good|great|fair|valid) point))/i;

/** Whether the agent's first answer to a prompt concedes it in its opening sentences: only then
 * did something the agent believed or did turn out wrong. A message it answers by setting to work
 * ("Let's do it!") or by going on with its tools was a request, whatever its words. */
function conceded(view: SessionView, after: number, until: number): boolean {
  const reply = firstReply(view, after, until);
  return reply !== undefined && sentences(reply).slice(0, 2).some((s) => CONCEDES.test(s));
}

/** Whether the agent's first answer to a prompt opens by taking it as a request for work. */
function takenAsRequest(view: SessionView, after: number, until: number): boolean {
  const reply = firstReply(view, after, until);
  return reply !== undefined && TAKEN_AS_REQUEST.test(reply.trimStart());
}

/** The agent's first answer between two events, on one line, with plain apostrophes. */
function firstReply(view: SessionView, after: number, until: number): string | undefined {
  const reply = view.events.find((e) => e.index > after && e.index < until && e.kind === 'assistant');
  return reply?.kind === 'assistant' ? oneLine(reply.text).replace(/’/g, "'") : undefined;
}

/** The agent's call the user rejected just before correcting it. */
function rejectedBefore(view: SessionView, promptIndex: number): string | undefined {
  const before = view.steps.filter((s) => s.call.index < promptIndex);
  const last = before[before.length - 1];
  if (!last?.rejected) return undefined;
  if (last.command) return `the user rejected \`${clip(last.command, 80)}\``;
  const target = last.call.input.file_path ?? last.call.input.path ?? last.call.input.args;
  const what = typeof target === 'string' ? ` of \`${clip(target.replace(/:.*$/s, '').replace(/^.*\//, ''), 60)}\`` : '';
  return `the user rejected the agent's \`${last.call.name}\`${what}`;
}

/** A line that hands over pasted material ("So here's my github email setting:", "Here is the
 * log:"): what follows is a page or an output, not the user's words. */
const PASTE_LEAD = /^\s*(?:(?:so|ok(?:ay)?|and|also),?\s+)?(?:here(?:'s| is| are)|this is|these are|below is)\b[^\n]{0,80}:\s*$/im;

/** A line a program printed, pasted in: a compiler's or interpreter's `file.py:454: Warning…`, a
 * log level's `INFO:     Uvicorn running…`, a traceback's head, an exception's own line
 * (`Error: Route "/items/[id]" used params.id. …`, `TypeError: …`). Its "must be …", "use X
 * instead" is the program's advice, not the user's. */
const PROGRAM_OUTPUT_LINE = /^\s*(?:\S+\.(?:py|js|mjs|cjs|ts|tsx|rb|go|java|rs|c|cc|cpp|h|php|ex|exs):\d+:\s|(?:INFO|WARN(?:ING)?|ERROR|DEBUG|CRITICAL|FATAL)\s*:\s|Traceback \(most recent call last\):|(?:Uncaught )?[A-Z]\w*(?:Error|Exception):\s|Error:\s)/m;

/** The message up to the line that hands over pasted material or the first line a program
 * printed (all of it when there is neither). */
function beforePaste(message: string): string {
  const at = Math.min(PASTE_LEAD.exec(message)?.index ?? Infinity, PROGRAM_OUTPUT_LINE.exec(message)?.index ?? Infinity);
  return at === Infinity ? message : message.slice(0, at);
}

/** Aider's chat-mode command before a message ("/code Use …", "/ask why …") says how to answer,
 * not what: the message is the rest. */
function messageOf(prompt: string): string {
  return prompt.replace(/^\s*\/(?:ask|code|architect|context)\s+/, '');
}

/** The agent asking the user for the task's details ("Could you please provide more
 * information? What technologies do you want …"). */
const ASKED_FOR_DETAILS = /\b(?:could you (?:please )?(?:provide|share|clarify|give|tell|specify)|please (?:provide|clarify|specify)|(?:need|require) (?:more|some|additional) (?:specific )?(?:details|information|context)|what (?:features|technolog\w*|frameworks?|languages?)\b|which (?:technolog\w*|frameworks?|languages?|database)\b)/i;
/** Words that say something the agent believed or did is wrong. */
const CONTRADICTS = /^(?:no|nope|wrong|actually)\b|\b(?:not|isn'?t|aren'?t|don'?t|do not|doesn'?t|never|instead|rather than|wrong)\b/i;

function fromPrompts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  /** The prompt each draft came from. */
  const from: number[] = [];
  // a wish about aider's own commits is the aider rule's (the model makes none)
  const aiderCommits = new Set(commitWishes(view).map((p) => p.index));
  view.prompts.forEach((p, i) => {
    if (aiderCommits.has(p.index)) return;
    const add = (d: Draft): void => {
      drafts.push(d);
      from.push(i);
    };
    const message = messageOf(p.text);
    const whole = oneLine(stripMarkdown(message));
    if (whole.length < 12 || whole.length > 1200) return;
    // the opening prompt is the task, not a correction, unless it lays down a convention in a
    // sentence of its own ("We use pnpm.", "Never push to main."): "to ensure we use the pool"
    // in a step of the task is part of the task
    // (and so does a message that only says which tool to use instead of which: "use uv instead of python")
    const laysDown = sentences(whole).some((s) => STATED_CONVENTION.test(s.replace(/^(?:[-*•]|\d+[.)])\s*/, ''))) || INSTEAD_OF.test(whole.trim());
    if (i === 0 && !laysDown) return;
    // (users often leave the question mark off, and the capital after a full stop: "… for
    // metrics. does it make sense to have it combined")
    if ((whole.endsWith('?') || OPENS_AS_QUESTION.test(whole.split(/[.!?]\s+/).at(-1) ?? '')) && !/\b(?:don'?t|can'?t|not|never)\b/i.test(whole)) return;
    // quoted text (an error message, a doc) is someone else's words: the cue must be the user's own;
    // so is what follows "here's my github email setting:" (a page, a log pasted in)
    const quotedOut = oneLine(stripMarkdown(beforePaste(message))).replace(/"[^"]*"|“[^”]*”|`[^`]*`/g, ' … ');
    // a sentence that reports a symptom ("the hotkey still isn't working", "nothing happens"),
    // doubt ("I don't know") or the user's own experience ("I have never …") says what is
    // broken or who the user is, not what is right: its negation is no cue
    const own = sentences(quotedOut).filter((x) => !SYMPTOM.test(x) && !UNSURE.test(x) && !ABOUT_ME.test(x.trim())).join(' ');
    if (!CORRECTION.test(own) && !MISTAKE.test(own)) return;
    // an answer to the agent's request for the task's details ("the backend should be in
    // javascript" after "What technologies do you want?") specifies the task: nothing the agent
    // believed was wrong, unless the answer says so
    if (!CONTRADICTS.test(own) && !MISTAKE.test(own) && ASKED_FOR_DETAILS.test(replyBefore(view, p.index) ?? '')) return;
    // …and once the interjections are gone, something must be left to say what is right: not
    // only a denial of the agent's guess ("It isn't the key combination."), nor just a pointer at
    // lines of a file it looked at ("the aliases are there, look at lines 8-18")
    const affirmed = sentences(own.replace(INTERJECTION, '')).filter((x) => !DENIAL.test(x));
    if (affirmed.join(' ').split(/\s+/).filter((w) => /\w/.test(w)).length < 2 || (affirmed.length === 1 && LINE_POINTER.test(own))) return;
    // a request for work is not a correction, even with a "do not" in it (unless it says what the agent did wrong)
    const opening = whole.replace(/^[^A-Za-z]+/, '').replace(INTERJECTION, '').replace(/^in [^,]{1,60},\s*/i, '');
    if ((REQUEST.test(opening) || ASKS.test(whole) || NEW_WORK.test(opening) || WISH.test(whole)) && !MISTAKE.test(whole)) return;
    // a correction states what is right: a question ("why do we even mock it?") only doubts
    // (users often type the next sentence in lower case: "why did i ask about toml? it's not needed")
    if (sentences(opening)[0]?.endsWith('?') || /^[^.!?]{3,}\?\s/.test(opening) || sentences(whole).some((s) => s.endsWith('?') && (CORRECTION.test(s) || MISTAKE.test(s)))) return;
    if (FOR_NOW.test(whole) || WITHDRAWN.test(whole) || FOLLOW_UP.test(whole) || PRAISE.test(opening) || FIXED_IT.test(whole)) return;
    if (!MISTAKE.test(whole) && (PLAN_OPINION.test(whole) || GUESS.test(whole))) return;
    // a correction of what the task is redirects this session's work; it says nothing lasting
    if (TASK_SCOPE.test(whole) || ROLE_PROMPT.test(whole) || PERSONA.test(whole) || (WRONG_PLACE.test(whole) && !CONVENTION.test(whole))) return;
    // the same prompt sent again (its opening the same as an earlier one's) is the task restated;
    // one sent three times or more, the first time too, is a template an automation sends after
    // each turn ("Only go ahead if you made code changes: update …"), a standing request
    if (view.prompts.slice(0, i).some((q) => sameOpening(q.text, p.text))) return;
    if (view.prompts.filter((q) => sameOpening(q.text, p.text)).length >= 3) return;
    // "Two errors show up on chrome: …": a bug report says what is broken, not what is right
    if (BUG_REPORT.test(whole.replace(INTERJECTION, '')) && !CONVENTION.test(whole)) return;
    if (PASTED_REPORT.test(message) || PASTED_LOG.test(message) || PASTED_CONSOLE.test(message) || PASTED_TERMINAL.test(message) || MAKE_IT.test(whole)) return;
    if (WITHDRAWN.test(oneLine(stripMarkdown(view.prompts[i + 1]?.text ?? '')).replace(/^[^A-Za-z]+/, ''))) return;
    // "something you did broke it" says something went wrong, not what is right
    if (!CORRECTION.test(whole) && concreteness(whole) === 0) return;
    const said = correctionText(message);
    const text = withoutInterjection(said);
    if (text.length < 12) return;
    const next = view.prompts[i + 1]?.index ?? Number.MAX_SAFE_INTEGER;
    // a standing rule ("always …", "next time …") reaches past the draft it was said about
    if (!CONVENTION.test(whole) && !MISTAKE.test(whole) && (steersDraft(view, p.index, next) || takenAsRequest(view, p.index, next))) return;
    // (a convention laid down in a sentence of its own needs no concession: nothing was wrong yet)
    if (!laysDown && !conceded(view, p.index, next)) return;
    const files = touched(view, p.index, next);
    const react = reaction(view, p.index, next);
    const rejected = rejectedBefore(view, p.index);
    const context: string[] = [];
    if (rejected) context.push(rejected);
    if (files.length > 0 && !files.some((f) => text.includes(f))) context.push(`applies to ${files.map((f) => `\`${f}\``).join(', ')}`);
    // the first command that acted on the correction; a look around (`find`, `cat`), a patch
    // applied through the shell, or a script whose body the command line leaves out (`python3 -
    // <<EOF … EOF`), says nothing about what the correction was about
    const ran = view.steps.find((s) => s.call.index > p.index && s.call.index < next && s.command !== undefined && !s.failed && !s.rejected && !/^apply_?patch$/.test(s.program) && !HEREDOC_ELIDED.test(s.command) && s.families.some((f) => f && !isReadOnly(f)));
    // …and only a command that carries something the correction names (its quoted text, one of
    // its longer words): another is the agent's next step, whatever it was (a reviewer found "the
    // agent then ran sqlite3" under "read only the lines I gave you")
    if (ran && carriesCorrection(ran.command!, text)) context.push(`the agent then ran ${code(clip(ran.command!, 120))}`);
    // (the agent's next sentence is its reading of the correction, not the user's knowledge:
    // reviewers found it quoting a reading the user then overruled, or a path it never checked)
    // A correction of something the agent did (or tried: a rejected call) is a pitfall; a
    // procedure or an instruction ("don't add complications for …", "use gpt-4o-mini") is a
    // pattern, a way of working; a statement of how things are is a fact.
    const category = MISTAKE.test(whole) || rejected ? 'pitfall' : PROCEDURE.test(text) || INSTRUCTION.test(text.replace(INTERJECTION, '')) ? 'pattern' : 'fact';
    // "no it should be http" names nothing alone: when the agent restated it as a statement,
    // that statement leads and the user's words follow as the correction it came from
    const pronounLed = text.length <= 80 && PRONOUN_LED.test(text);
    const stated = pronounLed && echoesWord(text, react) ? restatement(react) : undefined;
    // without the agent's restatement and without an identifier of its own, "no it always works
    // from here" names nothing a later session could act on
    if (pronounLed && stated === undefined && concreteness(text) === 0) return;
    // "use uv instead of python": a convention of the repo, said as one (and when the user said it
    // before in other words, "give me commands with uv run, not python, from now on", that too)
    const instead = INSTEAD_OF.exec(text.trim());
    if (instead && !stated) {
      const [, tool, not] = instead as unknown as [string, string, string];
      const before = view.prompts.slice(0, i).map((q) => oneLine(stripMarkdown(messageOf(q.text)))).find((q) => new RegExp(`\\b${escapeRegExp(tool)}\\b`, 'i').test(q) && new RegExp(`\\b${escapeRegExp(not)}\\b`, 'i').test(q));
      // the form the user gave before ("give me commands with uv run"): a runner's subcommand is
      // how the tool is used here (a reviewer found "use uv" too vague to act on)
      const form = before === undefined ? undefined : new RegExp(`\\b${escapeRegExp(tool)} (run|exec|x)\\b`, 'i').exec(before)?.[1];
      const use = form ? `${tool} ${form.toLowerCase()}` : tool;
      add({
        // (how things are done here: a convention, a fact of the repository, not a procedure)
        category: 'fact',
        title: clip(`Use ${use} instead of ${not} here`, 70),
        text: `Use ${code(use)} instead of ${code(not)} in this repo, as the user told the agent ("${clip(text, 80)}")${before ? `, having said it before ("${clip(before, 120)}")` : ''}.`,
        confidence: CONFIDENCE.stated,
        event: p.index,
        tags: ['user-correction', tool, not],
        quotes: [clip(text, 200)],
        rule: 'user-correction',
        score: 6 + (before ? 1 : 0),
      });
      return;
    }
    add({
      category,
      title: clip(stated?.replace(/\.$/, '') ?? withoutReproach(text), 70),
      text: stated
        ? `${sentence(clip(stated, 240))} (the user corrected the agent: "${clip(said, 80)}")`
        : `User correction: ${sentence(clip(text, MAX_CORRECTION))}${context.length > 0 ? ` (${clip(context.join('; '), 380 - Math.min(MAX_CORRECTION, text.length))})` : ''}`,
      confidence: CONFIDENCE.stated,
      event: p.index,
      tags: ['user-correction', ...files],
      quotes: [clip(text, 200)],
      rule: 'user-correction',
      score: 5 + Math.min(2, concreteness(text)) + (CONVENTION.test(text) ? 1 : 0) + (files.length > 0 || react ? 1 : 0),
    });
  });
  // a correction the user revised in the very next message, on the same thing, gave way to it
  return drafts.filter((d, k) => !drafts.some((later, j) => from[j] === from[k]! + 1 && sharedWord(d.quotes?.[0] ?? '', later.quotes?.[0] ?? '')));
}

/** Whether two messages share a word of five or more letters that says something. */
function sharedWord(a: string, b: string): boolean {
  const words = new Set((b.toLowerCase().match(/[\p{L}\d_-]{5,}/gu) ?? []).filter((w) => !COMMON_WORDS.has(w)));
  return (a.toLowerCase().match(/[\p{L}\d_-]{5,}/gu) ?? []).some((w) => words.has(w));
}

/** Whether a command holds a quoted phrase of the correction or one of its words of five or
 * more letters (`Automobil` in `sqlite3 … LIKE 'Automobil v podnikan%'`). */
function carriesCorrection(command: string, correction: string): boolean {
  const cmd = command.toLowerCase();
  const quoted = [...correction.matchAll(/"([^"]{3,})"|“([^”]{3,})”|`([^`]{3,})`/g)].map((m) => (m[1] ?? m[2] ?? m[3]!).toLowerCase());
  if (quoted.some((q) => cmd.includes(q))) return true;
  const words = correction.toLowerCase().match(/[\p{L}\d_-]{5,}/gu) ?? [];
  return words.some((w) => !COMMON_WORDS.has(w) && cmd.includes(w));
}
const COMMON_WORDS = new Set(['should', 'would', 'could', 'about', 'there', 'their', 'which', 'these', 'those', 'where', 'while', 'because', 'always', 'never', 'instead', 'please', 'again', 'first', 'other', 'every', 'before', 'after', 'still', 'using']);

/** The questions of an AskUserQuestion-style call, each with the option labels it offered. */
function askedQuestions(input: Record<string, unknown>): { question: string; options: string[] }[] {
  const questions = Array.isArray(input.questions) ? (input.questions as unknown[]) : [];
  return questions.map((q) => {
    const rec = q !== null && typeof q === 'object' ? (q as Record<string, unknown>) : {};
    const options = Array.isArray(rec.options) ? (rec.options as unknown[]) : [];
    return {
      question: typeof rec.question === 'string' ? rec.question : '',
      options: options.map((o) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>).label : o)).filter((l): l is string => typeof l === 'string'),
    };
  });
}

/** `"question"="answer"` pairs of the tool's reply; a question may be named by its place ("0"). */
const ANSWER_PAIR = /"([^"]+)"\s*=\s*"([^"]+)"/g;
const norm = (t: string): string => t.trim().toLowerCase();

/** Answers the user gave to the agent's multiple-choice questions. An answer that picks options
 * the agent offered settles a choice of this task (the theme of one deck, a layout); only an
 * answer of the user's own, none of the options, says that the agent's framing of the choice,
 * what it assumed, was wrong. */
function fromAnswers(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  for (const s of view.steps) {
    // the literal every answer starts with: a cheap search before the regex scans the output
    const m = s.output.includes('User has answered your question') ? ANSWER.exec(s.output) : null;
    if (!m) continue;
    const asked = askedQuestions(s.call.input);
    const end = s.output.indexOf('\n', m.index);
    for (const pair of s.output.slice(m.index, end === -1 ? undefined : end).matchAll(ANSWER_PAIR)) {
      const key = pair[1]!;
      const given = pair[2]!;
      const q = asked.find((x) => x.question === key) ?? (/^\d+$/.test(key) ? asked[Number(key)] : undefined);
      if (q === undefined || q.options.length === 0 || q.question === '') continue;
      // a question that names nothing of the code (no file, flag or identifier: "What are your
      // leaders doing now to see progress?") asks about the user's situation: the answer tells
      // this conversation who they are, it corrects nothing the agent did or believed
      if (concreteness(q.question) === 0 && q.options.every((o) => concreteness(o) === 0)) continue;
      const offered = new Set(q.options.map(norm));
      // (several options picked come joined: "A, B")
      if (offered.has(norm(given)) || given.split(/,\s*/).every((a) => offered.has(norm(a)))) continue;
      const question = clip(q.question, 200);
      const answer = clip(given, 160);
      drafts.push({
        category: 'pitfall',
        title: clip(answer, 70),
        text: `Asked "${question}" with the options ${q.options.map((o) => `"${clip(o, 60)}"`).join(' / ')}, the user answered instead: "${answer}".`,
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['user-correction', s.call.name],
        quotes: [answer],
        rule: 'user-correction',
        score: 8,
      });
    }
  }
  return drafts;
}

export function userCorrectionDrafts(view: SessionView): Draft[] {
  return [...fromPrompts(view), ...fromAnswers(view)];
}

export const userCorrections: RuleExtractor = ruleExtractor('user-correction', userCorrectionDrafts);
