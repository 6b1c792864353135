/**
 * Aider checks only the environment for a model's settings and warns `OLLAMA_API_BASE: Not set`
 * at launch; the provider may find them elsewhere (its default address, a credentials file). When
 * the model then answered in that same launch, the warning was noise on this setup, and the next
 * session should not chase it: the item says so, with the model and the variables aider named.
 * When the launch's requests failed, there is no item: for want of credentials (`AuthenticationError`,
 * 401) aider already said twice what was missing; any other failure may or may not be the warning's.
 */
import { CONFIDENCE } from '../../candidate.js';
import { launchOutcome } from '../../aider-launches.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code, errorSignature } from '../text.js';
import type { SessionView } from '../view.js';

/** `Warning: ollama/llama3.2 expects these environment variables` (older aider: `Warning for …:`). */
const EXPECTS = /^Warning(?::| for) (\S+?):? expects these environment variables/m;
/** `- OLLAMA_API_BASE: Not set` */
const NOT_SET = /^-\s*([A-Z][A-Z0-9_]+): Not set\s*$/gm;

/** Where a provider finds its settings when aider's variables are unset (litellm's own default),
 * which says when the warning is safe to ignore. */
const DEFAULTS = new Map<string, string>([
  ['ollama', 'unset, litellm uses Ollama at http://localhost:11434, so the warning is noise while Ollama listens there (for another address, set it before starting aider)'],
  // (aider checks only the environment; litellm's Bedrock client asks boto3, which looks further)
  ['bedrock', "litellm's Bedrock client can find AWS credentials through boto3 (a `~/.aws` profile, SSO), which aider's check does not see (the transcript does not show which it used)"],
]);


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
    // (litellm's `ollama_chat/` is the same Ollama through its chat endpoint: one provider)
    const provider = model.split('/')[0]!.replace(/_chat$/, '');
    // a launch whose requests then failed: if for want of credentials, aider said twice what was
    // missing (the warning, then the provider's 401), and reviewers found nothing to add to it
    if (outcome === 'failed') return [];
    return [
      {
        category: 'tool-quirk',
        scope: 'agent',
        title: `aider's warning "${vars[0]}: Not set" is harmless here`,
        text:
          `At launch aider warns that ${code(model)} expects ${named} (${code(`${vars[0]}: Not set`)}), yet on this setup the model answered in the same launch: ` +
          `${DEFAULTS.get(provider) ?? `the provider found its settings without ${vars.length > 1 ? 'them' : 'it'}, and the warning can be ignored here`}. \`--no-show-model-warnings\` hides it, and all other model warnings.`,
        confidence: CONFIDENCE.verified,
        event: e.index,
        tags: ['aider', 'environment', provider],
        quotes: [`${vars[0]}: Not set`],
        rule: 'aider-env-warning',
        signature: errorSignature(`aider env not set ${provider} ${vars.join(' ')}`),
        score: 6,
      },
    ];
  }
  return [];
}

export const aiderEnvWarnings: RuleExtractor = ruleExtractor('aider-env-warning', aiderEnvWarningDrafts);
