/**
 * How the project's tests run: the test command the agent ran and what its output says about
 * the set-up (the runner's config file, test paths and plugins, the test files it collected).
 * The next session then runs the same command and knows where the tests live. One item per
 * session, from the run that shows the most.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import { escapeRegExp } from '../../../core/regexp.js';
import type { SessionView } from '../view.js';

const TEST_FAMILY = /\b(?:test|tests|spec|specs|pytest|jest|vitest|rspec|mocha|phpunit|ava|tap)\b/;
/** Runner header lines that describe the set-up (pytest: `configfile: pytest.ini`, `testpaths: specs`, `plugins: …`). */
const SETUP = /^(configfile|inifile|testpaths|plugins|config|setup file|test environment|environment)\s*:\s*(.+)$/i;
/** The runner's set-up labels in words (pytest's `configfile: pyproject.toml` is where its settings are). */
const SETUP_WORDS: Record<string, string> = { configfile: 'settings in', inifile: 'settings in', config: 'settings in', testpaths: 'test folders', 'setup file': 'setup file', environment: 'environment', 'test environment': 'environment' };

/** Task runners that print each recipe line before they run it. */
const ECHOING_RUNNER = /^(?:just|make|task|mise run)\s/;
/** A test runner's command line. */
const TEST_COMMAND = /^(?:(?:uv|poetry|pipenv|pdm|hatch) run\s+)?(?:python3? -m )?(?:pytest|jest|vitest|mocha|rspec|phpunit|go test|cargo test|mix test|dotnet test|npx (?:jest|vitest)|bun test|deno test)\b/;

/** The test command a task runner echoed as its output's first line. */
function echoedRecipe(main: string, output: string): string | undefined {
  if (!ECHOING_RUNNER.test(main)) return undefined;
  // (Claude Code's Bash opens a failed run's output with its `Exit code 1` line)
  // (the echo is the output's head: a long test log is not split whole for it)
  const first = output.slice(0, 2000).split('\n').find((l) => l.trim() !== '' && !/^Exit code \d+$/.test(l.trim()))?.trim();
  return first !== undefined && TEST_COMMAND.test(first) ? first : undefined;
}

