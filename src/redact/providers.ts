/**
 * Provider tokens recognised by their documented prefix and alphabet. Each body must also look
 * random (digits and letters, enough distinct characters) so that `ghp_xxxxxxxx…` in docs and
 * identifiers such as `hf_hub_download` are not reported.
 */
import { KIND_INFO, type SecretKind } from './kinds.js';
import { TOKEN_END, type RegexRule } from './rule.js';
import { charClasses, HEX_RE, isTokenBody } from './values.js';

const P = 3;

function prefixed(
  kind: SecretKind,
  triggers: readonly string[],
  body: string,
  opts: { end?: string; accept?: (secret: string) => boolean; flags?: string } = {},
): RegexRule {
  // Anchored: every match begins with one of the triggers (see rule.ts).
  const re = new RegExp(`(${body})${opts.end ?? TOKEN_END}`, `y${opts.flags ?? ''}d`);
  return {
    kind,
    priority: P,
    triggers,
    anchored: true,
    re,
    group: 1,
    accept: opts.accept ?? ((s) => isTokenBody(bodyAfterPrefix(s))),
    describe: (s) => `${KIND_INFO[kind].label} (${visiblePrefix(s)}…)`,
  };
}

/** The part after the last prefix separator of `ghp_…`, `sk-proj-…`, `xoxb-…`. */
function bodyAfterPrefix(s: string): string {
  const m = /^(?:[a-z0-9]+[_-]){1,3}/i.exec(s);
  const cut = m && m[0].length <= 12 ? m[0].length : 0;
  return s.slice(cut);
}

/** Only the fixed, public prefix is ever shown. */
function visiblePrefix(s: string): string {
  const m = /^(?:[A-Za-z0-9]{1,6}[_-]){1,2}|^AIza|^AKIA|^ASIA|^ABIA|^ACCA|^SG\.|^eyJ/.exec(s);
  return m ? m[0] : s.slice(0, 2);
}

const END_URLSAFE = '(?![A-Za-z0-9_-])';

export const PROVIDER_RULES: readonly RegexRule[] = [
  // OpenAI's and Groq's organization ids, which their errors quote (`in organization
  // org_01k7vx54w9eb5atmw2qb63b204 …`): an account's, not a credential
  prefixed('account-id', ['org-', 'org_'], '(?:org-[A-Za-z0-9]{24}|org_[0-9a-z]{26})', { accept: (s) => isTokenBody(s.slice(4)) }),
  {
    // Anthropic's organization id, a UUID its rate-limit errors quote (`(org: 8918fc39-…, model:
    // …)`) and its response headers name (`anthropic-organization-id: …`)
    kind: 'account-id',
    priority: P,
    pretest: /\borg(?:anization)?(?:[-_ ]id)?["']?\s*[:=]/i,
    re: /\b(?:org|organization[-_ ]id)["']?\s*[:=]\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gid,
    group: 1,
  },
  prefixed('aws-access-key', ['AKIA', 'ASIA', 'ABIA', 'ACCA'], '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}', {
    // AWS's documentation keys end in EXAMPLE (AKIAIOSFODNN7EXAMPLE).
    accept: (s) => !s.endsWith('EXAMPLE') && isTokenBody(s.slice(4), false),
  }),
  {
    // Only in an assignment: 40 base64 characters alone are far too common to report.
    kind: 'aws-secret-key',
    priority: P,
    pretest: /secret.?access.?key/i,
    re: /(?<![A-Za-z0-9])(?:aws[_.-]?)?secret[_.-]?access[_.-]?key(?:\\{0,3}["'])?[ \t]*(?:=|:|=>)[ \t]*(?:\\{0,3}["'])?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gid,
    group: 1,
    // AWS's documentation secret contains EXAMPLE (wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY).
    accept: (s) => !s.includes('EXAMPLE') && isTokenBody(s),
    describe: () => KIND_INFO['aws-secret-key'].label,
  },
  prefixed('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    '(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,240})'),
  prefixed('gitlab-token', ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glft-', 'glimt-', 'gloas-', 'glsoat-'],
    'gl(?:pat|ptt|dt|rt|cbt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,200}', { end: END_URLSAFE }),
  prefixed('anthropic-key', ['sk-ant-'], 'sk-ant-[A-Za-z0-9_-]{32,300}', {
    end: END_URLSAFE,
    accept: (s) => isTokenBody(s.replace(/^sk-ant-(?:[a-z]+\d{2}-)?/, '')),
  }),
  prefixed('openai-key', ['sk-'], 'sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,300}', {
    end: END_URLSAFE,
    accept: (s) => {
      const body = s.replace(/^sk-(?:proj-|svcacct-|admin-|None-)?/, '');
      if (!isTokenBody(body)) return false;
      const c = charClasses(body);
      // Mixed-case keys (OpenAI) or long lowercase hex keys (OpenAI-compatible providers).
      return (c.upper > 0 && c.lower > 0) || (HEX_RE.test(body) && body.length >= 32);
    },
  }),
  prefixed('slack-token', ['xox', 'xapp-'], '(?:xox[abposre]-(?:[0-9]+-)?[A-Za-z0-9-]{10,250}|xapp-[0-9]-[A-Z0-9]+-[0-9]+-[A-Za-z0-9]+)', {
    end: '(?![A-Za-z0-9-])',
    accept: (s) => isTokenBody(s.slice(5).replace(/-/g, '')),
  }),
  prefixed('stripe-key', ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
    '(?:[sr]k_(?:live|test)_[A-Za-z0-9]{20,247}|whsec_[A-Za-z0-9]{24,})'),
  prefixed('google-api-key', ['AIza'], 'AIza[0-9A-Za-z_-]{35}', {
    end: END_URLSAFE,
    accept: (s) => isTokenBody(s.slice(4), false),
  }),
  prefixed('google-oauth-secret', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{28}', { end: END_URLSAFE }),
  prefixed('npm-token', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  prefixed('pypi-token', ['pypi-AgE'], 'pypi-AgE[A-Za-z0-9_-]{50,}', {
    end: END_URLSAFE,
    accept: (s) => isTokenBody(s.slice(8)),
  }),
  prefixed('huggingface-token', ['hf_'], 'hf_[A-Za-z0-9]{34,}'),
  prefixed('sendgrid-key', ['SG.'], 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', {
    end: END_URLSAFE,
    accept: (s) => isTokenBody(s.slice(3)),
  }),
  prefixed('groq-key', ['gsk_'], 'gsk_[A-Za-z0-9]{48,}'),
  prefixed('xai-key', ['xai-'], 'xai-[A-Za-z0-9]{70,}'),
  prefixed('replicate-token', ['r8_'], 'r8_[A-Za-z0-9]{37}'),
  prefixed('perplexity-key', ['pplx-'], 'pplx-[A-Za-z0-9]{40,}'),
  prefixed('digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], 'do[opr]_v1_[a-f0-9]{64}', {
    accept: (s) => isTokenBody(s.slice(7)),
  }),
  prefixed('shopify-token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'),
  {
    kind: 'webhook-url',
    priority: P,
    triggers: ['hooks.slack.com', 'discord'],
    re: /https:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/]{20,200}|(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]{5,30}\/[A-Za-z0-9_-]{30,120})/gd,
    accept: (s) => isTokenBody(s.slice(s.lastIndexOf('/') + 1), false),
    describe: (s) => `${KIND_INFO['webhook-url'].label} (${s.includes('slack') ? 'Slack' : 'Discord'})`,
  },
];
