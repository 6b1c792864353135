/**
 * Planted secrets: obviously fake (each body starts with FAKE or fake and comes from a seeded
 * generator) but shaped exactly like the real formats, so the detector cannot tell them apart.
 */
import { prng } from '../prng.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '-_';


let counter = 1;

/** `n` characters from `alphabet`, starting with `lead`, guaranteed to hold a digit and both cases. */
export function fake(n: number, alphabet = ALNUM, lead = 'FAKE0'): string {
  const rnd = prng(counter++ * 7919);
  let s = lead;
  while (s.length < n) s += alphabet[Math.floor(rnd() * alphabet.length)];
  s = s.slice(0, n);
  if (alphabet === HEX) return s;
  // Force the character mix every real token has.
  const chars = s.split('');
  chars[n - 1] = '7';
  chars[n - 2] = 'q';
  chars[n - 3] = 'Z';
  return chars.join('');
}

export const fakeHex = (n: number): string => fake(n, HEX, 'fa4e');
export const fakeB64 = (n: number): string => fake(n, B64);
export const fakeUrlSafe = (n: number): string => fake(n, URLSAFE);

/** A fake PEM body: 64-char base64 lines. */
export function fakePem(lines: number, nl = '\n'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(fakeB64(64));
  return out.join(nl);
}

export const SECRETS = {
  awsAccess: 'AKIA' + fake(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567').toUpperCase(),
  awsSecret: fakeB64(40),
  ghp: 'ghp_' + fake(36),
  gho: 'gho_' + fake(36),
  ghs: 'ghs_' + fake(36),
  ghu: 'ghu_' + fake(36),
  githubPat: 'github_pat_11' + fake(20) + '_' + fake(59),
  glpat: 'glpat-' + fake(20),
  openai: 'sk-' + fake(48),
  openaiProj: 'sk-proj-' + fakeUrlSafe(156),
  anthropic: 'sk-ant-api03-' + fakeUrlSafe(93) + 'AA',
  slackBot: 'xoxb-123456789012-1234567890123-' + fake(24),
  slackUser: 'xoxp-123456789012-123456789012-123456789012-' + fakeHex(32),
  stripeLive: 'sk_live_' + fake(99),
  stripeRestricted: 'rk_live_' + fake(24),
  stripeTest: 'sk_test_' + fake(24),
  google: 'AIza' + fake(35),
  googleOauth: 'GOCSPX-' + fake(28),
  npm: 'npm_' + fake(36),
  pypi: 'pypi-AgEIcHlwaS5vcmc' + fakeUrlSafe(70),
  hf: 'hf_' + fake(34),
  sendgrid: 'SG.' + fakeUrlSafe(22) + '.' + fakeUrlSafe(43),
  groq: 'gsk_' + fake(52),
  xai: 'xai-' + fake(80),
  replicate: 'r8_' + fake(37),
  perplexity: 'pplx-' + fake(48),
  digitalocean: 'dop_v1_' + fakeHex(64),
  shopify: 'shpat_' + fakeHex(32),
  slackWebhook: 'https://hooks.slack.com/services/T0FAKE123/B0FAKE456/' + fake(24),
  discordWebhook: 'https://discord.com/api/webhooks/123456789012345678/' + fakeUrlSafe(68),
  bearer: fakeUrlSafe(40),
  basic: 'ZmFrZXVzZXI6RmFrZVBhc3N3MHJkIQ==',
  jwt:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
    'eyJzdWIiOiJGQUtFMTIzNDUiLCJuYW1lIjoiRmFrZSBVc2VyIiwiaWF0IjoxNTE2MjM5MDIyfQ.' +
    fakeUrlSafe(43),
  urlPassword: 'FakePw' + fake(10),
  connPassword: 'Fk7!' + fake(12),
  cliPassword: 'Fake' + fake(12) + '!9',
  envPassword: 'Fake' + fake(14) + '#2',
  highEntropy: fake(40),
} as const;
