/**
 * Terminal scroll-back of a Gemini CLI session pasted into a text/markdown file (an edge case:
 * not an on-disk format, no structure beyond what the TUI draws):
 *   `> prompt`                      the user's input (wrapped lines indented)
 *   `✦ text`                        a model reply (wrapped lines indented)
 *   ` ╭──╮ │ ✔  Name args │ … ╰──╯`   a tool panel: status mark, tool, arguments, then output
 *   `ℹ …`, `✕ …`                    CLI info / error lines; `⠙ Subject (esc to cancel…)` spinner
 *   `cwd (branch*)  …  model (N% context left)`   the footer
 * Status marks: ✔/✓ success, x/✗/✕ error, - cancelled, o ? ⊷ still pending (no result).
 * Shell panels show the command's output but not its exit code, so a shell call failed when its
 * output reads like a failure. Text after a closing `---` is a note by whoever pasted the copy.
 */
import path from 'node:path';
import { pushText, pushToolCall, pushToolResult } from '../events.js';
import { readLines } from '../lines.js';
import type { AssistantEvent, Session, SessionEvent, SourceRef } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import { baseName, errorMessage, fileSize, makeSession, ModelList, opensAsJson, pathHash, warnLineQuality, Warnings } from './common.js';
import { looksFailed, statedExitCode } from './outcome.js';

interface MdLine {
  text: string;
  lineNo: number;
  offset: number;
}

const USER = /^> ?(.*)$/;
const ASSISTANT = /^✦ (.*)$/;
const BOX_TOP = /^ ?╭─/;
const BOX_SIDE = /^ ?│/;
const BOX_BOTTOM = /^ ?╰─/;
const INFO = /^ℹ ?(.*)$/;
const ERROR_LINE = /^✕ ?(.*)$/;
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (.*?)(?: \(esc to cancel[^)]*\))?\s*$/;
const FOOTER = /\(\d+% context left\)/;
const TOOL_TITLE = /^ ?│ ([✔✓x✗✕?o⊷-]) {1,2}(\S+)(?: (.*?))?\s*(?:│\s*)?$/;
const SUCCESS = new Set(['✔', '✓']);
const FAILURE = new Set(['x', '✗', '✕']);

function detect(head: string): number {
  if (opensAsJson(head)) return 0;
  // the literal checks are cheap and rule out almost every head before the multiline regexes
  const reply = head.includes('✦ ') && /^✦ /m.test(head);
  const panel = head.includes('│ ') && /^ ?│ [✔✓x✗✕-] {1,2}\S/m.test(head);
  if (reply && panel) return 0.7;
  if ((reply || panel) && head.includes('> ') && /^> \S/m.test(head)) return 0.5;
  return 0;
}

function trimBlank(lines: MdLine[]): MdLine[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.text.trim() === '') a++;
  while (b > a && lines[b - 1]!.text.trim() === '') b--;
  return lines.slice(a, b);
}

/** Wrapped continuation lines are indented by two spaces under the first. */
function blockText(first: string, rest: MdLine[]): string {
  const lines = [first, ...trimBlank(rest).map((l) => l.text.replace(/^ {2}/, '').trimEnd())];
  return lines.join('\n').trim();
}

/** Content of a panel line without its side borders. */
function panelContent(line: string): string {
  let s = line.replace(/^ ?│/, '');
  s = s.replace(/│\s*$/, '');
  return s.trimEnd();
}

type BlockKind = 'user' | 'assistant' | 'info' | 'note';

class ConsoleBuilder {
  readonly events: SessionEvent[] = [];
  readonly models = new ModelList();
  private block: { kind: BlockKind; first: MdLine; text: string; rest: MdLine[] } | undefined;
  private box: MdLine[] | undefined;
  private unmodelled: AssistantEvent[] = [];
  private model: string | undefined;
  cwd: string | undefined;
  branch: string | undefined;

  constructor(
    readonly file: string,
    readonly warnings: Warnings,
  ) {}

  private src(l: MdLine): SourceRef {
    return { file: this.file, line: l.lineNo, offset: l.offset };
  }

  get inNote(): boolean {
    return this.block?.kind === 'note';
  }

  flush(): void {
    const b = this.block;
    this.block = undefined;
    if (b) {
      const text = b.kind === 'note' ? trimBlank(b.rest).map((l) => l.text).join('\n') : blockText(b.text, b.rest);
      if (b.kind === 'user') pushText(this.events, 'user', text, { source: this.src(b.first) });
      else if (b.kind === 'note' || b.kind === 'info') {
        pushText(this.events, 'system', text, { source: this.src(b.first), injected: true });
      }
      else {
        const before = this.events.length;
        pushText(this.events, 'assistant', text, { source: this.src(b.first) }, this.model);
        for (const e of this.events.slice(before)) if (e.kind === 'assistant' && !e.model) this.unmodelled.push(e);
      }
    }
    if (this.box) this.closeBox(undefined);
  }

  start(kind: BlockKind, first: MdLine, text: string): void {
    this.flush();
    this.block = { kind, first, text, rest: [] };
  }

  /** A line that belongs to whatever is open (continuation, blank, panel body). */
  add(l: MdLine): boolean {
    if (this.box) {
      this.box.push(l);
      return true;
    }
    if (this.block) {
      this.block.rest.push(l);
      return true;
    }
    return false;
  }

  openBox(l: MdLine): void {
    this.flush();
    this.box = [l];
  }

