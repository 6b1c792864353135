/**
 * What the detector can find. Kinds are stable string ids: `compound check` prints them, tests
 * assert them, and `redact` writes them into placeholders (`[REDACTED:<kind>]`).
 */

export const SECRET_KINDS = [
  // Provider tokens with a recognisable prefix.
  'aws-access-key',
  'aws-secret-key',
  'github-token',
  'gitlab-token',
  'openai-key',
  'anthropic-key',
  'slack-token',
  'stripe-key',
  'google-api-key',
  'google-oauth-secret',
  'npm-token',
  'pypi-token',
  'huggingface-token',
  'sendgrid-key',
  'groq-key',
  'xai-key',
  'replicate-token',
  'perplexity-key',
  'digitalocean-token',
  'shopify-token',
  'webhook-url',
  'twilio-credential',
  'google-service-account-key',
  // Secrets recognised by their surroundings.
  'bearer-header',
  'jwt',
  'private-key-block',
  'url-password',
  'connection-string-password',
  'cli-credential',
  'secret-assignment',
  'high-entropy-assignment',
  'stated-password',
  'payment-card',
  // Personal data: not secret, but it must not leave a transcript either.
  'email',
  'home-path',
  'user-name',
  'phone-number',
  'person-name',
  'host-name',
  'ip-address',
  'account-id',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/** `secret`: a credential, blocks `compound check`. `personal`: identifies a person. */
export type FindingCategory = 'secret' | 'personal';

export interface SecretFinding {
  kind: SecretKind;
  category: FindingCategory;
  /** 1-based line of `start` (lines end at "\n"). */
  line: number;
  /** 1-based column of `start`, in UTF-16 code units like every JS string index. */
  column: number;
  /** Offsets into the scanned text, `end` exclusive. */
  start: number;
  end: number;
  /** What was found, in a few words; never contains the secret itself. */
  description: string;
}

export interface KindInfo {
  category: FindingCategory;
  /** Short noun phrase used in descriptions: "GitHub token". */
  label: string;
  /** Why it matters, for `compound check` output. */
  why: string;
  /** What to do, for `compound check` output. */
  fix: string;
}

const ROTATE = 'remove it from the file and rotate the credential; it may already be in git history';
const PROVIDER_WHY = 'a live credential gives anyone who reads the repository access to the account';

function provider(label: string): KindInfo {
  return { category: 'secret', label, why: PROVIDER_WHY, fix: ROTATE };
}

export const KIND_INFO: Readonly<Record<SecretKind, KindInfo>> = {
  'aws-access-key': provider('AWS access key id'),
  'aws-secret-key': provider('AWS secret access key'),
  'github-token': provider('GitHub token'),
  'gitlab-token': provider('GitLab token'),
  'openai-key': provider('OpenAI-style API key (sk-)'),
  'anthropic-key': provider('Anthropic API key'),
  'slack-token': provider('Slack token'),
  'stripe-key': provider('Stripe secret key'),
  'google-api-key': provider('Google API key'),
  'google-oauth-secret': provider('Google OAuth client secret'),
  'npm-token': provider('npm access token'),
  'pypi-token': provider('PyPI upload token'),
  'huggingface-token': provider('Hugging Face token'),
  'sendgrid-key': provider('SendGrid API key'),
  'groq-key': provider('Groq API key'),
  'xai-key': provider('xAI API key'),
  'replicate-token': provider('Replicate API token'),
  'perplexity-key': provider('Perplexity API key'),
  'digitalocean-token': provider('DigitalOcean token'),
  'shopify-token': provider('Shopify access token'),
  'webhook-url': provider('Slack/Discord webhook URL'),
  'twilio-credential': provider('Twilio SID or auth token'),
  'google-service-account-key': provider('Google service-account key id'),
  'stated-password': {
    category: 'secret',
    label: 'password stated in text',
    why: 'a password written out in a message is as good as the credential itself',
    fix: 'remove it; ' + ROTATE,
  },
  'payment-card': {
    category: 'secret',
    label: 'payment card number',
    why: 'a card number (it passes the Luhn check) can be used for payments and identifies its holder',
    fix: 'remove it or use a documented test number with a note',
  },
  'bearer-header': {
    category: 'secret',
    label: 'Authorization header credential',
    why: 'the header value authenticates requests as its owner',
    fix: 'replace the value with a placeholder such as $TOKEN; ' + ROTATE,
  },
  jwt: {
    category: 'secret',
    label: 'JSON Web Token',
    why: 'a JWT is a bearer credential until it expires, and its payload may hold personal data',
    fix: 'replace it with a placeholder such as <jwt>',
  },
  'private-key-block': {
    category: 'secret',
    label: 'PEM private key block',
    why: 'a private key lets anyone impersonate its owner',
    fix: 'remove the whole block and replace the key pair',
  },
  'url-password': {
    category: 'secret',
    label: 'password in a URL',
    why: 'user:password@host URLs carry the password in clear text',
    fix: 'write the URL as scheme://user:${PASSWORD}@host; ' + ROTATE,
  },
  'connection-string-password': {
    category: 'secret',
    label: 'password in a connection string',
    why: 'the connection string carries the password in clear text',
    fix: 'write Password=${DB_PASSWORD} or drop the field; ' + ROTATE,
  },
  'cli-credential': {
    category: 'secret',
    label: 'credential passed on a command line',
    why: 'command lines end up in shell history, logs and transcripts',
    fix: 'pass it through an environment variable or a credentials file; ' + ROTATE,
  },
  'secret-assignment': {
    category: 'secret',
    label: 'value assigned to a secret-named key',
    why: 'the key name says the value is a credential',
    fix: 'replace the value with a reference such as ${NAME} or <your-value>; ' + ROTATE,
  },
  'high-entropy-assignment': {
    category: 'secret',
    label: 'random-looking value assigned to a key',
    why: 'long random values in configuration are usually keys or tokens',
    fix:
      'replace the value with a reference such as ${NAME}; if it is not secret, ' +
      'add "compound:allow-secret" to the line',
  },
  email: {
    category: 'personal',
    label: 'e-mail address',
    why: 'an e-mail address identifies a person',
    fix: 'remove it or use an address at example.com',
  },
  'home-path': {
    category: 'personal',
    label: 'home directory path with a user name',
    why: 'the path reveals a personal account name',
    fix: 'write the path relative to the repository or as ~/...',
  },
  'user-name': {
    category: 'personal',
    label: 'user name',
    why: 'the account name identifies a person',
    fix: 'remove the name',
  },
  'phone-number': {
    category: 'personal',
    label: 'phone number',
    why: 'a phone number identifies a person',
    fix: 'remove it',
  },
  'person-name': {
    category: 'personal',
    label: "person's name",
    why: 'a name in a commit, trailer or issue identifies a person',
    fix: 'remove the name',
  },
  'host-name': {
    category: 'personal',
    label: 'host name',
    why: "a personal machine's name often carries its owner's name",
    fix: 'remove the host name',
  },
  'ip-address': {
    category: 'personal',
    label: 'public IP address',
    why: "a public address names one server or one person's connection",
    fix: 'write the machine\'s role instead ("the staging server")',
  },
  'account-id': {
    category: 'personal',
    label: "model provider's organization id",
    why: "a provider's error quotes the account's organization id, which identifies its owner",
    fix: 'remove the id',
  },
};

/** What `redact` writes instead of a secret of this kind. */
export function placeholder(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** Placeholders already in a text; never detected again, so redaction is idempotent. */
export const PLACEHOLDER_RE = /\[REDACTED:[a-z0-9-]+\]/g;
