/**
 * pip installs a package's scripts into a folder that is not on the machine's PATH (`WARNING: The
 * script virtualenv is installed in '/home/dev/.local/bin' which is not on PATH`): the program is
 * then not found by its name, in this session and the next, until that folder is on PATH. Said of
 * the machine, once, where the session then ran the program another way (`python -m <name>`, its
 * full path) or found it missing by name: pip's warning alone does not show it mattered, nor
 * does a module run in the same command as the install.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import type { SessionView, Step } from '../view.js';
import { escapeRegExp } from '../../../core/regexp.js';

const NOT_ON_PATH = /WARNING: The scripts? (.+?) (?:is|are) installed in '([^']+)' which is not on PATH/;

/** How the session ran the script without its folder on PATH: as a module, or by its full path;
 * or that its bare name was not found. */
function ranAnotherWay(view: SessionView, from: Step, script: string, folder: string): { how: 'module' | 'path' | 'missing'; step: Step } | undefined {
  const name = escapeRegExp(script);
  const module = new RegExp(`(?:^|\\s)-m\\s+${name}(?:\\s|$)`, 'i');
  const missing = new RegExp(`(?:^|[\\s:])${name}: (?:command )?not found|'${name}' is not recognized`, 'i');
  for (const s of view.steps.slice(from.pos)) {
    if (s.command === undefined || s.rejected) continue;
    if (module.test(s.command)) return { how: 'module', step: s };
    if (s.command.includes(folder)) return { how: 'path', step: s };
    if (s.pos > from.pos && missing.test(s.output)) return { how: 'missing', step: s };
  }
  return undefined;
}

export function scriptNotOnPathDrafts(view: SessionView): Draft[] {
  const warned = view.steps.find((s) => s.command !== undefined && NOT_ON_PATH.test(s.output));
  if (warned === undefined) return [];
  const [message, scripts, folder] = NOT_ON_PATH.exec(warned.output)!;
  // (`SuperClaude.exe` runs as the module `SuperClaude`; of several scripts, the first)
  const script = scripts!.split(/,\s*|\s+and\s+/)[0]!.replace(/\.exe$/i, '');
  const way = ranAnotherWay(view, warned, script, folder!);
  // a module run in the very command of the install, before anyone read the warning, cost
  // nothing and shows nothing learnt (a reviewer found that item noise)
  if (way === undefined || (way.how === 'module' && way.step.pos === warned.pos)) return [];
  // (the interpreter the session ran it with, `python3` where it had no `python`)
  const python = new RegExp(`(?:^|\\s)(python[\\d.]*)\\s+-m\\s+${escapeRegExp(script)}\\b`, 'i').exec(way.step.command ?? '')?.[1] ?? 'python';
  const module = `${python} -m ${script}`;
  // (what the session ran in the same command as the install it did not yet know it needed)
  const after = way.step.pos > warned.pos;
  const how =
    way.how === 'module'
      ? `Run ${code(script)} as ${code(module)}${after ? ', as this session then did' : ''} (a package that runs as a module), or by its full path`
      : way.how === 'path'
        ? `Run ${code(script)} by its full path${after ? ', as this session then did' : ''}, or as ${code(module)} where the package runs as a module`
        : `Here ${code(script)} was then not found by name: run it by its full path, or as ${code(module)} where the package runs as a module`;
  // pip's own reason for the folder: no write access to the system's site-packages
  const userInstall = /Defaulting to user installation because normal site-packages is not writeable/.test(warned.output);
  return [
    {
      category: 'tool-quirk',
      scope: 'global',
      title: "pip installs scripts into a folder not on this machine's PATH",
      text: `${userInstall ? "pip installs for the user (site-packages is not writeable here), " : 'pip installs scripts '}into ${code(clip(folder!, 80))}, which is not on this machine's PATH (${code(oneLine(message!).replace(`'${folder!}'`, "'…'").replace(/^WARNING: /, ''))}). ${how}, or add that folder to PATH.`,
      confidence: CONFIDENCE.stated,
      event: warned.outputEvent,
      tags: ['pip', 'path', script.toLowerCase()],
      quotes: [clip(oneLine(message!), 200)],
      rule: 'script-not-on-path',
      signature: 'pip scripts folder not on PATH',
      score: 5,
    },
  ];
}

export const scriptNotOnPath: RuleExtractor = ruleExtractor('script-not-on-path', scriptNotOnPathDrafts);
