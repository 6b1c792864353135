/**
 * A local model server reached through aider's `lm_studio/` prefix needs its address in the
 * environment: without `LM_STUDIO_API_BASE` litellm sends the request to OpenAI's API with its
 * placeholder key, and aider reports `Lm_studioException - Incorrect API key provided:
 * fake-api-key` with a link to OpenAI's key page, which points away from the cause. Told of aider
 * once, with aider's documented settings (LM Studio's default address and a dummy key) and
 * whether a later launch with the same model got answers.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import type { SessionView } from '../view.js';

/** litellm's LM Studio client with no key and no base: OpenAI's answer to its placeholder key. */
const PLACEHOLDER_KEY = /Lm_studioException - Incorrect API key provided: fake-api-key/;

export function aiderLocalServerDrafts(view: SessionView): Draft[] {
  if (view.session.format !== 'aider') return [];
  const refused = view.session.events.find((e) => e.kind === 'system' && PLACEHOLDER_KEY.test(e.text));
  if (refused === undefined || refused.kind !== 'system') return [];
  const launches = view.session.aiderLaunches;
  const model = launches?.all[launches.at]?.model;
  // a later launch with the same model that got answers: the setting was then found
  const later = launches ? launches.all.slice(launches.at + 1).some((l) => l.model === model && l.outcome === 'answered') : false;
  const shown = model && model.length <= 40 ? `as ${code(`aider --model ${model}`)}` : `with an ${code('lm_studio/')} model`;
  return [
    {
      category: 'pitfall',
      scope: 'agent',
      title: 'aider with an lm_studio/ model needs LM_STUDIO_API_BASE, else it calls OpenAI',
      text:
        `Launched ${shown} and no ${code('LM_STUDIO_API_BASE')}, litellm sent the first message to OpenAI with its placeholder key (${code('Incorrect API key provided: fake-api-key')}). ` +
        `Set ${code('LM_STUDIO_API_BASE=http://localhost:1234/v1')} (LM Studio's default) and a dummy ${code('LM_STUDIO_API_KEY')} before starting aider (aider's documented setup)${later ? '; a later launch with the same model got answers' : ''}.`,
      confidence: CONFIDENCE.verified,
      event: refused.index,
      tags: ['aider', 'lm-studio', 'environment'],
      quotes: ['Lm_studioException - Incorrect API key provided: fake-api-key'],
      rule: 'aider-local-server',
      signature: 'aider lm_studio base unset',
      score: 6,
    },
  ];
}

export const aiderLocalServer: RuleExtractor = ruleExtractor('aider-local-server', aiderLocalServerDrafts);