const TEST_FILE = /(?:^|[\s(])((?:[\w@.-]+\/)*(?:[\w@.-]*(?:_test|_spec|\.test|\.spec|Test|Spec)\.\w{1,5}|(?:test|tests|spec|specs|__tests__)\/(?:[\w@.-]+\/)*[\w@.-]+\.\w{1,5}))\b/;
/** Every TEST_FILE match contains one of these: a cheap search before the regex tries each position. */
function mayNameTestFile(line: string): boolean {
  return line.includes('test') || line.includes('spec') || line.includes('Test') || line.includes('Spec');
}
const VENDORED = /(?:^|\/)(?:deps|node_modules|vendor|_build|site-packages)\//;
const BOX = /^[\s│┃|╭╰─✔✓✗×»]+|[\s│┃|]+$/g;

/** A Makefile the session read: the text of the first step output that holds `target:`. */
function makefileWith(view: SessionView, target: string): string | undefined {
  const rule = new RegExp(`^${escapeRegExp(target)}\\s*:`, 'm');
  return view.steps.find((s) => s.output.includes(`${target}:`) && rule.test(s.output))?.output;
}

/** The commands of `target`'s rule in a Makefile's text (its tab-indented lines; the `@echo`
 * lines that only announce it left out), joined with `; `, or the targets it only depends on. */
function recipeIn(makefile: string, target: string): { recipe?: string; needs: string[] } {
  const m = new RegExp(`^${escapeRegExp(target)}\\s*:(?!=)([^\\n]*)\\n((?:\\t[^\\n]*\\n?)*)`, 'm').exec(makefile);
  if (!m) return { needs: [] };
  const lines = m[2]!.split('\n').map((l) => l.trim().replace(/^[@-]+/, '')).filter((l) => l !== '' && !/^echo\b/.test(l));
  return { ...(lines.length > 0 ? { recipe: clip(lines.join('; '), 100) } : {}), needs: m[1]!.trim().split(/\s+/).filter((t) => /^[\w.-]+$/.test(t)) };
}

/** What the make target the session ran does, and what the Makefile's other test targets do
 * (`make test-frontend` runs …, `make test` runs both): the next session picks the one it needs. */
function makeTargets(view: SessionView, target: string): string | undefined {
  const makefile = makefileWith(view, target);
  if (makefile === undefined) return undefined;
  const own = recipeIn(makefile, target).recipe;
  if (own === undefined) return undefined;
  const others = [...makefile.matchAll(/^([\w.-]*test[\w.-]*)\s*:(?!=)/gm)].map((m) => m[1]!).filter((t, i, all) => t !== target && all.indexOf(t) === i);
  const told = others.flatMap((t) => {
    const { recipe, needs } = recipeIn(makefile, t);
    if (recipe !== undefined) return [`${code(`make ${t}`)} runs ${code(recipe)}`];
    return needs.length > 0 ? [`${code(`make ${t}`)} runs ${needs.map((n) => code(`make ${n}`)).join(' and ')}`] : [];
  });
  return [`it runs ${code(own)}`, ...told.slice(0, 2)].join('; ');
}

export function testRunnerDrafts(view: SessionView): Draft[] {
  let best: { draft: Draft; info: number } | undefined;
  for (const s of view.steps) {
    if (!s.command || s.rejected) continue;
    const main = s.main;
    const fam = s.family;
    if (!TEST_FAMILY.test(fam)) continue;
    const setup = new Map<string, string>();
    const files: string[] = [];
    for (const raw of s.output.split('\n')) {
      // A set-up line holds ':' and a test file one of mayNameTestFile's words; stripping the box
      // characters and spaces at the ends cannot add either, so a line with neither is skipped.
      const colon = raw.includes(':');
      if (!colon && !mayNameTestFile(raw)) continue;
      const line = raw.replace(BOX, '').trim();
      const m = colon ? SETUP.exec(line) : null;
      if (m && !/[~/]home\/|\/Users\//.test(m[2]!) && !setup.has(m[1]!.toLowerCase())) setup.set(m[1]!.toLowerCase(), clip(m[2]!, 80));
      const f = mayNameTestFile(line) ? TEST_FILE.exec(line)?.[1]?.replace(/:+$/, '') : undefined;
      if (f && !VENDORED.test(f) && !f.startsWith('/') && !files.includes(f) && files.length < 3) files.push(f);
    }
    // the plugins pytest lists are what this environment has installed (anyio comes with httpx),
    // not how the project runs its tests: alone they are no set-up
    if (setup.size === 1 && setup.has('plugins')) setup.clear();
    // a make target stands for its recipe: the Makefile the session read says what it runs;
    // else the command a task runner echoes before it runs it (`just test` prints `pytest tests/ -v`)
    const target = /^make\s+([\w.-]+)$/.exec(main)?.[1];
    const echoed = echoedRecipe(main, s.output);
    const recipe = (target !== undefined ? makeTargets(view, target) : undefined) ?? (echoed !== undefined ? `it runs ${code(clip(echoed, 80))}` : undefined);
    const info = setup.size * 2 + files.length + (recipe ? 2 : 0);
    // the test files alone are the ones this session ran (reviewers: "only applies to this
    // session"); the runner's own set-up lines are what tells the next session how tests run
    if ((setup.size === 0 && !recipe) || info < 2 || (best && best.info >= info)) continue;
    const parts: string[] = [];
    if (recipe) parts.push(recipe);
    if (setup.size > 0) parts.push([...setup].map(([k, v]) => `${SETUP_WORDS[k] ?? k} ${code(v)}`).join(', '));
    // (with the recipe said, the files one run collected add nothing a reviewer keeps)
    if (files.length > 0 && !recipe) parts.push(`test files such as ${files.map((f) => code(f)).join(', ')}`);
    best = {
      info,
      draft: {
        category: 'fact',
        title: `Tests run with ${clip(main, 50)}`,
        text: `The tests run with ${code(clip(main, 80))}: ${parts.join('; ')}.`,
        confidence: CONFIDENCE.verified,
        event: s.outputEvent,
        tags: ['test', ...fam.split(' ')],
        quotes: [clip(main, 80)],
        rule: 'test-runner',
        score: 5.5,
      },
    };
  }
  return best ? [best.draft] : [];
}

export const testRunner: RuleExtractor = ruleExtractor('test-runner', testRunnerDrafts);
