/**
 * Aider checks only the environment for a model's settings and warns `OLLAMA_API_BASE: Not set`
 * at launch; the provider may find them elsewhere (its default address, a credentials file). When
 * the model then answered in that same launch, the warning was noise on this setup, and the next
 * session should not chase it: the item says so, with the model and the variables aider named.
 * When the launch's requests failed for want of credentials (`AuthenticationError`, 401), the
 * warning was the cause: the variable must be set in the shell before aider starts. Any other
 * failure says nothing here (the warning may or may not be the cause).
 */
import { CONFIDENCE } from '../../candidate.js';
import { launchOutcome } from '../../aider-launches.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, errorSignature } from '../text.js';
import type { SessionView } from '../view.js';

/** `Warning: ollama/llama3.2 expects these environment variables` (older aider: `Warning for …:`). */
const EXPECTS = /^Warning(?::| for) (\S+?):? expects these environment variables/m;
/** `- OLLAMA_API_BASE: Not set` */
const NOT_SET = /^-\s*([A-Z][A-Z0-9_]+): Not set\s*$/gm;

/** Where a provider finds its settings when aider's variables are unset (litellm's own default),
 * which says when the warning is safe to ignore. */
const DEFAULTS = new Map<string, string>([
  ['ollama', 'with it unset litellm uses Ollama at http://localhost:11434, so the warning is noise while Ollama listens there; for another address set it in the shell before starting aider'],
  // (aider checks only the environment; litellm's Bedrock client asks boto3, which looks further)
  ['bedrock', "litellm's Bedrock client can find AWS credentials through boto3 (a `~/.aws` profile, SSO), which aider's check does not see"],
]);

/** A model request refused for want of credentials. */
const NO_CREDENTIALS = /^litellm\.AuthenticationError\b.*|^litellm\.\w+Error\b.*\b(?:401|No auth credentials|api key (?:is )?(?:missing|not (?:set|found|provided)))\b.*/im;

export function aiderEnvWarningDrafts(view: SessionView): Draft[] {
  if (view.session.format !== 'aider') return [];
  const outcome = launchOutcome(view.session);
  if (outcome === 'idle') return [];
  for (const e of view.session.events) {
    if (e.kind !== 'system') continue;
    const model = EXPECTS.exec(e.text)?.[1];
    if (model === undefined) continue;
    const vars = [...e.text.matchAll(NOT_SET)].map((m) => m[1]!);
    if (vars.length === 0) continue;
    const named = vars.map(code).join(', ');
    if (outcome === 'failed') {
      for (const x of view.session.events) {
        const refusal = x.kind === 'system' ? NO_CREDENTIALS.exec(x.text) : null;
        if (refusal) return [missingVariableDraft(model, vars, refusal[0], x.index)];
      }
      return [];
    }
    return [
      {
        category: 'tool-quirk',
        scope: 'agent',
        title: `aider's warning "${vars[0]}: Not set" is harmless here`,
        text:
          `At launch aider warns that ${code(model)} expects ${named} (${code(`${vars[0]}: Not set`)}), yet on this setup the model answered in the same launch: ` +
          `${DEFAULTS.get(model.split('/')[0]!) ?? `the provider found its settings without ${vars.length > 1 ? 'them' : 'it'}, and the warning can be ignored here`}. \`--no-show-model-warnings\` hides it.`,
        confidence: CONFIDENCE.verified,
        event: e.index,
        tags: ['aider', 'environment', model.split('/')[0]!],
        quotes: [`${vars[0]}: Not set`],
        rule: 'aider-env-warning',
        signature: errorSignature(`aider env not set ${model.split('/')[0]} ${vars.join(' ')}`),
        score: 6,
      },
    ];
  }
  return [];
}

/** The launch failed for want of the variables aider named: set them before starting aider. */
function missingVariableDraft(model: string, vars: string[], refusal: string, event: number): Draft {
  // the provider's own words, not its wrapping (`{"error":{"message":"No auth credentials found"…`)
  const said = /"message"\s*:\s*"([^"]{3,120})"/.exec(refusal)?.[1] ?? refusal.replace(/^litellm\.\w+:\s*/, '');
  return {
    category: 'pitfall',
    scope: 'agent',
    title: `aider with ${clip(model.split('/')[0]!, 20)} models needs ${clip(vars[0]!, 30)} set`,
    text: `At launch aider warned that ${code(model)} expects ${vars.map(code).join(', ')} (${code(`${vars[0]}: Not set`)}) and started anyway; its requests then failed (${code(clip(said, 80))}). Export ${vars.length > 1 ? 'them' : 'it'} in the shell before starting aider.`,
    confidence: CONFIDENCE.verified,
    event,
    tags: ['aider', 'environment', model.split('/')[0]!],
    quotes: [`${vars[0]}: Not set`, clip(said, 120)],
    rule: 'aider-env-warning',
    signature: errorSignature(`aider env needed ${model.split('/')[0]} ${vars.join(' ')}`),
    score: 7,
  };
}

export const aiderEnvWarnings: RuleExtractor = ruleExtractor('aider-env-warning', aiderEnvWarningDrafts);
