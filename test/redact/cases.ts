/**
 * Per-kind cases. True positives name the secret that must be found and removed; false
 * positives are texts a reviewer would call clean (`compound check` must not block them).
 */
import type { SecretKind } from '../../src/redact/index.js';
import { fakeB64, fakeHex, fakePem, SECRETS as S } from './fakes.js';

export interface Positive {
  text: string;
  /** The substring that must be covered by a finding of the kind and gone after redact. */
  secret: string;
}

const pem = (label: string, lines = 6): string =>
  `-----BEGIN ${label}-----\n${fakePem(lines)}\n-----END ${label}-----`;
const pemEscaped = `-----BEGIN PRIVATE KEY-----\\n${fakePem(5, '\\n')}\\n-----END PRIVATE KEY-----`;
const skb = fakeB64(64);
const rsa = pem('RSA PRIVATE KEY');
const pemHeadless = rsa.slice(rsa.indexOf('\n') + 1);
const pemTruncated = `-----BEGIN OPENSSH PRIVATE KEY-----\n${fakePem(4)}\n`;

const TWILIO_SID = `AC${fakeHex(32)}`;
const TWILIO_TOKEN = fakeHex(32);
const GCP_KEY_ID = fakeHex(40);

export const POSITIVES: Record<SecretKind, Positive[]> = {
  'aws-access-key': [
    { text: `aws_access_key_id = ${S.awsAccess}`, secret: S.awsAccess },
    { text: `"AccessKeyId": "${S.awsAccess}",`, secret: S.awsAccess },
  ],
  'aws-secret-key': [
    { text: `the key ${S.awsSecret} goes in the vault`, secret: S.awsSecret },
    { text: `aws_secret_access_key = ${S.awsSecret}`, secret: S.awsSecret },
    { text: `AWS_SECRET_ACCESS_KEY="${S.awsSecret}"`, secret: S.awsSecret },
    { text: `{"SecretAccessKey": "${S.awsSecret}"}`, secret: S.awsSecret },
  ],
  'github-token': [
    { text: `export GITHUB_TOKEN=${S.ghp}`, secret: S.ghp },
    { text: `git clone https://${S.ghp}@github.com/acme/app.git`, secret: S.ghp },
    { text: `gh auth login --with-token <<< ${S.gho}`, secret: S.gho },
    { text: `token: ${S.ghs}`, secret: S.ghs },
    { text: `ghu: ${S.ghu}`, secret: S.ghu },
    { text: `GH_PAT='${S.githubPat}'`, secret: S.githubPat },
  ],
  'gitlab-token': [{ text: `CI_JOB_TOKEN: ${S.glpat}`, secret: S.glpat }],
  'openai-key': [
    { text: `OPENAI_API_KEY=${S.openai}`, secret: S.openai },
    { text: `client = OpenAI(api_key="${S.openaiProj}")`, secret: S.openaiProj },
  ],
  'anthropic-key': [{ text: `export ANTHROPIC_API_KEY=${S.anthropic}`, secret: S.anthropic }],
  'slack-token': [
    { text: `SLACK_BOT_TOKEN=${S.slackBot}`, secret: S.slackBot },
    { text: `curl -d token=${S.slackUser} https://slack.com/api/chat.postMessage`, secret: S.slackUser },
  ],
  'stripe-key': [
    { text: `Stripe.api_key = "${S.stripeLive}"`, secret: S.stripeLive },
    { text: `STRIPE_KEY=${S.stripeRestricted}`, secret: S.stripeRestricted },
    { text: `stripe listen --api-key ${S.stripeTest}`, secret: S.stripeTest },
  ],
  'google-api-key': [{ text: `https://maps.googleapis.com/maps/api/js?key=${S.google}&libraries=places`, secret: S.google }],
  'google-oauth-secret': [{ text: `"client_secret":"${S.googleOauth}"`, secret: S.googleOauth }],
  'npm-token': [{ text: `//registry.npmjs.org/:_authToken=${S.npm}`, secret: S.npm }],
  'pypi-token': [{ text: `password = ${S.pypi}`, secret: S.pypi }],
  'huggingface-token': [{ text: `huggingface-cli login --token ${S.hf}`, secret: S.hf }],
  'sendgrid-key': [{ text: `SENDGRID_API_KEY=${S.sendgrid}`, secret: S.sendgrid }],
  'groq-key': [{ text: `GROQ_API_KEY=${S.groq}`, secret: S.groq }],
  'xai-key': [{ text: `XAI_API_KEY=${S.xai}`, secret: S.xai }],
  'replicate-token': [{ text: `REPLICATE_API_TOKEN=${S.replicate}`, secret: S.replicate }],
  'perplexity-key': [{ text: `PPLX=${S.perplexity}`, secret: S.perplexity }],
  'digitalocean-token': [{ text: `doctl auth init -t ${S.digitalocean}`, secret: S.digitalocean }],
  'shopify-token': [{ text: `X-Shopify-Access-Token: ${S.shopify}`, secret: S.shopify }],
  'twilio-credential': [
    { text: `account ${TWILIO_SID} ok`, secret: TWILIO_SID },
    { text: `api key SK${fakeHex(32)}`, secret: 'SK' },
    { text: `and the auth token ${TWILIO_TOKEN} too`, secret: TWILIO_TOKEN },
  ],
  'google-service-account-key': [{ text: `"private_key_id": "${GCP_KEY_ID}",`, secret: GCP_KEY_ID }],
  'webhook-url': [
    { text: `SLACK_WEBHOOK=${S.slackWebhook}`, secret: S.slackWebhook },
    { text: `curl -X POST ${S.discordWebhook} -d @msg.json`, secret: S.discordWebhook },
  ],
  'bearer-header': [
    { text: `use bearer token ${S.ghp.slice(4)} for the api`, secret: S.ghp.slice(4) },
    { text: `curl -H "Authorization: Bearer ${S.bearer}" https://api.acme.dev/v1/me`, secret: S.bearer },
    { text: `authorization: basic ${S.basic}`, secret: S.basic },
    { text: `> GET /v1/me HTTP/1.1\n> Authorization: token ${S.bearer}\n`, secret: S.bearer },
    { text: `{"headers": {"Authorization": "Bearer ${S.bearer}"}}`, secret: S.bearer },
    { text: `sent header Bearer ${S.bearer} to the proxy`, secret: S.bearer },
  ],
  jwt: [
    { text: `Cookie: session=${S.jwt}; Path=/`, secret: S.jwt },
    { text: `the token was ${S.jwt}.`, secret: S.jwt },
  ],
  'private-key-block': [
    { text: `$ cat ~/.ssh/id_rsa\n${rsa}\n$ `, secret: fakePemLine(rsa) },
    { text: pem('OPENSSH PRIVATE KEY'), secret: '-----BEGIN OPENSSH PRIVATE KEY-----' },
    { text: pem('EC PRIVATE KEY', 3), secret: '-----END EC PRIVATE KEY-----' },
    { text: pem('PGP PRIVATE KEY BLOCK'), secret: 'PGP PRIVATE KEY BLOCK' },
    { text: `{"content":"${pemEscaped}"}`, secret: pemEscaped },
    { text: pemTruncated, secret: fakePemLine(pemTruncated) },
    // the block's BEGIN line in another event (an aider command cut at its first newline)
    { text: `${pemHeadless}.txt"\nError: x`, secret: fakePemLine(rsa) },
    { text: `"output": "x: ${pemHeadless.replace(/\n/g, '\\n')}"`, secret: fakePemLine(rsa) },
  ],
  'url-password': [
    { text: 'postgres://app:pa#ss9word@db.internal/app', secret: 'pa#ss9word' },
    { text: `DATABASE_URL=postgres://app:${S.urlPassword}@db.internal:5432/app`, secret: S.urlPassword },
    { text: `mongodb+srv://admin:${S.urlPassword}@cluster0.fake.mongodb.net/?retryWrites=true`, secret: S.urlPassword },
    { text: `redis://:${S.urlPassword}@cache:6379/0`.replace('://:', '://default:'), secret: S.urlPassword },
  ],
  'connection-string-password': [
    { text: `Server=tcp:db.fake.net,1433;Database=app;User ID=sa;Password=${S.connPassword};Encrypt=true;`, secret: S.connPassword },
    { text: `"ConnectionStrings": {"Default": "Host=db;Username=app;Pwd=${S.connPassword};"}`, secret: S.connPassword },
  ],
  'cli-credential': [
    { text: 'mysql -u root -pS3cretPassw0rd mydb', secret: 'S3cretPassw0rd' },
    { text: "sshpass -p 'hunter2Longer!' ssh deploy@host", secret: 'hunter2Longer!' },
    { text: 'redis-cli -h cache -a R3dis-Pa55 ping', secret: 'R3dis-Pa55' },
    { text: `mysql --user=app --password=${S.cliPassword} app_db`, secret: S.cliPassword },
    { text: `psql --password ${S.cliPassword}`, secret: S.cliPassword },
    { text: `curl -u deploy:${S.cliPassword} https://ci.fake.dev/api`, secret: S.cliPassword },
  ],
  'secret-assignment': [
    { text: `DB_PASSWORD=${S.envPassword}`, secret: S.envPassword },
    { text: `  password: ${S.envPassword}`, secret: S.envPassword },
    { text: `{"password": "${S.envPassword}"}`, secret: S.envPassword },
    { text: `client_secret = '${S.envPassword}'`, secret: S.envPassword },
    { text: `const apiKey = "${S.envPassword}";`, secret: S.envPassword },
    { text: `config :app, AppWeb.Endpoint, secret_key_base: "${skb}"`, secret: skb },
    { text: `PGPASSWORD=${S.envPassword} psql -h db`, secret: S.envPassword },
    { text: `x-api-key: ${S.envPassword}`, secret: S.envPassword },
  ],
  'high-entropy-assignment': [
    { text: `SIGNING_SEED=${S.highEntropy}`, secret: S.highEntropy },
    { text: `%{"key" => "${S.highEntropy}"}`, secret: S.highEntropy },
    { text: `auth: ${S.highEntropy}`, secret: S.highEntropy },
  ],
  email: [
    { text: `Author: Marco Rossi <marco.rossi@gmail.com>`, secret: 'marco.rossi@gmail.com' },
    { text: `{"email":"dev+ci@acme-corp.io"}`, secret: 'dev+ci@acme-corp.io' },
    { text: `"line one\\nj.doe@fastmail.fm wrote"`, secret: 'j.doe@fastmail.fm' },
    // an account's folder, and an address in a file name
    { text: 'cat ~/.config/gcloud/legacy_credentials/j.doe@fastmail.fm/adc.json', secret: 'j.doe@fastmail.fm' },
    { text: 'exported to notes/j.doe@fastmail.fm.txt', secret: 'j.doe@fastmail.fm' },
  ],
  'home-path': [
    { text: `cd /home/marco/projects/spotter`, secret: '/home/marco' },
    { text: `"cwd":"/Users/jdoe/repos/app"`, secret: '/Users/jdoe' },
    { text: `C:\\Users\\Marco Rossi\\AppData\\Local`, secret: 'C:\\Users\\Marco Rossi' },
    { text: `{"path":"C:\\\\Users\\\\priya\\\\src"}`, secret: 'C:\\\\Users\\\\priya' },
    { text: `/mnt/c/Users/priya/src`, secret: '/mnt/c/Users/priya' },
  ],
  'user-name': [
    // the account a code host says a login reached
    { text: "Hi octo-dev42! You've successfully authenticated, but GitHub does not provide shell access.", secret: 'octo-dev42' },
    { text: 'Welcome to GitLab, @jdoe.dev!', secret: 'jdoe.dev' },
    { text: '  ✓ Logged in to github.com account priya-n (keyring)', secret: 'priya-n' },
  ],
  'person-name': [
    { text: 'Author: Marco Rossi <marco.rossi@gmail.com>', secret: 'Marco Rossi' },
    { text: 'commit 3f2a9c1\nAuthor: Jane van der Berg <jane@corp.io>\nDate:   Mon Mar 2', secret: 'Jane van der Berg' },
    { text: 'Fix the parser\n\nSigned-off-by: Priya Natarajan <priya@corp.io>', secret: 'Priya Natarajan' },
    { text: 'title:\tFlaky export\nstate:\tOPEN\nauthor:\tjdoe-dev\nassignees:\talice, bob', secret: 'jdoe-dev' },
    { text: '"author": "Zoë Ångström <zoe@example.org>"', secret: 'Zoë Ångström' },
    // the same output flattened into one line by an item's text
    { text: 'after gh issue view 12 (state: OPEN author: jdoe-dev labels: bug)', secret: 'jdoe-dev' },
    // a login with digits before an address, in an agent's prose about git history
    { text: 'added in c0d792d, authored by Eoinl12 <eoin12@example.org> via the web UI', secret: 'Eoinl12' },
    // the name git signs commits with, set, listed or given in the environment
    { text: 'git config --global user.name "Matt Eyre" && git config --global user.email m@x.io', secret: 'Matt Eyre' },
    { text: 'git config user.name octo-dev42', secret: 'octo-dev42' },
    { text: 'core.editor=vim\nuser.name=Jane Doe\nuser.email=jane@corp.io', secret: 'Jane Doe' },
    { text: 'GIT_AUTHOR_NAME="Priya N" git commit -m wip', secret: 'Priya N' },
  ],
  'account-id': [
    { text: "Request too large for model `llama3-70b-8192` in organization `org_01hxv0yr4eftjr1p7rq21sqyjs` on tokens per minute (TPM)", secret: 'org_01hxv0yr4eftjr1p7rq21sqyjs' },
    { text: 'openai.RateLimitError: Rate limit reached for gpt-4 in organization org-Zq8wY2mLx4TkP9vR3nB6cJ1d on tokens', secret: 'org-Zq8wY2mLx4TkP9vR3nB6cJ1d' },
    { text: "would exceed your organization's rate limit of 30,000 input tokens per minute (org: 5a1c9e02-7b3d-4f6a-9c21-0d8e4b7f3a65, model: claude-sonnet-4-6)", secret: '5a1c9e02-7b3d-4f6a-9c21-0d8e4b7f3a65' },
    { text: 'anthropic-organization-id: 5a1c9e02-7b3d-4f6a-9c21-0d8e4b7f3a65', secret: '5a1c9e02-7b3d-4f6a-9c21-0d8e4b7f3a65' },
  ],
  'host-name': [
    { text: 'zelda@zeldas-laptop:~/src/shop$ npm test', secret: 'zeldas-laptop' },
    // Cloud Shell's prompt names the project, a git prompt its branch, before the $
    { text: 'ERROR: bad tag. zelda@zeldas-vm:~/magi-app (gen-lang-client-0690375603)$ ^C', secret: 'zeldas-vm' },
    { text: 'Last login: Mon Mar  2 09:00 on ttys001 from Marcos-MacBook-Pro.local', secret: 'Marcos-MacBook-Pro.local' },
  ],
  'stated-password': [
    { text: 'the password is Correct-Horse-42 for staging', secret: 'Correct-Horse-42' },
    { text: 'DB passphrase was "tr0ub4dor&3".', secret: 'tr0ub4dor&3' },
  ],
  'payment-card': [
    { text: 'card 4111 1111 1111 1111 exp 12/29', secret: '4111 1111 1111 1111' },
    { text: 'charged 5555555555554444 yesterday', secret: '5555555555554444' },
  ],
  'phone-number': [
    { text: 'call +1 (415) 555-0134 today', secret: '+1 (415) 555-0134' },
    { text: 'office (415) 555-0199', secret: '(415) 555-0199' },
    { text: 'mobile +44 20 7946 0958', secret: '+44 20 7946 0958' },
  ],
  'ip-address': [
    { text: 'ssh root@46.101.23.7 -p 2222', secret: '46.101.23.7' },
    { text: 'export DEPLOY_HOST=85.214.132.117', secret: '85.214.132.117' },
    { text: 'curl http://34.120.5.81:8080/health failed', secret: '34.120.5.81' },
    { text: 'Connection to 140.82.121.4 port 22: timed out', secret: '140.82.121.4' },
  ],
};

