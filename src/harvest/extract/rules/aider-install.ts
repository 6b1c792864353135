/**
 * Aider runs in a Python of its own install (Homebrew's formula, uv's or pipx's tool), and two of
 * its notices meet that: its offer at launch to upgrade itself (`Newer aider version v0.86.2 is
 * available.` then `Run pip install?`) runs pip inside it, which an install a package manager owns
 * refuses, so aider starts at the old version; and a provider's module its model needs (`No
 * module named 'boto3'` for Bedrock) has to go into it, where the `pip install` aider's message
 * names reaches another Python. Said of the install method, which every later launch on that
 * machine meets again, with that installer's own command.
 */
import { CONFIDENCE } from '../../candidate.js';
import type { Draft } from '../build.js';
import { clip, code } from '../text.js';
import { AIDER_VERSION } from './aider-notice-lines.js';

const NEWER = /^Newer aider version (v\d+(?:\.\d+)+) is available\.?\s*$/;
const PIP_RUN = /\s-m pip install\b.*\baider-chat\b/;
const ACCEPTED = /^Run pip install\? .*:\s*(?:y|yes)?\s*$/i;
/** pip's own failure lines: `error: uninstall-no-record-file`, `ERROR: Could not install …`, `× Cannot uninstall …`. */
const PIP_ERROR = /^(?:error:|ERROR:|×\s)/;
/** pip's hint naming the package manager that owns the install. */
const OWNER_HINT = /^hint: The package was installed by (\w+)\b/;

/** Each package manager's own upgrade, and how the install's Python path shows it. */
/** Each package manager's own upgrade, how the install's Python path shows it, and how a module
 * goes into that Python (aider's docs; none known for Homebrew's). */
const INSTALLERS: { name: string; label: string; path: RegExp; upgrade: string; addModule?: (m: string) => string }[] = [
  { name: 'brew', label: 'Homebrew', path: /\/Cellar\/aider\//, upgrade: 'brew upgrade aider' },
  { name: 'uv', label: 'uv', path: /\/uv\/tools\/aider-chat\//, upgrade: 'uv tool upgrade aider-chat', addModule: (m) => `uv tool run --from aider-chat pip install ${m}` },
  { name: 'pipx', label: 'pipx', path: /\/pipx\/venvs\/aider-chat\//, upgrade: 'pipx upgrade aider-chat', addModule: (m) => `pipx inject aider-chat ${m}` },
];

export function selfUpgradeDraft(lines: { line: string; event: number }[]): Draft | undefined {
  for (let i = 0; i < lines.length; i++) {
    const newer = NEWER.exec(lines[i]!.line)?.[1];
    if (newer === undefined) continue;
    const pip = lines.slice(i + 1, i + 3).find((l) => PIP_RUN.test(l.line));
    const yes = lines.slice(i + 1, i + 4).findIndex((l) => ACCEPTED.test(l.line));
    if (!pip || yes < 0) continue;
    // pip's output runs to the launch banner (`Aider v0.86.1`) or the end of the launch
    const from = i + 1 + yes + 1;
    const end = lines.findIndex((l, j) => j >= from && AIDER_VERSION.test(l.line));
    const output = lines.slice(from, end < 0 ? lines.length : end);
    const error = output.find((l) => PIP_ERROR.test(l.line));
    // (pip that installed anyway says so; a banner still at the new version means it worked)
    if (!error || output.some((l) => /^Successfully installed\b/.test(l.line))) continue;
    const started = end < 0 ? undefined : AIDER_VERSION.exec(lines[end]!.line)?.[1];
    if (started === newer) continue;
    const hinted = output.map((l) => OWNER_HINT.exec(l.line)?.[1]).find((v) => v !== undefined);
    const installer = INSTALLERS.find((m) => m.name === hinted?.toLowerCase() || (hinted === undefined && m.path.test(pip.line)));
    // (without a package manager named, pip's failure could be anything of this machine's)
    if (!installer) continue;
    const cause = output.find((l) => /Cannot uninstall\b/.test(l.line)) ?? error;
    const said = clip(cause.line.replace(/^×\s*/, ''), 100);
    const hint = output.map((l) => OWNER_HINT.exec(l.line)?.[0]).find((v) => v !== undefined);
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `aider installed with ${installer.label} cannot upgrade itself with pip`,
      // (short enough to keep the advice: a long item is cut at its end)
      text:
        `Aider's offer at launch to upgrade itself (${code(`Newer aider version ${newer} is available.`)}, ${code('Run pip install?')}) runs pip in the Python of its ${installer.label} install, which ${installer.label} owns: pip fails (${code(said)}${hint ? `, ${code(hint)}` : ''})` +
        `${started !== undefined ? ` and aider starts at the old version (${code(`Aider ${started}`)})` : ''}. Upgrade with ${code(installer.upgrade)} and answer no to the offer.`,
      confidence: CONFIDENCE.verified,
      event: cause.event,
      tags: ['aider', 'upgrade', 'pip', installer.name],
      quotes: [said],
      rule: 'aider-notice',
      signature: `aider self-upgrade with pip fails under ${installer.name}`,
      score: 5,
    };
  }
  return undefined;
}

/** litellm's provider folders, by the names users know them. */
const PROVIDERS: Readonly<Record<string, string>> = { bedrock: 'Bedrock', vertex_ai: 'Vertex AI', sagemaker: 'SageMaker', gemini: 'Gemini' };

const NO_MODULE = /^ModuleNotFoundError: No module named '([\w.-]+)'/;
const NEED_PIP = /^You need to: pip install ([\w.-]+)\s*$/;

/** A module aider's model needs, missing from aider's own Python (its traceback runs through the
 * install's site-packages, aider says `You need to: pip install boto3`): the item names the way
 * into that Python for the installer its paths show. */
export function ownModuleDraft(lines: { line: string; event: number }[]): Draft | undefined {
  for (let i = 0; i < lines.length; i++) {
    const module = NO_MODULE.exec(lines[i]!.line)?.[1];
    if (module === undefined) continue;
    const near = lines.slice(Math.max(0, i - 30), i + 3);
    if (!near.some((l) => NEED_PIP.exec(l.line)?.[1] === module)) continue;
    const installer = INSTALLERS.find((m) => m.addModule !== undefined && near.some((l) => /^File "/.test(l.line) && m.path.test(l.line)));
    if (!installer) continue;
    const add = installer.addModule!(module);
    // the provider whose client needs it, where the traceback names one (`litellm/llms/bedrock/…`)
    const provider = near.map((l) => /\/litellm\/llms\/(\w+)\//.exec(l.line)?.[1]).find((p) => p !== undefined);
    const whose = provider ? `its ${PROVIDERS[provider] ?? provider} model's requests` : 'its model requests';
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `aider installed with ${installer.label} needs ${module} in its own environment`,
      text:
        `Aider installed with ${installer.label} runs in a Python of its own: ${whose} failed with ${code(`No module named '${module}'`)}, and the ${code(`pip install ${module}`)} aider's message names reaches another Python. ` +
        `Aider's documentation installs it into aider's environment with ${code(add)}.`,
      confidence: CONFIDENCE.verified,
      event: lines[i]!.event,
      tags: ['aider', module, installer.name],
      quotes: [`No module named '${module}'`],
      rule: 'aider-notice',
      signature: `aider own environment lacks ${module} under ${installer.name}`,
      score: 5,
    };
  }
  return undefined;
}