  closeBox(bottom: MdLine | undefined): void {
    const lines = this.box ?? [];
    this.box = undefined;
    if (!bottom) this.warnings.add(lines[0]?.lineNo, 'tool panel is not closed (copy cut short?)');
    const body = lines.slice(1).filter((l) => BOX_SIDE.test(l.text));
    const title = body[0] ? TOOL_TITLE.exec(body[0].text) : null;
    if (!title) {
      // a panel that is not a tool call (dialog, notice): keep its text
      const text = body.map((l) => panelContent(l.text).trim()).join('\n').trim();
      if (lines[0]) pushText(this.events, 'system', text, { source: this.src(lines[0]), injected: true });
      return;
    }
    const mark = title[1]!;
    const name = title[2]!;
    const args = (title[3] ?? '').trim();
    const input: Record<string, unknown> = args ? { args } : {};
    let command: string | undefined;
    if (name === 'Shell') {
      // "Shell <command> (<description>)"; a long title is cut with "…" by the TUI
      const m = /^(.*?) \(([^()]*)\)$/.exec(args);
      command = m ? m[1]! : args;
      input.command = command;
      if (m) input.description = m[2];
    }
    const at = body[0]!;
    pushToolCall(this.events, { source: this.src(at), name, input, ...(command !== undefined ? { command } : {}) });
    const done = SUCCESS.has(mark) || FAILURE.has(mark) || mark === '-';
    if (!done) return;
    const outLines = trimBlank(body.slice(1).map((l) => ({ ...l, text: panelContent(l.text).replace(/^ {4}/, '') })));
    const output = outLines.map((l) => l.text).join('\n');
    const exitCode = statedExitCode(output);
    const rejected = mark === '-';
    const isError = FAILURE.has(mark) || rejected || (name === 'Shell' && looksFailed(output, command));
    pushToolResult(this.events, {
      source: this.src(outLines[0] ?? at),
      name,
      output,
      isError,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(rejected ? { rejected: true } : {}),
    });
  }

  /** Model switch notice ("switching from X to Y"): earlier replies were X's. */
  switchModel(from: string, to: string): void {
    this.flush();
    this.models.add(from);
    this.models.add(to);
    for (const e of this.unmodelled) e.model = from;
    this.unmodelled = [];
    this.model = to;
  }

  finish(footerModel: string | undefined): void {
    this.flush();
    this.models.add(footerModel);
    const last = footerModel ?? this.model;
    if (last) for (const e of this.unmodelled) e.model = last;
  }
}

async function read(file: string, options?: ReadOptions): Promise<Session[]> {
  const warnings = new Warnings(file, options);
  const b = new ConsoleBuilder(file, warnings);
  let lineCount = 0;
  let started = false;
  let footerModel: string | undefined;
  let readFailed = false;
  try {
    const lineOptions = options?.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {};
    for await (const raw of readLines(file, lineOptions)) {
      lineCount++;
      warnLineQuality(warnings, raw, 'cut');
      const l: MdLine = { text: raw.text, lineNo: raw.lineNo, offset: raw.offset };
      const t = raw.text;
      if (b.inNote) {
        b.add(l);
        continue;
      }
      let m: RegExpExecArray | null;
      if (BOX_TOP.test(t)) {
        b.openBox(l);
        started = true;
      } else if (BOX_BOTTOM.test(t) && b.add(l)) {
        b.closeBox(l);
      } else if (BOX_SIDE.test(t) && b.add(l)) {
        // panel body
      } else if ((m = ASSISTANT.exec(t))) {
        b.start('assistant', l, m[1]!);
        started = true;
      } else if ((m = USER.exec(t)) && t.startsWith('>')) {
        b.start('user', l, m[1]!);
        started = true;
      } else if ((m = INFO.exec(t)) || (m = ERROR_LINE.exec(t))) {
        const sw = /switching from (\S+?) to (\S+?)(?:[.,]?\s|[.,]?$)/.exec(m[1]!);
        if (sw) b.switchModel(sw[1]!, sw[2]!);
        b.start('info', l, m[1]!);
      } else if ((m = SPINNER.exec(t))) {
        b.flush();
        pushText(b.events, 'reasoning', m[1]!.trim(), { source: { file, line: l.lineNo, offset: l.offset } });
      } else if (FOOTER.test(t)) {
        b.flush();
        const f = /^\s*(\S+)(?:\s+\(([^)]+?)\*?\))?/.exec(t);
        if (f) {
          b.cwd = f[1];
          if (f[2]) b.branch = f[2];
        }
        footerModel = /(\S+) \(\d+% context left\)/.exec(t)?.[1];
      } else if (/^Using \d+ \S+ files?\b/.test(t)) {
        b.flush();
      } else if (started && /^---\s*$/.test(t)) {
        b.start('note', l, '');
      } else if (!b.add(l) && started && t.trim() !== '') {
        warnings.add(l.lineNo, 'line outside any prompt, reply or tool panel; skipped');
      }
    }
  } catch (err) {
    readFailed = true;
    warnings.add(undefined, `cannot read file: ${errorMessage(err)}`);
  }
  b.finish(footerModel);
  if (lineCount === 0) {
    if (!readFailed) warnings.add(undefined, 'file is empty');
    return [];
  }
  const cwd = b.cwd;
  return [
    makeSession({
      id: `${baseName(file)}-${pathHash(file, 8)}`,
      format: 'console-md',
      agent: 'gemini-cli',
      file,
      bytes: await fileSize(file),
      events: b.events,
      warnings: warnings.list,
      models: b.models.names,
      cwd,
      repo: cwd ? path.posix.basename(cwd.replace(/\\/g, '/').replace(/\/+$/, '')) || undefined : undefined,
      branch: b.branch,
    }),
  ];
}

export const consoleMdReader: SessionReader & DetectBound = { format: 'console-md', detect, read, maxScore: 0.7 };