/** A distinctive slice of a PEM body. */
function fakePemLine(block: string): string {
  const line = block.split('\n').find((l) => l.startsWith('FAKE0'));
  if (!line) throw new Error('no PEM line');
  return line;
}

/**
 * Clean texts per kind. None of them may produce a `secret` finding; those under email/home-path
 * may produce no finding at all.
 */
export const NEGATIVES: Record<SecretKind, string[]> = {
  'aws-access-key': [
    'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE',
    'AKIA is the prefix of long-term AWS access key ids; ASIA marks temporary ones.',
    'AKIAXXXXXXXXXXXXXXXX',
  ],
  'aws-secret-key': [
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}',
    'secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,',
  ],
  'github-token': [
    'export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'GitHub tokens start with ghp_, gho_, ghs_ or github_pat_.',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'env:\n  GH_TOKEN: ${{ github.token }}',
    'ghp_<your-token>',
  ],
  'gitlab-token': ['Create a token (glpat-...) under Settings > Access Tokens.', 'glpat-xxxxxxxxxxxxxxxxxxxx'],
  'openai-key': [
    'OPENAI_API_KEY=sk-...',
    'pip install scikit-learn  # imported as sklearn, not sk-learn',
    '<div class="sk-spinner sk-spinner-double-bounce-container2">',
    // A Codex encrypted reasoning blob: base64url with an sk- inside.
    `{"type":"reasoning","encrypted_content":"gAAAAABqAZLp${fakeB64(30).replace(/[+/]/g, '_')}-sk-AbCdEf0123456789GhIjKl9876-_${fakeHex(40)}"}`,
    'OPENAI_API_KEY=sk-proj-your-key-here',
  ],
  'anthropic-key': ['ANTHROPIC_API_KEY=sk-ant-...', 'keys look like sk-ant-api03-xxxxx'],
  'slack-token': ['Bot tokens start with xoxb- and user tokens with xoxp-.', 'SLACK_BOT_TOKEN=xoxb-your-token'],
  'stripe-key': ['Use sk_test_ keys in development and sk_live_ keys in production.', 'pk_live_FAKE0aB3dE5fG7hJ9kL1mN3pQ5r'],
  'google-api-key': ['GOOGLE_API_KEY=AIza...', 'const key = "AIzaSy";'],
  'google-oauth-secret': ['client secrets start with GOCSPX-'],
  'npm-token': [
    'npm_config_cache=/tmp/npm-cache npm ci',
    'npm_lifecycle_event is set by npm run',
    'npm install gpt-tokenizer@4.0.0 vitest@4.1.12',
  ],
  'pypi-token': ['twine upload -u __token__ -p $PYPI_TOKEN dist/*'],
  'huggingface-token': ['from huggingface_hub import hf_hub_download', 'HF_TOKEN=hf_...'],
  'sendgrid-key': ['SG.xxxxx.yyyyy is the SendGrid key format', 'see docs/SG.md'],
  'groq-key': ['GROQ_API_KEY=gsk_...'],
  'xai-key': ['model: xai-grok-4-fast-reasoning'],
  'replicate-token': ['REPLICATE_API_TOKEN=r8_...'],
  'perplexity-key': ['pplx-70b-online is a model name'],
  'digitalocean-token': ['DIGITALOCEAN_TOKEN=dop_v1_...'],
  'shopify-token': ['shpat_ tokens are admin API tokens'],
  'webhook-url': ['post to https://hooks.slack.com/services/... (see the runbook)', 'https://discord.com/api/webhooks/{id}/{token}'],
  'bearer-header': [
    'curl -H "Authorization: Bearer $TOKEN" https://api.acme.dev',
    'headers: { Authorization: `Bearer ${token}` }',
    'Authorization: Bearer <token>',
    'Authorization: Bearer YOUR_ACCESS_TOKEN',
    'The API expects a Bearer token in the Authorization header.',
    'Authorization: Basic ${BASIC_AUTH}',
  ],
  jwt: ['JWTs start with eyJ because base64 of {" is eyJ.', 'const header = "eyJhbGciOiJIUzI1NiJ9";'],
  'private-key-block': [
    '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
    'The file ends with -----END RSA PRIVATE KEY----- and a newline.',
    'abcdefghijklmnopqrstuvwxyz\n-----END RSA PRIVATE KEY-----',
    'if (pem.includes("-----BEGIN RSA PRIVATE KEY-----")) return "pkcs1";',
    '-----BEGIN PUBLIC KEY-----\n' + fakePem(4) + '\n-----END PUBLIC KEY-----',
    '-----BEGIN CERTIFICATE-----\n' + fakePem(4) + '\n-----END CERTIFICATE-----',
  ],
  'url-password': [
    'DATABASE_URL=postgres://postgres:postgres@localhost:5432/app_dev',
    'postgresql://{user}:{password}@{host}/{db}',
    'mongodb://${MONGO_USER}:${MONGO_PASS}@mongo:27017',
    'https://user:password@example.com/path',
    'redis://:****@cache:6379',
    'git@github.com:acme/app.git',
    'ssh://git@github.com:22/acme/app.git',
    'https://github.com/acme/app/blob/4b825dc642cb6eb9a060e54bf8d69288fbee4904/src/a.ts#L10',
  ],
  'connection-string-password': [
    'Server=db;Database=app;User Id=sa;Password=${DB_PASSWORD};',
    'Server=db;Database=app;Integrated Security=true;',
    'Password=<your password>;',
  ],
  'cli-credential': [
    'docker login --password-stdin < token.txt',
    'psql --password  # prompts for the password',
    'git push -u origin main',
    'docker run -u 1000:1000 node:20',
    'docker run -u www-data:www-data nginx',
    'gh auth login --token $GH_TOKEN',
    'curl -u $USER:$TOKEN https://api.acme.dev',
  ],
  'secret-assignment': [
    'const apiKey = process.env.API_KEY;',
    'api_key = os.environ["OPENAI_API_KEY"]',
    'API_KEY=${API_KEY}',
    'KEY=${KEY}',
    'password: <your password>',
    'password: ********',
    'POSTGRES_PASSWORD=postgres',
    'PASSWORD=changeme',
    'token: string;',
    'interface Config { apiKey: string; password?: string; token: string | null }',
    'const token = await getToken(session);',
    'if (password === confirmPassword) return;',
    'max_tokens: 4096',
    '"usage":{"input_tokens":18703,"output_tokens":167}',
    'token_count: 1356',
    '"auth_method": "oauth"',
    'passwordHint: "Use at least 12 characters"',
    '"password": "must be at least 8 characters"',
    'def login(conn, %{"password" => password}) do',
    'config :app, App.Repo, password: System.get_env("DB_PASSWORD")',
    'secret_key_base: System.fetch_env!("SECRET_KEY_BASE"),',
    'token = Phoenix.Token.sign(conn, "user auth", user.id)',
    '%{token: token, expires_at: expires_at}',
    'password: hashed_password',
    'secret = opts[:secret]',
    'api_key: {{ vault_api_key }}',
    'TOKEN_ENV=GITHUB_TOKEN',
    'apiKey: "OPENAI_API_KEY",',
    '[REDACTED:github-token]',
    'token=[REDACTED:github-token]',
    '"private": true,',
    'author_url: "https://example.com/about"',
    'tokenizer: "o200k_base"',
    "apiKey: 'ollama',",
    "const apiKey = 'sk-ant-' + 'a'.repeat(95);",
    '"@aws-sdk/credential-providers": "^3.948.0",',
    "vi.stubEnv({ CODEMIE_API_KEY: 'test-key' });",
    'auth:login is a mix task; token:refresh too',
  ],
  'high-entropy-assignment': [
    'GIT_COMMIT=4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    'BUILD_ID=3f2b8c1e-9d4a-4e6f-8b2a-1c3d5e7f9a0b',
    'NODE_VERSION=20.19.0',
    'NODE_OPTIONS=--max-old-space-size=4096',
    'IMAGE_DIGEST=sha256:' + fakeHex(64),
    'GREETING_B64=SGVsbG8gV29ybGQgdGhpcyBpcyBhIHRlc3Q=',
    'RUNNER_TEMP=/home/runner/work/_temp',
    'BASE_CLASS=MyVeryLongClassNameV2Impl',
    '"integrity": "sha512-' + fakeB64(86) + '=="',
    '"signature":"' + fakeB64(200) + '"',
    '"requestId":"req_011CY15QS2LGwAeBxdfa6e1V","uuid":"3579fa66-0f5d-400c-97b8-e2fbecfeb4ba"',
    '"id":"msg_01MKH1ccEGrZGNPvu8pYiiQa","tool_use_id":"toolu_0116Hyi5v8ut7Ffb7d8qV1Sc"',
    '"key": "Enter"',
    '"cacheKey": "' + fakeHex(64) + '"',
    'PUBLIC_KEY=' + fakeB64(44),
  ],
  email: [
    'Co-Authored-By: Claude <noreply@anthropic.com>',
    'git remote add origin git@github.com:acme/app.git',
    'contact you@example.com for details',
    'admin@app.test',
    '<img srcset="logo@2x.png 2x, logo@3x.webp 3x">',
    'icons/brand@2x.svg',
    'npm install @types/node@20.19.25',
    'https://deploy@ci.acme.dev/hooks',
    'use the @Component decorator',
    'PromiseResolve = @Promise.@resolve.bind(@Promise)',
    'deps: farmhash@sematext/gc-stats canvasspago@sitespeed.io/chromedriver',
  ],
  'home-path': [
    'cd /home/runner/work/app/app',
    '/Users/Shared/Library',
    'C:\\Users\\Public\\Documents',
    'cp file /home/$USER/bin',
    'ls ~/projects/app',
    '/home/USER/projects/spotter-worktrees',
    '/Users/runner/work/_temp',
  ],
  'user-name': ['the runner user owns /home/runner', 'Logged in to github.com account github-actions[bot]'],
  'person-name': [
    'Co-Authored-By: Claude <noreply@anthropic.com>',
    'Author: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>',
    'import { Component } from "@angular/core";',
    'reviewers: 2\nassignees: []',
    'npm install @types/node@20.19.25',
    // asking for the name, or a name written to be replaced
    'git config --global user.name && git config --global user.email',
    'git config --global user.name "Your Name"',
  ],
  'account-id': ['the org-chart module', 'ORG_STRUCTURE_SETTINGS_TABLE', 'org_structure_settings_table_v', 'an org-xxxxxxxxxxxxxxxxxxxxxxxx placeholder', 'org: acme, organization_id: my-team', 'request_id: 5a1c9e02-7b3d-4f6a-9c21-0d8e4b7f3a65'],
  'host-name': ['ssh -p 2222 git@github.com:acme/app.git', 'see src/app.ts:12 and MacBook support', 'scp build.tar deploy@10.0.0.5:/srv/'],
  'twilio-credential': ['ACME Corp and SKU-1234', 'an ACCOUNT of 32 characters'],
  'google-service-account-key': ['"private_key_id": "<your key id>"'],
  'stated-password': ['the password is incorrect, try again', 'password: required', 'the password is ${DB_PASSWORD}', 'the PIN is 1234', 'password is <your-password>'],
  'payment-card': ['session `aider-2ead400008-20250407T035901` (aider), event 2', 'build 20260227123456', 'order 4111 1111 1111 1112 failed the check', 'id 0000 0000 0000 0000'],
  'ip-address': [
    'listen on 0.0.0.0:3000 or 127.0.0.1, LAN 192.168.1.20, 10.0.0.5, 172.17.0.2, tailnet 100.101.102.103',
    'docs use 203.0.113.5 and 198.51.100.7; dns 8.8.8.8 and 1.1.1.1; mask 255.255.255.0; net 34.120.5.0/24',
    'AssemblyVersion 4.0.0.1, version 5.1.2.3, Version: 6.1.2.3, pip install x==2.3.4.5, node v18.17.1.2',
    'OID 1.3.6.1.4.1, IEEE 802.11 §12.5.4.2, section 4.1.2.3 and build 2024.11.03.7 and 01.02.03.04',
  ],
  'phone-number': ['version 1.2.3-4', 'date 2026-11-27', 'range 100-200-300', 'port 8080, pid 12345', 'sha 3d25f3b'],
};
