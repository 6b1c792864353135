/**
 * Codex "code mode" (Codex CLI and Desktop from about 0.147): the model calls one custom tool,
 * `exec`, whose input is a JavaScript snippet that calls the real tools
 * (`await tools.exec_command({cmd: "…", workdir: "…"})`, `await tools.apply_patch(patch)`), and
 * whose output is a list of text parts opening with the script's own envelope ("Script
 * completed / Wall time 0.4 seconds / Output:"). Read as it is, every command of such a session
 * is an opaque `exec` call with an empty result. These pure helpers recover the tool call the
 * script made and the output the command printed.
 */
type Json = Record<string, unknown>;

export interface CodeModeCall {
  name: 'exec_command' | 'apply_patch';
  input: Json;
}

/** A double-quoted JavaScript string literal written the way JSON writes strings. */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const EXEC_CMD = new RegExp(String.raw`tools\.exec_command\(\s*\{[^]*?\bcmd\s*:\s*(${STRING})`);
const WORKDIR = new RegExp(String.raw`\bworkdir"?\s*:\s*(${STRING})`);
/** The sandbox escape a call asks for ("require_escalated"), as the plain tool call carries it. */
const SANDBOX = new RegExp(String.raw`\bsandbox_permissions"?\s*:\s*(${STRING})`);
const PATCH_ARG = new RegExp(String.raw`tools\.apply_patch\(\s*(?:(${STRING})|([A-Za-z_$][\w$]*))`);

function literal(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined; // a quote or escape JSON does not know (a template string): not ours to guess
  }
}

/**
 * The first real tool call in a code-mode script: a shell command (its `cmd`, and `workdir` and
 * `sandbox_permissions` when given) or a patch (inline or through a `const patch = "…"` declared in the script).
 * Undefined when the script calls neither, or builds its arguments in a way not read here.
 */
export function codeModeCall(script: string): CodeModeCall | undefined {
  const exec = script.includes('tools.exec_command') ? EXEC_CMD.exec(script) : null;
  const patch = script.includes('tools.apply_patch') ? PATCH_ARG.exec(script) : null;
  // the call that comes first in the script is the one its output belongs to first
  if (exec && (!patch || exec.index < patch.index)) {
    const cmd = literal(exec[1]);
    if (cmd === undefined) return undefined;
    const rest = script.slice(exec.index);
    const input: Json = { cmd };
    const workdir = literal(WORKDIR.exec(rest)?.[1]);
    if (workdir !== undefined) input.workdir = workdir;
    const sandbox = literal(SANDBOX.exec(rest)?.[1]);
    if (sandbox !== undefined) input.sandbox_permissions = sandbox;
    return { name: 'exec_command', input };
  }
  if (patch) {
    const text = patch[1] !== undefined ? literal(patch[1]) : literal(new RegExp(String.raw`\b(?:const|let|var)\s+${patch[2]!.replace(/\$/g, '\\$')}\s*=\s*(${STRING})`).exec(script)?.[1]);
    return text === undefined ? undefined : { name: 'apply_patch', input: { input: text } };
  }
  return undefined;
}

/** The script's envelope: "Script completed\nWall time 0.4 seconds\nOutput:\n". */
const ENVELOPE = /^Script (completed|[a-z]+)\b[^\n]*\n(?:Wall time [^\n]*\n)?(?:Output:\n)?/;

/**
 * The text of a code-mode `exec` output (a list of `{type, text}` parts, or a string) without
 * the script's envelope; `scriptFailed` when the envelope says the script itself did not
 * complete. Undefined for an output of another shape.
 */
export function codeModeOutput(output: unknown): { text: string; scriptFailed: boolean } | undefined {
  let raw: string;
  if (typeof output === 'string') raw = output;
  else if (Array.isArray(output)) {
    raw = '';
    for (const part of output) if (part !== null && typeof part === 'object' && typeof (part as Json).text === 'string') raw += (part as Json).text as string;
  } else return undefined;
  const m = ENVELOPE.exec(raw);
  if (!m) return { text: raw, scriptFailed: false };
  return { text: raw.slice(m[0].length), scriptFailed: m[1] !== 'completed' };
}
