#!/usr/bin/env node
// Deterministic synthetic transcript corpus for benchmarks and scale tests.
//
//   node bench/gen-corpus.mjs --out DIR [--sessions 20000] [--bytes 1G] [--seed 1] [--small] [--quiet]
//
// Same arguments → byte-identical files: a seeded PRNG (sfc32), fixed base dates, no wall clock,
// no Math.random, files written in a fixed order. Output is streamed (one buffered file at a time;
// Aider histories are appended per session), so memory stays flat whatever --bytes is.
//
// Shapes follow /work/shared/transcripts/FORMATS.md (Claude Code JSONL with progress lines and
// subagent files, Codex rollouts modern and legacy, Gemini CLI chat JSON, Aider markdown, Hermes
// gateway JSONL, generic OpenAI-chat JSONL); the content is written from templates here, never
// copied from the real files.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// ─── arguments ──────────────────────────────────────────────────────────────────────────────────

const USAGE = `usage: node bench/gen-corpus.mjs --out DIR [--sessions N] [--bytes SIZE] [--seed N] [--small] [--quiet]
  --out DIR       directory to write (created; must be empty or absent)
  --sessions N    number of sessions (default 20000; --small: 200)
  --bytes SIZE    approximate total size, e.g. 500M, 1G (default 1G; --small: 8M)
  --seed N        PRNG seed (default 1)
  --small         quick corpus: 200 sessions, about 8 MB
  --quiet         no progress on stderr`;

function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?)?$/i.exec(String(s).trim());
  if (!m) throw new Error(`bad size: ${s}`);
  const unit = (m[2] ?? '').toLowerCase()[0];
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.round(Number(m[1]) * mult);
}

function parseArgs(argv) {
  const o = { out: undefined, sessions: undefined, bytes: undefined, seed: 1, small: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--out') o.out = val();
    else if (a === '--sessions') o.sessions = Number.parseInt(val(), 10);
    else if (a === '--bytes') o.bytes = parseSize(val());
    else if (a === '--seed') o.seed = Number.parseInt(val(), 10);
    else if (a === '--small') o.small = true;
    else if (a === '--quiet') o.quiet = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  if (!o.out) throw new Error('--out DIR is required');
  o.sessions ??= o.small ? 200 : 20000;
  o.bytes ??= o.small ? 8 * 1024 ** 2 : 1024 ** 3;
  if (!(o.sessions > 0) || !(o.bytes > 0) || !Number.isInteger(o.seed)) throw new Error('bad --sessions, --bytes or --seed');
  return o;
}

// ─── PRNG ───────────────────────────────────────────────────────────────────────────────────────

/** splitmix32: spreads (seed, stream) into well-mixed 32-bit state words. */
function splitmix32(a) {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

/** sfc32 with helpers. One Rng per session (seeded from the corpus seed and the session index). */
class Rng {
  constructor(seed, stream = 0) {
    const sm = splitmix32(Math.imul(seed, 0x5bd1e995) ^ Math.imul(stream, 0x27d4eb2d) ^ 0x1234567);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32() {
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    return t >>> 0;
  }
  float() {
    return this.u32() / 4294967296;
  }
  int(n) {
    return Math.floor(this.float() * n);
  }
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.float() < p;
  }
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  /** Weighted pick from [[weight, value], ...]. */
  weighted(pairs) {
    let total = 0;
    for (const [w] of pairs) total += w;
    let x = this.float() * total;
    for (const [w, v] of pairs) {
      x -= w;
      if (x < 0) return v;
    }
    return pairs[pairs.length - 1][1];
  }
  sample(arr, k) {
    const copy = [...arr];
    const out = [];
    while (out.length < k && copy.length) out.push(copy.splice(this.int(copy.length), 1)[0]);
    return out;
  }
  chars(alphabet, n) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  hex(n) {
    return this.chars(HEX, n);
  }
  b62(n) {
    return this.chars(B62, n);
  }
  uuid() {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20)}`;
  }
  /** Log-normal with the given mean. */
  lognormal(mean, sigma) {
    const u1 = Math.max(this.float(), 1e-12);
    const u2 = this.float();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.exp(Math.log(mean) - (sigma * sigma) / 2 + sigma * z);
  }
}

// ─── output ─────────────────────────────────────────────────────────────────────────────────────

const FLUSH_AT = 1 << 20;

/** A file written in ~1 MiB chunks; counts UTF-8 bytes. */
class Out {
  constructor(path, stats, format, append = false) {
    ensureDir(dirname(path));
    this.fd = openSync(path, append ? 'a' : 'w');
    this.parts = [];
    this.pending = 0;
    this.bytes = 0;
    this.stats = stats;
    this.format = format;
    if (!append) stats.file(format);
  }
  write(s) {
    this.parts.push(s);
    this.pending += s.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }
  line(obj) {
    this.write(JSON.stringify(obj) + '\n');
  }
  /** Bytes so far, counting the unflushed part by characters (close enough for size targets). */
  get size() {
    return this.bytes + this.pending;
  }
  flush() {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.stats.add(this.format, buf.length);
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const madeDirs = new Set();
function ensureDir(dir) {
  if (madeDirs.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  madeDirs.add(dir);
}

class Stats {
  constructor() {
    this.byFormat = {};
  }
  entry(f) {
    return (this.byFormat[f] ??= { sessions: 0, files: 0, bytes: 0 });
  }
  file(f) {
    this.entry(f).files++;
  }
  add(f, n) {
    this.entry(f).bytes += n;
  }
  session(f) {
    this.entry(f).sessions++;
  }
  get bytes() {
    return Object.values(this.byFormat).reduce((a, e) => a + e.bytes, 0);
  }
  get files() {
    return Object.values(this.byFormat).reduce((a, e) => a + e.files, 0);
  }
}

// ─── time ───────────────────────────────────────────────────────────────────────────────────────

const EPOCH = Date.UTC(2025, 10, 3, 0, 0, 0); // 90 days from 2025-11-03
const DAYS = 90;

const iso = (ms) => new Date(ms).toISOString();
/** Hermes writes naive local time with microseconds. */
const naive = (ms, rng) => `${new Date(ms).toISOString().slice(0, 23)}${rng.range(100, 999)}`;
const pad = (n, w = 2) => String(n).padStart(w, '0');
function stamp(ms, sepDate = '-', sepT = 'T', sepTime = '-') {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${sepDate}${pad(d.getUTCMonth() + 1)}${sepDate}${pad(d.getUTCDate())}${sepT}${pad(d.getUTCHours())}${sepTime}${pad(d.getUTCMinutes())}${sepTime}${pad(d.getUTCSeconds())}`;
}

/** A session start: any of the 90 days, mostly working hours, fewer at weekends. */
function sessionStart(rng) {
  for (;;) {
    const day = rng.int(DAYS);
    const dow = new Date(EPOCH + day * 86400000).getUTCDay();
    if ((dow === 0 || dow === 6) && rng.chance(0.7)) continue;
    const hour = rng.weighted([[1, rng.range(0, 7)], [10, rng.range(8, 12)], [10, rng.range(13, 18)], [3, rng.range(19, 23)]]);
    return EPOCH + day * 86400000 + hour * 3600000 + rng.int(3600) * 1000 + rng.int(1000);
  }
}

// ─── the world: repositories, languages, pitfalls ───────────────────────────────────────────────

const DOMAINS = [
  ['billing', ['invoice', 'payment', 'refund', 'currency']], ['auth', ['session', 'token', 'login', 'role']],
  ['search', ['index', 'query', 'ranker', 'tokenize']], ['notify', ['email', 'webhook', 'template', 'digest']],
  ['catalog', ['product', 'variant', 'price', 'stock']], ['ingest', ['parser', 'batch', 'schema', 'record']],
  ['report', ['chart', 'export', 'summary', 'filter']], ['sync', ['cursor', 'delta', 'conflict', 'queue']],
  ['chat', ['message', 'thread', 'presence', 'mention']], ['deploy', ['release', 'rollout', 'manifest', 'health']],
];
const SUFFIXES = ['api', 'service', 'web', 'cli', 'worker', 'sdk', 'app', 'core'];
const ORGS = ['acme', 'northwind', 'initech', 'globex', 'umbrella-labs'];
const USERS = ['dev', 'sam', 'alex', 'kim', 'runner'];

const LANGS = {
  ts: {
    ext: 'ts', src: 'src', testDir: 'test', testSuffix: '.test.ts', manifest: 'package.json',
    fmt: 'npx prettier --write .', lint: 'npx eslint .', test: 'npx vitest run', build: 'npx tsc --noEmit',
    install: (dep) => `npm install ${dep}`, deps: ['zod', 'commander', 'yaml', 'undici', 'pino', 'dayjs'],
    fmtOut: (f) => `${f} 42ms (unchanged)\n${f.replace('.ts', '.test.ts')} 18ms`,
    testOk: (n) => ` ✓ test/${n}.test.ts (12 tests) 48ms\n\n Test Files  6 passed (6)\n      Tests  57 passed (57)\n   Start at  10:02:11\n   Duration  1.42s`,
  },
  py: {
    ext: 'py', src: 'src/app', testDir: 'tests', manifest: 'pyproject.toml',
    fmt: 'ruff format .', lint: 'ruff check .', test: 'pytest -q', build: 'mypy src',
    install: (dep) => `uv pip install ${dep}`, deps: ['httpx', 'pydantic', 'sqlalchemy', 'rich', 'typer', 'orjson'],
    fmtOut: () => '3 files reformatted, 41 files left unchanged',
    testOk: () => '........................................................ [ 93%]\n....                                                     [100%]\n60 passed in 2.31s',
  },
  go: {
    ext: 'go', src: 'internal', testDir: 'internal', testSuffix: '_test.go', manifest: 'go.mod',
    fmt: 'gofmt -l -w .', lint: 'go vet ./...', test: 'go test ./...', build: 'go build ./...',
    install: (dep) => `go get ${dep}`, deps: ['github.com/spf13/cobra', 'golang.org/x/sync', 'github.com/rs/zerolog'],
    fmtOut: (f) => f,
    testOk: (n) => `ok  \texample.com/${n}/internal/${n}\t0.412s\nok  \texample.com/${n}/internal/store\t0.208s\n?   \texample.com/${n}/cmd\t[no test files]`,
  },
  rs: {
    ext: 'rs', src: 'src', testDir: 'tests', testSuffix: '.rs', manifest: 'Cargo.toml',
    fmt: 'cargo fmt', lint: 'cargo clippy --all-targets -- -D warnings', test: 'cargo test', build: 'cargo build',
    install: (dep) => `cargo add ${dep}`, deps: ['serde', 'tokio', 'anyhow', 'clap', 'tracing'],
    fmtOut: () => '',
    testOk: (n) => `   Compiling ${n} v0.3.1\n    Finished test profile [unoptimized + debuginfo] target(s) in 6.21s\n     Running unittests src/lib.rs\n\nrunning 34 tests\n..................................\ntest result: ok. 34 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s`,
  },
  ex: {
    ext: 'ex', src: 'lib', testDir: 'test', testSuffix: '_test.exs', manifest: 'mix.exs',
    fmt: 'mix format', lint: 'mix credo --strict', test: 'mix test', build: 'mix compile --warnings-as-errors',
    install: () => 'mix deps.get', deps: ['jason', 'req', 'oban', 'ecto_sql'],
    fmtOut: () => '',
    testOk: () => 'Running ExUnit with seed: 482113, max_cases: 16\n\n.....................................................\nFinished in 1.9 seconds (0.6s async, 1.3s sync)\n53 tests, 0 failures',
  },
  rb: {
    ext: 'rb', src: 'lib', testDir: 'spec', testSuffix: '_spec.rb', manifest: 'Gemfile',
    fmt: 'bundle exec rubocop -a', lint: 'bundle exec rubocop', test: 'bundle exec rspec', build: 'bundle exec rake build',
    install: () => 'bundle install', deps: ['faraday', 'dry-struct', 'sidekiq'],
    fmtOut: () => 'Inspecting 48 files\n................................................\n\n48 files inspected, no offenses detected',
    testOk: () => '..........................................\n\nFinished in 0.84 seconds (files took 0.41 seconds to load)\n42 examples, 0 failures',
  },
};

/**
 * Pitfalls: a command that fails in a recognisable way, the diagnosis, and the fix that works.
 * Each repo has a few; sessions hit them now and then (less often when the bootstrap block warned
 * about them), so a harvester has recurring lessons to find.
 */
const PITFALLS = {
  ts: [
    { id: 'vitest-watch-mode', cmd: () => 'npm test', exit: 124, out: () => '\n RUN  v3.2.4\n\n ✓ test/parse.test.ts (12 tests) 41ms\n\n Test Files  6 passed (6)\n      Tests  57 passed (57)\n\n Watching for file changes...\nCommand timed out after 2m 0s', why: '`npm test` starts Vitest in watch mode, so it never exits in a non-interactive shell.', fix: { kind: 'shell', cmd: () => 'npx vitest run' }, lesson: 'Run tests with `npx vitest run`; `npm test` stays in watch mode and times out.' },
    { id: 'missing-dependency', cmd: () => 'npx tsx src/cli/main.ts --help', exit: 1, out: (r) => `node:internal/modules/esm/resolve:873\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n        ^\n\nError [ERR_PACKAGE_NOT_FOUND]: Cannot find package '${r.dep}' imported from /src/${r.name}/src/config.ts\n    at packageResolve (node:internal/modules/esm/resolve:873:9)\n\nNode.js v20.19.0`, why: (r) => `\`${r.dep}\` is imported but missing from node_modules: the lockfile was updated on main and nobody ran install.`, fix: { kind: 'shell', cmd: () => 'npm ci' }, fixOut: '\nadded 412 packages, and audited 413 packages in 9s\n\n87 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities', lesson: 'After pulling, run `npm ci`; main often adds dependencies.' },
    { id: 'ts-strict-undefined', cmd: (L) => L.build, exit: 2, out: () => "src/config.ts(42,7): error TS2322: Type 'string | undefined' is not assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'.\n\nFound 1 error in src/config.ts:42", why: '`process.env` values are `string | undefined` under strict mode; the config reader assigns one to a `string` field.', fix: { kind: 'edit', file: 'src/config.ts', old: 'const region: string = process.env.REGION;', new: "const region: string = process.env.REGION ?? 'eu-west-1';" }, lesson: 'Environment values are `string | undefined`; give config fields a default with `??`.' },
    { id: 'pnpm-not-found', cmd: () => 'pnpm install', exit: 127, out: () => 'bash: pnpm: command not found', why: 'pnpm is not installed globally on this machine; the repo pins it through corepack.', fix: { kind: 'shell', cmd: () => 'corepack enable && pnpm install' }, fixOut: 'Lockfile is up to date, resolution step is skipped\nPackages: +412\nDone in 4.2s', lesson: 'Run `corepack enable` once before using pnpm in this repo.' },
    { id: 'esm-import-extension', cmd: () => 'node dist/cli/main.js list', exit: 1, out: (r) => `node:internal/modules/esm/resolve:264\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/src/${r.name}/dist/lib/format' imported from /src/${r.name}/dist/cli/main.js\nDid you mean to import "../lib/format.js"?`, why: 'NodeNext ESM needs explicit `.js` extensions in relative imports; `format` was imported without one.', fix: { kind: 'edit', file: 'src/cli/main.ts', old: "import { format } from '../lib/format';", new: "import { format } from '../lib/format.js';" }, lesson: 'Relative imports need the `.js` extension (NodeNext ESM).' },
    { id: 'port-in-use', cmd: () => 'npm run dev', exit: 1, out: () => "Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1817:16)\n    at listenInCluster (node:net:1865:12) {\n  code: 'EADDRINUSE',\n  errno: -98,\n  syscall: 'listen',\n  address: '::',\n  port: 3000\n}", why: 'An earlier dev server is still listening on port 3000.', fix: { kind: 'shell', cmd: () => 'lsof -ti:3000 | xargs -r kill && npm run dev' }, lesson: 'If port 3000 is busy, kill the old dev server: `lsof -ti:3000 | xargs -r kill`.' },
  ],
  py: [
    { id: 'venv-not-active', cmd: (L) => L.test, exit: 2, out: (r) => `ImportError while loading conftest '/src/${r.name}/tests/conftest.py'.\ntests/conftest.py:3: in <module>\n    import ${r.dep}\nE   ModuleNotFoundError: No module named '${r.dep}'`, why: 'pytest runs with the system Python; the project dependencies live in `.venv`.', fix: { kind: 'shell', cmd: (L) => `source .venv/bin/activate && ${L.test}` }, lesson: 'Activate `.venv` (or use `uv run pytest`) before running tests.' },
    { id: 'python-not-found', cmd: () => 'python scripts/seed.py', exit: 127, out: () => 'bash: python: command not found', why: 'Only `python3` is on PATH here.', fix: { kind: 'shell', cmd: () => 'python3 scripts/seed.py' }, lesson: 'Use `python3`; there is no `python` on PATH.' },
    { id: 'mypy-optional', cmd: (L) => L.build, exit: 1, out: () => 'src/app/config.py:31: error: Incompatible types in assignment (expression has type "str | None", variable has type "str")  [assignment]\nFound 1 error in 1 file (checked 38 source files)', why: '`os.environ.get` returns `str | None`; the settings field is typed `str`.', fix: { kind: 'edit', file: 'src/app/config.py', old: 'region: str = os.environ.get("REGION")', new: 'region: str = os.environ.get("REGION", "eu-west-1")' }, lesson: 'Give `os.environ.get` a default when the field is typed `str`.' },
    { id: 'naive-datetime', cmd: (L) => L.test, exit: 1, out: () => "FAILED tests/test_report.py::test_daily_window - TypeError: can't compare offset-naive and offset-aware datetimes\n1 failed, 59 passed in 2.48s", why: 'The report window uses `datetime.now()` (naive) while stored rows are timezone-aware.', fix: { kind: 'edit', file: 'src/app/report.py', old: 'now = datetime.now()', new: 'now = datetime.now(timezone.utc)' }, lesson: 'Always use timezone-aware datetimes (`datetime.now(timezone.utc)`).' },
    { id: 'ruff-unused-import', cmd: (L) => L.lint, exit: 1, out: () => 'src/app/api.py:3:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.', why: 'A leftover import fails the lint step.', fix: { kind: 'shell', cmd: () => 'ruff check --fix .' }, fixOut: 'Found 1 error (1 fixed, 0 remaining).', lesson: '`ruff check --fix .` clears fixable lint errors before committing.' },
  ],
  go: [
    { id: 'go-sum-missing', cmd: (L) => L.build, exit: 1, out: () => 'internal/store/db.go:9:2: missing go.sum entry for module providing package golang.org/x/sync/errgroup (imported by example.com/app/internal/store); to add:\n\tgo get example.com/app/internal/store', why: 'A new import was added without updating go.sum.', fix: { kind: 'shell', cmd: () => 'go mod tidy' }, fixOut: 'go: finding module for package golang.org/x/sync/errgroup\ngo: found golang.org/x/sync/errgroup in golang.org/x/sync v0.10.0', lesson: 'Run `go mod tidy` after adding an import.' },
    { id: 'go-undefined', cmd: (L) => L.test, exit: 1, out: (r) => `# example.com/${r.name}/internal/${r.name}\ninternal/${r.name}/handler.go:57:12: undefined: parseLimit\nFAIL\texample.com/${r.name}/internal/${r.name} [build failed]`, why: '`parseLimit` was renamed to `parsePageSize` in the last refactor but one call site was missed.', fix: { kind: 'edit', file: 'internal/handler.go', old: 'limit := parseLimit(r)', new: 'limit := parsePageSize(r)' }, lesson: 'After renaming, `go build ./...` finds every missed call site.' },
    { id: 'go-race', cmd: () => 'go test -race ./...', exit: 1, out: () => 'WARNING: DATA RACE\nWrite at 0x00c0001a4018 by goroutine 8:\n  example.com/app/internal/cache.(*Cache).Set()\n      internal/cache/cache.go:41 +0x64\n--- FAIL: TestCacheConcurrent (0.01s)\n    testing.go:1399: race detected during execution of test\nFAIL', why: 'The cache map is written from several goroutines without the mutex.', fix: { kind: 'edit', file: 'internal/cache/cache.go', old: 'c.items[k] = v', new: 'c.mu.Lock()\n\tc.items[k] = v\n\tc.mu.Unlock()' }, lesson: 'Run `go test -race ./...`; the cache needs its mutex around writes.' },
  ],
  rs: [
    { id: 'rust-mismatched-types', cmd: (L) => L.build, exit: 101, out: () => 'error[E0308]: mismatched types\n  --> src/config.rs:28:24\n   |\n28 |     let port: u16 = env::var("PORT")?;\n   |               ---   ^^^^^^^^^^^^^^^^ expected `u16`, found `String`\n   |               |\n   |               expected due to this\n\nFor more information about this error, try `rustc --explain E0308`.\nerror: could not compile `app` (lib) due to 1 previous error', why: 'The env var is a `String` and needs parsing into `u16`.', fix: { kind: 'edit', file: 'src/config.rs', old: 'let port: u16 = env::var("PORT")?;', new: 'let port: u16 = env::var("PORT")?.parse()?;' }, lesson: 'Parse env vars explicitly (`.parse()?`); they are always `String`.' },
    { id: 'clippy-needless-return', cmd: (L) => L.lint, exit: 101, out: () => 'error: unneeded `return` statement\n  --> src/lib.rs:88:5\n   |\n88 |     return Ok(items);\n   |     ^^^^^^^^^^^^^^^^\n   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return\n   = note: `-D clippy::needless-return` implied by `-D warnings`', why: 'CI runs clippy with `-D warnings`, so style lints fail the build.', fix: { kind: 'edit', file: 'src/lib.rs', old: '    return Ok(items);', new: '    Ok(items)' }, lesson: 'Clippy runs with `-D warnings`; fix lints before pushing.' },
    { id: 'cargo-lock-busy', cmd: (L) => L.test, exit: 101, out: () => '    Blocking waiting for file lock on build directory\nerror: failed to acquire lock: Resource temporarily unavailable', why: 'rust-analyzer holds the target directory lock.', fix: { kind: 'shell', cmd: () => 'CARGO_TARGET_DIR=target/cli cargo test' }, lesson: 'Use `CARGO_TARGET_DIR=target/cli` so the editor does not block cargo.' },
  ],
  ex: [
    { id: 'postgres-not-running', cmd: (L) => L.test, exit: 1, out: () => '** (DBConnection.ConnectionError) connection not available and request was dropped from queue after 2000ms.\n[error] Postgrex.Protocol (#PID<0.412.0>) failed to connect: ** (DBConnection.ConnectionError) tcp connect (localhost:5432): connection refused - :econnrefused', why: 'The test database is not running.', fix: { kind: 'shell', cmd: () => 'docker compose up -d db && mix test' }, lesson: 'Start Postgres with `docker compose up -d db` before `mix test`.' },
    { id: 'elixir-undefined-function', cmd: (L) => L.build, exit: 1, out: (r) => `error: undefined function format_amount/1 (expected ${r.mod}.Views to define such a function or for it to be imported, but none are available)\n  lib/${r.name}/views.ex:44: ${r.mod}.Views.render/2\n\n** (CompileError) lib/${r.name}/views.ex: cannot compile module ${r.mod}.Views (errors have been logged)`, why: '`format_amount/1` moved to the Money helper module; the view still calls it unqualified.', fix: { kind: 'edit', file: 'lib/views.ex', old: 'format_amount(total)', new: 'Money.format_amount(total)' }, lesson: '`format_amount/1` lives in `Money`; call it qualified.' },
    { id: 'credo-pipe-chain', cmd: (L) => L.lint, exit: 8, out: () => '┃ [F] → Pipe chain should start with a raw value.\n┃       lib/app/report.ex:31:5 #(App.Report.build)\n\n1 refactoring opportunity.', why: 'Credo strict mode rejects pipe chains that start with a function call.', fix: { kind: 'edit', file: 'lib/report.ex', old: 'load_rows(id) |> Enum.map(&to_row/1)', new: 'id |> load_rows() |> Enum.map(&to_row/1)' }, lesson: 'Credo `--strict`: start pipe chains with a raw value.' },
  ],
  rb: [
    { id: 'bundler-gem-missing', cmd: (L) => L.test, exit: 7, out: (r) => `Could not find ${r.dep}-2.9.0 in locally installed gems\nRun \`bundle install\` to install missing gems.`, why: 'Gemfile.lock gained a gem that is not installed yet.', fix: { kind: 'shell', cmd: () => 'bundle install && bundle exec rspec' }, lesson: 'Run `bundle install` after pulling; the lockfile changes often.' },
    { id: 'rspec-frozen-time', cmd: (L) => L.test, exit: 1, out: () => 'Failures:\n\n  1) Invoice#due_on returns the end of the month\n     Failure/Error: expect(invoice.due_on).to eq(Date.new(2025, 1, 31))\n\n       expected: #<Date: 2025-01-31>\n            got: #<Date: 2025-02-28>\n     # ./spec/invoice_spec.rb:14\n\n42 examples, 1 failure', why: 'The spec depends on today\'s date; it needs frozen time.', fix: { kind: 'edit', file: 'spec/invoice_spec.rb', old: '  it "returns the end of the month" do', new: '  it "returns the end of the month", freeze_time: "2025-01-10" do' }, lesson: 'Freeze time in date-dependent specs.' },
  ],
};

/** Failures any repo can meet. */
const COMMON_PITFALLS = [
  { id: 'script-not-executable', cmd: () => './scripts/release.sh --dry-run', exit: 126, out: () => 'bash: ./scripts/release.sh: Permission denied', why: 'The script lost its executable bit in the last commit.', fix: { kind: 'shell', cmd: () => 'chmod +x scripts/release.sh && ./scripts/release.sh --dry-run' }, lesson: '`scripts/release.sh` must be executable (`chmod +x`).' },
  { id: 'git-push-rejected', cmd: () => 'git push', exit: 1, out: (r) => ` ! [rejected]        ${r.branch} -> ${r.branch} (fetch first)\nerror: failed to push some refs to 'github.com:${r.org}/${r.name}.git'\nhint: Updates were rejected because the remote contains work that you do not have locally.`, why: 'The remote branch moved on since the last pull.', fix: { kind: 'shell', cmd: () => 'git pull --rebase && git push' }, fixOut: 'Successfully rebased and updated refs/heads/main.\nTo github.com:acme/app.git\n   4c1d2e9..9f03b7a  main -> main', lesson: 'Pull with `--rebase` before pushing; the branch is shared.' },
  { id: 'eacces-global-install', cmd: () => 'npm install -g @redocly/cli', exit: 243, out: () => "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/@redocly\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/@redocly'", why: 'Global installs need root here; use npx instead.', fix: { kind: 'shell', cmd: () => 'npx @redocly/cli lint openapi.yaml' }, lesson: 'Use `npx` instead of global npm installs (no write access to /usr/local).' },
  { id: 'make-missing-separator', cmd: () => 'make docs', exit: 2, out: () => 'Makefile:14: *** missing separator.  Stop.', why: 'Line 14 of the Makefile is indented with spaces instead of a tab.', fix: { kind: 'edit', file: 'Makefile', old: '    mkdocs build', new: '\tmkdocs build' }, lesson: 'Makefile recipes need tabs, not spaces.' },
];

function makeRepos(rng) {
  const langs = ['ts', 'ts', 'ts', 'py', 'py', 'go', 'rs', 'ex', 'rb', 'ts'];
  const repos = [];
  for (let i = 0; i < 40; i++) {
    const [domain, nouns] = DOMAINS[i % DOMAINS.length];
    const suffix = SUFFIXES[(i * 7 + Math.floor(i / DOMAINS.length)) % SUFFIXES.length];
    const lang = langs[(i * 3) % langs.length];
    const name = `${domain}-${suffix}`;
    const L = LANGS[lang];
    const pitfalls = [...rng.sample(PITFALLS[lang], Math.min(3, PITFALLS[lang].length)), rng.pick(COMMON_PITFALLS)];
    repos.push({
      name, lang, L, nouns, org: ORGS[i % ORGS.length],
      mod: name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(''),
      dep: rng.pick(L.deps), branch: rng.pick(['main', 'main', 'main', 'master', 'develop']),
      user: USERS[i % USERS.length], pitfalls,
      items: pitfalls.map((p) => ({ id: `${p.id}-${createHash('sha1').update(name + p.id).digest('hex').slice(0, 6)}`, pitfall: p })),
    });
  }
  return repos;
}

// ─── content ────────────────────────────────────────────────────────────────────────────────────

const VERBS = ['load', 'parse', 'validate', 'render', 'sync', 'apply', 'build', 'merge', 'resolve', 'format'];
const GERUNDS = ['loading', 'parsing', 'drifting', 'rendering', 'syncing', 'humming', 'building', 'merging', 'wandering', 'glowing'];
const ADJ = ['stale', 'duplicate', 'missing', 'partial', 'empty', 'expired', 'malformed', 'large'];

function srcFile(r, rng, noun = rng.pick(r.nouns)) {
  const L = r.L;
  if (r.lang === 'py') return `${L.src}/${noun}.py`;
  if (r.lang === 'go') return `${L.src}/${noun}/${noun}.go`;
  if (r.lang === 'ex') return `${L.src}/${r.name.split('-')[0]}/${noun}.ex`;
  return `${L.src}/${noun}.${L.ext}`;
}
function testFile(r, rng, noun = rng.pick(r.nouns)) {
  const L = r.L;
  if (r.lang === 'py') return `${L.testDir}/test_${noun}.py`;
  if (r.lang === 'go') return `${L.src}/${noun}/${noun}_test.go`;
  return `${L.testDir}/${noun}${L.testSuffix}`;
}

function fnName(r, rng) {
  const v = rng.pick(VERBS);
  const n = rng.pick(r.nouns);
  if (r.lang === 'py' || r.lang === 'rs' || r.lang === 'ex' || r.lang === 'rb') return `${v}_${n}`;
  if (r.lang === 'go') return v[0].toUpperCase() + v.slice(1) + n[0].toUpperCase() + n.slice(1);
  return v + n[0].toUpperCase() + n.slice(1);
}

const cap = (w) => w[0].toUpperCase() + w.slice(1);

/** A few lines of plausible code in the repo's language. */
function codeLines(r, rng, n) {
  const out = [];
  while (out.length < n) {
    const f = fnName(r, rng);
    const a = rng.pick(r.nouns);
    switch (r.lang) {
      case 'ts':
        out.push(`export function ${f}(${a}: ${cap(a)}, opts: Options = {}): Result<${cap(a)}> {`, `  if (!${a}.id) return err(new ValidationError('${a} without id'));`, `  const cached = cache.get(${a}.id);`, `  if (cached && !opts.refresh) return ok(cached);`, `  const value = normalize(${a}, opts.locale ?? 'en');`, `  cache.set(${a}.id, value);`, '  return ok(value);', '}', '');
        break;
      case 'py':
        out.push(`def ${f}(${a}: ${cap(a)}, *, refresh: bool = False) -> ${cap(a)}:`, `    """${cap(rng.pick(VERBS))} a ${a}; raises ValueError when it is ${rng.pick(ADJ)}."""`, `    if not ${a}.id:`, `        raise ValueError("${a} without id")`, `    if (hit := _cache.get(${a}.id)) and not refresh:`, '        return hit', `    value = normalize(${a})`, `    _cache[${a}.id] = value`, '    return value', '');
        break;
      case 'go':
        out.push(`func ${f}(ctx context.Context, ${a} *${cap(a)}) error {`, `\tif ${a}.ID == "" {`, `\t\treturn fmt.Errorf("${a} without id: %w", ErrInvalid)`, '\t}', `\tif err := store.Save(ctx, ${a}); err != nil {`, `\t\treturn fmt.Errorf("save ${a}: %w", err)`, '\t}', '\treturn nil', '}', '');
        break;
      case 'rs':
        out.push(`pub fn ${f}(${a}: &${cap(a)}) -> Result<${cap(a)}, Error> {`, `    let id = ${a}.id.as_ref().ok_or(Error::MissingId)?;`, '    if let Some(hit) = CACHE.get(id) {', '        return Ok(hit.clone());', '    }', `    let value = normalize(${a})?;`, '    CACHE.insert(id.clone(), value.clone());', '    Ok(value)', '}', '');
        break;
      case 'ex':
        out.push(`  def ${f}(%{id: nil}), do: {:error, :missing_id}`, '', `  def ${f}(%{id: id} = ${a}) do`, `    case Cache.get(id) do`, '      nil ->', `        value = normalize(${a})`, '        Cache.put(id, value)', '        {:ok, value}', '      hit -> {:ok, hit}', '    end', '  end', '');
        break;
      default:
        out.push(`  def ${f}(${a}, refresh: false)`, `    raise ArgumentError, "${a} without id" if ${a}.id.nil?`, `    return cache[${a}.id] if cache.key?(${a}.id) && !refresh`, '', `    cache[${a}.id] = normalize(${a})`, '  end', '');
    }
  }
  return out.slice(0, n);
}

const PROMPTS = [
  (r, rng) => `fix the failing test in ${testFile(r, rng)}`,
  (r, rng) => `add a --${rng.pick(['json', 'dry-run', 'limit', 'since', 'verbose'])} option to the ${rng.pick(r.nouns)} command`,
  (r) => `the CI build on ${r.branch} is red since this morning, can you look?`,
  (r, rng) => `refactor ${srcFile(r, rng)} so that ${fnName(r, rng)} no longer reads the config directly`,
  (r, rng) => `why does ${fnName(r, rng)} return ${rng.pick(ADJ)} ${rng.pick(r.nouns)}s for some accounts?`,
  (r, rng) => `write tests for ${fnName(r, rng)}, including the ${rng.pick(ADJ)} case`,
  (r) => `bump ${r.dep} to the latest version and make sure everything still passes`,
  (r, rng) => `add validation for the ${rng.pick(r.nouns)} id in ${srcFile(r, rng)}`,
  (r, rng) => `there is a bug: ${rng.pick(r.nouns)}s with a ${rng.pick(ADJ)} ${rng.pick(r.nouns)} crash the ${rng.pick(['export', 'sync', 'import', 'report'])}. repro: run it on yesterday's data`,
  (r, rng) => `update the README section about ${rng.pick(r.nouns)}s and check the examples still run`,
  () => 'run the linters and tests and fix whatever fails',
  (r, rng) => `rename ${fnName(r, rng)} to something clearer and update the callers`,
];

const FOLLOWUPS = [
  'ok, also run the full test suite', 'looks good. commit it', 'can you make the error message clearer?',
  'no, keep the old behaviour for existing accounts', 'great, now update the changelog', 'push it and open a PR',
  'what about the other call sites?', 'please also add a test for the empty case',
];

const THOUGHTS = [
  (f) => `Let me look at ${f} first to see how it is structured before changing anything.`,
  (f) => `The failure points at ${f}. I should read the surrounding code and check the test expectations.`,
  () => 'I need to find where this is called from; a grep should show the call sites.',
  () => 'Before committing I will run the formatter, the linter and the tests, in that order.',
];

// ─── the planner: abstract events ───────────────────────────────────────────────────────────────
//
// Event kinds: user {text}, think {text}, say {text},
//   tool {tool: shell|read|edit|grep|write|task, cmd, path, pattern, old, new, output, exit, lines}
//   endTurn {}

function shellEvent(cmd, output, exit = 0) {
  return { t: 'tool', tool: 'shell', cmd, output, exit };
}

function readEvent(r, rng, path, lines) {
  const code = codeLines(r, rng, lines);
  return { t: 'tool', tool: 'read', path, lines: code, output: code.join('\n'), exit: 0 };
}

function editEvent(path, oldS, newS) {
  return { t: 'tool', tool: 'edit', path, old: oldS, new: newS, output: `The file ${path} has been updated successfully.`, exit: 0 };
}

function grepEvent(r, rng, pattern) {
  const hits = [];
  const k = rng.range(1, 6);
  for (let i = 0; i < k; i++) hits.push(`${srcFile(r, rng)}:${rng.range(3, 240)}:  ${pattern}(${rng.pick(r.nouns)})`);
  return { t: 'tool', tool: 'grep', pattern, output: hits.join('\n'), exit: 0 };
}

/** format → lint → test, the routine every repo repeats before committing. */
function checkSequence(r, rng) {
  const L = r.L;
  return [
    shellEvent(L.fmt, L.fmtOut(srcFile(r, rng))),
    shellEvent(L.lint, r.lang === 'ts' ? '' : r.lang === 'py' ? 'All checks passed!' : ''),
    shellEvent(L.test, L.testOk(r.name)),
  ];
}

/** A pitfall: failing command, diagnosis, fix, successful rerun. */
function pitfallEpisode(r, rng, p) {
  const L = r.L;
  const evs = [];
  const cmd = p.cmd(L);
  evs.push(shellEvent(cmd, p.out(r), p.exit));
  const why = typeof p.why === 'function' ? p.why(r) : p.why;
  evs.push({ t: 'think', text: `The command failed with exit code ${p.exit}. ${why}` });
  evs.push({ t: 'say', text: `${why} Fixing that.` });
  if (p.fix.kind === 'shell') {
    const fixCmd = p.fix.cmd(L);
    evs.push(shellEvent(fixCmd, p.fixOut ?? (fixCmd.includes(L.test) || fixCmd.includes('vitest') ? L.testOk(r.name) : '')));
  } else {
    evs.push(readEvent(r, rng, p.fix.file, rng.range(20, 60)));
    evs.push(editEvent(p.fix.file, p.fix.old, p.fix.new));
    evs.push(shellEvent(cmd === L.lint || cmd === L.build ? cmd : L.test, cmd === L.build ? '' : L.testOk(r.name)));
  }
  evs.push({ t: 'say', text: `Fixed: ${p.lesson}` });
  return evs;
}

/** A test that fails on an assertion, read, fixed, rerun. */
function testFailureEpisode(r, rng) {
  const L = r.L;
  const tf = testFile(r, rng);
  const f = fnName(r, rng);
  const exp = rng.range(2, 40);
  const got = exp + rng.range(1, 5);
  const outs = {
    ts: ` FAIL  ${tf} > ${f} > handles ${rng.pick(ADJ)} input\nAssertionError: expected ${got} to be ${exp} // Object.is equality\n\n- Expected\n+ Received\n\n- ${exp}\n+ ${got}\n\n ❯ ${tf}:${rng.range(10, 90)}:${rng.range(5, 30)}\n\n Test Files  1 failed | 5 passed (6)\n      Tests  1 failed | 56 passed (57)`,
    py: `FAILED ${tf}::test_${f} - assert ${got} == ${exp}\n1 failed, 59 passed in 2.61s`,
    go: `--- FAIL: Test${f} (0.00s)\n    ${f.toLowerCase()}_test.go:${rng.range(10, 90)}: got ${got}, want ${exp}\nFAIL\nFAIL\texample.com/${r.name}/internal/${r.nouns[0]}\t0.311s`,
    rs: `test tests::${f} ... FAILED\n\nfailures:\n\n---- tests::${f} stdout ----\nthread 'tests::${f}' panicked at src/lib.rs:${rng.range(40, 200)}:9:\nassertion \`left == right\` failed\n  left: ${got}\n right: ${exp}\n\ntest result: FAILED. 33 passed; 1 failed; 0 ignored`,
    ex: `  1) test ${f} handles ${rng.pick(ADJ)} input (${r.mod}Test)\n     ${tf}:${rng.range(10, 90)}\n     Assertion with == failed\n     code:  assert ${f}(input) == ${exp}\n     left:  ${got}\n     right: ${exp}\n\n53 tests, 1 failure`,
    rb: `Failures:\n\n  1) ${r.mod} #${f} handles ${rng.pick(ADJ)} input\n     Failure/Error: expect(result).to eq(${exp})\n\n       expected: ${exp}\n            got: ${got}\n\n42 examples, 1 failure`,
  };
  const src = srcFile(r, rng);
  return [
    shellEvent(L.test, outs[r.lang], 1),
    { t: 'think', text: `One test fails: ${f} returns ${got} instead of ${exp}. Probably an off-by-one in the ${rng.pick(r.nouns)} count.` },
    readEvent(r, rng, src, rng.range(30, 120)),
    { t: 'say', text: `The ${rng.pick(r.nouns)} count includes the ${rng.pick(ADJ)} entries; the test expects them to be skipped. I'll filter them before counting.` },
    editEvent(src, codeLines(r, rng, 2).join('\n'), codeLines(r, rng, 3).join('\n')),
    shellEvent(L.test, L.testOk(r.name)),
  ];
}

function bigOutputEvent(r, rng) {
  const n = rng.range(1500, 6000);
  const path = srcFile(r, rng, 'generated');
  return readEvent(r, rng, path, n);
}

const FAKE_ENV = (rng) =>
  [
    'NODE_ENV=development',
    `DATABASE_URL=postgres://app:FakePw${rng.b62(10)}@localhost:5432/app_dev`,
    `GITHUB_TOKEN=ghp_FAKE0${rng.b62(31)}`,
    `OPENAI_API_KEY=sk-proj-FAKE0${rng.b62(40)}`,
    `STRIPE_KEY=sk_test_FAKE0${rng.b62(24)}`,
    'LOG_LEVEL=debug',
  ].join('\n');

const QUESTIONS = [
  (r, rng) => `where is ${fnName(r, rng)} defined?`,
  (r, rng) => `what does ${srcFile(r, rng)} do?`,
  (r) => `which command runs the tests in ${r.name}?`,
  (r, rng) => `is ${fnName(r, rng)} still used anywhere?`,
];

/** A short exchange: a question, one look at the code, an answer (small sessions are mostly these). */
function lightTurn(s, rng, prompt) {
  const r = s.repo;
  const evs = [{ t: 'user', text: prompt }];
  if (rng.chance(0.3)) evs.push({ t: 'think', text: rng.pick(THOUGHTS)(srcFile(r, rng)) });
  const pattern = fnName(r, rng);
  evs.push(rng.chance(0.5) ? grepEvent(r, rng, pattern) : readEvent(r, rng, srcFile(r, rng), rng.range(10, 40)));
  if (rng.chance(0.3)) evs.push(shellEvent(r.L.test, r.L.testOk(r.name)));
  evs.push({ t: 'say', text: `${pattern} is defined in ${srcFile(r, rng)} and called from ${rng.range(1, 5)} places; ${rng.pick(['nothing else depends on it', 'the tests cover the main path', 'it reads the config once at start-up'])}.` });
  evs.push({ t: 'endTurn' });
  return evs;
}

/** Turns lighter than this many bytes of budget are short exchanges. */
const LIGHT_BUDGET = 24000;

/** One user turn and the work that follows it; `budget()` is what the session still may grow. */
function* turns(s, rng, budget) {
  const r = s.repo;
  let first = true;
  for (;;) {
    let prompt = first ? rng.pick(PROMPTS)(r, rng) : rng.chance(0.6) ? rng.pick(FOLLOWUPS) : rng.pick(PROMPTS)(r, rng);
    if (budget() < LIGHT_BUDGET) prompt = rng.pick(QUESTIONS)(r, rng);
    if (first && s.bootstrap) prompt = `${s.bootstrap.text}\n\n${prompt}`;
    if (budget() < LIGHT_BUDGET) {
      first = false;
      yield lightTurn(s, rng, prompt);
      continue;
    }
    const evs = [];
    evs.push({ t: 'user', text: prompt });
    const file = srcFile(r, rng);
    if (rng.chance(0.5)) evs.push({ t: 'think', text: rng.pick(THOUGHTS)(file) });
    evs.push({ t: 'say', text: `I'll start by looking at ${file} and how ${fnName(r, rng)} is used.` });
    if (rng.chance(0.6)) evs.push(grepEvent(r, rng, fnName(r, rng)));
    evs.push(readEvent(r, rng, file, rng.range(20, 160)));
    if (s.subagents && rng.chance(0.35)) evs.push(taskEvent(s, rng));
    if (rng.chance(0.5)) evs.push(readEvent(r, rng, testFile(r, rng), rng.range(20, 100)));
    evs.push(editEvent(file, codeLines(r, rng, rng.range(1, 4)).join('\n'), codeLines(r, rng, rng.range(2, 8)).join('\n')));
    // Pitfalls: rarer when the bootstrap block told the agent about them.
    for (const item of r.items) {
      const warned = s.bootstrap?.ids.includes(item.id);
      if (rng.chance(warned ? 0.03 : 0.18)) evs.push(...pitfallEpisode(r, rng, item.pitfall));
    }
    if (rng.chance(0.3)) evs.push(...testFailureEpisode(r, rng));
    if (rng.chance(0.015)) evs.push(bigOutputEvent(r, rng));
    if (rng.chance(0.01)) evs.push(shellEvent('cat .env', FAKE_ENV(rng)));
    if (rng.chance(0.04)) evs.push(shellEvent(`${rng.pick(['rg', 'jq', 'gh', 'fd'])} --version`, `bash: ${rng.pick(['rg', 'jq', 'gh', 'fd'])}: command not found`, 127));
    evs.push(...checkSequence(r, rng));
    if (rng.chance(0.4)) {
      evs.push(shellEvent('git status --short', ` M ${file}\n M ${testFile(r, rng)}`));
      evs.push(shellEvent(`git add -A && git commit -m "${rng.pick(VERBS)}: handle ${rng.pick(ADJ)} ${rng.pick(r.nouns)}s"`, `[${r.branch} ${rng.hex(7)}] ${rng.pick(VERBS)}: handle ${rng.pick(ADJ)} ${rng.pick(r.nouns)}s\n 2 files changed, ${rng.range(3, 80)} insertions(+), ${rng.range(1, 30)} deletions(-)`));
    }
    evs.push({ t: 'say', text: `Done. ${rng.pick(['All tests pass', 'The linter and the tests are green', 'Everything passes locally'])}; the change is in ${file}.` });
    evs.push({ t: 'endTurn' });
    first = false;
    yield evs;
  }
}

/** A Claude Code Task subagent: its own small session. */
function taskEvent(s, rng) {
  const r = s.repo;
  const prompt = `Explore how ${rng.pick(r.nouns)}s flow through ${r.name}: find where ${fnName(r, rng)} is called, what it returns on errors, and which tests cover it. Report file paths and line numbers.`;
  const events = [
    { t: 'user', text: prompt },
    { t: 'say', text: 'I will search for the call sites first.' },
    grepEvent(r, rng, fnName(r, rng)),
    readEvent(r, rng, srcFile(r, rng), rng.range(40, 200)),
    readEvent(r, rng, testFile(r, rng), rng.range(20, 80)),
    { t: 'say', text: `## Findings\n\n- ${srcFile(r, rng)}:${rng.range(10, 200)} calls it on every request\n- errors are wrapped and returned, never raised\n- ${testFile(r, rng)} covers the happy path only` },
  ];
  return { t: 'tool', tool: 'task', subagentType: rng.pick(['Explore', 'general-purpose', 'Explore']), prompt, events, output: events[events.length - 1].text, exit: 0, agentId: rng.hex(7) };
}

// ─── writers ────────────────────────────────────────────────────────────────────────────────────

const CLAUDE_MODELS = ['claude-opus-4-6', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101'];
const CODEX_MODELS = ['gpt-5.2-codex', 'gpt-5.1-codex', 'gpt-5.2'];

function step(s, rng, lo, hi) {
  s.clock += rng.range(lo, hi);
  return s.clock;
}

/** Read output as Claude Code shows it: `     1→code`. */
function numbered(lines) {
  let out = '';
  for (let i = 0; i < lines.length; i++) out += `${String(i + 1).padStart(6)}→${lines[i]}\n`;
  return out;
}

class ClaudeWriter {
  constructor(ctx, s, rng) {
    this.ctx = ctx;
    this.s = s;
    this.rng = rng;
    this.v2 = rng.chance(0.8); // 2.1.x: progress lines, subagents/ directory
    this.version = this.v2 ? `2.1.${rng.range(7, 45)}` : `2.0.${rng.range(50, 77)}`;
    s.subagents = true;
    this.hooks = this.v2 && rng.chance(0.5);
    this.cwd = `${s.home}/src/${s.repo.name}`;
    this.dir = join(ctx.out, 'claude-code', 'projects', this.cwd.replace(/[^A-Za-z0-9]/g, '-'));
    this.out = new Out(join(this.dir, `${s.id}.jsonl`), ctx.stats, 'claude-code');
    this.parent = null;
    this.slug = `${rng.pick(ADJ)}-${rng.pick(GERUNDS)}-${rng.pick(s.repo.nouns)}`;
    this.model = rng.pick(CLAUDE_MODELS);
    this.sidechain = false;
    this.agentId = undefined;
    this.turnStart = s.clock;
  }
  env() {
    const e = { parentUuid: this.parent, isSidechain: this.sidechain, userType: 'external', cwd: this.cwd, sessionId: this.s.id, version: this.version, gitBranch: this.s.repo.branch };
    if (this.agentId) e.agentId = this.agentId;
    if (this.v2 && !this.sidechain) e.slug = this.slug;
    return e;
  }
  emit(obj, out = this.out) {
    out.line(obj);
    if (obj.uuid) this.parent = obj.uuid;
  }
  begin() {
    const { s, rng } = this;
    const mid = rng.uuid();
    this.out.line({ type: 'file-history-snapshot', messageId: mid, snapshot: { messageId: mid, trackedFileBackups: {}, timestamp: iso(s.clock) }, isSnapshotUpdate: false });
    if (this.hooks) {
      const tu = rng.uuid();
      this.emit({ ...this.env(), type: 'progress', data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:startup', command: 'compound bootstrap --hook' }, parentToolUseID: tu, toolUseID: tu, timestamp: iso(step(s, rng, 5, 80)), uuid: rng.uuid() });
    }
  }
  usage() {
    const rng = this.rng;
    return { input_tokens: rng.range(1, 9), cache_creation_input_tokens: rng.range(0, 20000), cache_read_input_tokens: rng.range(10000, 160000), output_tokens: rng.range(5, 900), service_tier: 'standard' };
  }
  assistant(block, out = this.out) {
    const { s, rng } = this;
    if (!this.msgId) {
      this.msgId = `msg_01${rng.b62(22)}`;
      this.reqId = `req_011C${rng.b62(18)}`;
    }
    const model = this.sidechain ? this.subModel : this.model;
    this.emit({ ...this.env(), message: { model, id: this.msgId, type: 'message', role: 'assistant', content: [block], stop_reason: null, stop_sequence: null, usage: this.usage() }, requestId: this.reqId, type: 'assistant', uuid: rng.uuid(), timestamp: iso(step(s, rng, 300, 6000)) }, out);
  }
  user(content, extra = {}, out = this.out) {
    const { s, rng } = this;
    this.msgId = undefined;
    this.emit({ ...this.env(), type: 'user', message: { role: 'user', content }, uuid: rng.uuid(), timestamp: iso(step(s, rng, 200, 4000)), ...extra }, out);
  }
  event(ev, out = this.out) {
    const { s, rng } = this;
    switch (ev.t) {
      case 'user':
        if (!this.sidechain) {
          step(s, rng, 15000, 300000);
          this.turnStart = s.clock;
        }
        this.user(ev.text, this.sidechain ? {} : { thinkingMetadata: { maxThinkingTokens: 31999 }, todos: [], permissionMode: 'default' }, out);
        return;
      case 'think':
        this.assistant({ type: 'thinking', thinking: ev.text, signature: this.ctx.b64(rng, rng.range(200, 900)) }, out);
        return;
      case 'say':
        this.assistant({ type: 'text', text: ev.text }, out);
        return;
      case 'endTurn':
        if (this.v2) this.emit({ ...this.env(), type: 'system', subtype: 'turn_duration', durationMs: s.clock - this.turnStart, timestamp: iso(step(s, rng, 50, 500)), uuid: rng.uuid(), isMeta: false }, out);
        else if (rng.chance(0.3)) out.line({ type: 'summary', summary: `${rng.pick(VERBS)} ${rng.pick(s.repo.nouns)} handling in ${s.repo.name}`, leafUuid: this.parent });
        if (s.compact && out.size > s.compact) this.compact(out);
        return;
      case 'tool':
        this.tool(ev, out);
        return;
    }
  }
  compact(out) {
    const { s, rng } = this;
    s.compact = undefined;
    const logical = this.parent;
    this.parent = null;
    this.emit({ ...this.env(), logicalParentUuid: logical, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: iso(step(s, rng, 1000, 5000)), uuid: rng.uuid(), level: 'info', compactMetadata: { trigger: 'auto', preTokens: rng.range(150000, 172000) } }, out);
    this.user(`This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked to work on ${s.repo.name}. Files touched so far: ${srcFile(s.repo, rng)}, ${testFile(s.repo, rng)}. Tests pass.\n\nPlease continue the conversation from where we left it off without asking the user any further questions.`, { isCompactSummary: true, isVisibleInTranscriptOnly: true }, out);
  }
  tool(ev, out) {
    const { s, rng } = this;
    const id = `toolu_01${rng.b62(22)}`;
    let name;
    let input;
    let result;
    switch (ev.tool) {
      case 'shell':
        name = 'Bash';
        input = { command: ev.cmd, description: `Run ${ev.cmd.split(' ')[0]}` };
        break;
      case 'read':
        name = 'Read';
        input = { file_path: `${this.cwd}/${ev.path}` };
        break;
      case 'edit':
        name = 'Edit';
        input = { replace_all: false, file_path: `${this.cwd}/${ev.path}`, old_string: ev.old, new_string: ev.new };
        break;
      case 'grep':
        name = 'Grep';
        input = { pattern: ev.pattern, path: this.cwd, output_mode: 'content', '-n': true };
        break;
      case 'task':
        name = 'Task';
        input = { description: 'Explore the code path', prompt: ev.prompt, subagent_type: ev.subagentType };
        break;
    }
    this.assistant({ type: 'tool_use', id, name, input, caller: { type: 'direct' } }, out);
    if (this.hooks && !this.sidechain) {
      this.emit({ ...this.env(), type: 'progress', data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: `PreToolUse:${name}`, command: 'compound guard' }, toolUseID: id, parentToolUseID: id, uuid: rng.uuid(), timestamp: iso(step(s, rng, 20, 200)) }, out);
    }
    if (ev.tool === 'task') return this.task(ev, id, out);
    const err = ev.exit !== 0;
    let text = ev.output;
    if (ev.tool === 'shell') {
      // 2.1.x streams long-running commands as bash_progress lines (most lines of real files).
      if (this.v2 && !this.sidechain && ev.output.length > 80 && rng.chance(0.6)) {
        const chunks = rng.range(1, 4);
        for (let i = 1; i <= chunks; i++) {
          const part = ev.output.slice(0, Math.floor((ev.output.length * i) / (chunks + 1)));
          this.emit({ ...this.env(), type: 'progress', data: { type: 'bash_progress', output: part.slice(-300), fullOutput: part, elapsedTimeSeconds: i * 2, totalLines: part.split('\n').length }, toolUseID: `bash-progress-${i - 1}`, parentToolUseID: id, uuid: rng.uuid(), timestamp: iso(step(s, rng, 1000, 3000)) }, out);
        }
      }
      if (err) text = `Exit code ${ev.exit}\n${ev.output}`;
      result = err ? `Error: ${text}` : { stdout: ev.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    } else if (ev.tool === 'read') {
      text = numbered(ev.lines);
      result = { type: 'text', file: { filePath: input.file_path, content: ev.output, numLines: ev.lines.length, startLine: 1, totalLines: ev.lines.length } };
    } else if (ev.tool === 'edit') {
      text = `The file ${input.file_path} has been updated successfully.`;
      result = { filePath: input.file_path, oldString: ev.old, newString: ev.new, originalFile: `${ev.old}\n`, structuredPatch: [{ oldStart: 1, oldLines: ev.old.split('\n').length, newStart: 1, newLines: ev.new.split('\n').length, lines: [...ev.old.split('\n').map((l) => `-${l}`), ...ev.new.split('\n').map((l) => `+${l}`)] }], userModified: false, replaceAll: false };
    } else {
      result = { mode: 'content', numFiles: ev.output.split('\n').length, filenames: [], content: ev.output, numLines: ev.output.split('\n').length };
    }
    const block = { tool_use_id: id, type: 'tool_result', content: text };
    if (err) block.is_error = true;
    const extra = { toolUseResult: result };
    if (this.v2) extra.sourceToolAssistantUUID = this.parent;
    this.user([block], extra, out);
  }
  task(ev, id, out) {
    const { s, rng, ctx } = this;
    // The subagent's own file; its messages are echoed in the parent as agent_progress lines.
    const path = this.v2 ? join(this.dir, s.id, 'subagents', `agent-${ev.agentId}.jsonl`) : join(this.dir, `agent-${ev.agentId}${rng.hex(1)}.jsonl`);
    const sub = new Out(path, ctx.stats, 'claude-code');
    const saved = { parent: this.parent, msgId: this.msgId };
    this.parent = null;
    this.msgId = undefined;
    this.sidechain = true;
    this.agentId = ev.agentId;
    this.subModel = rng.pick(['claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929']);
    const t0 = s.clock;
    for (const e of ev.events) {
      this.event(e, sub);
      if (this.v2 && e.t !== 'user') {
        this.sidechain = false;
        const agentId = this.agentId;
        this.agentId = undefined;
        const p = this.parent;
        this.parent = saved.parent;
        this.emit({ ...this.env(), type: 'progress', data: { message: { type: 'assistant', timestamp: iso(s.clock), message: { model: this.subModel, id: `msg_01${rng.b62(22)}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: e.text ?? `(${e.tool})` }] } }, normalizedMessages: [], type: 'agent_progress', prompt: ev.prompt, agentId }, toolUseID: `agent_msg_01${rng.b62(20)}`, parentToolUseID: id, uuid: rng.uuid(), timestamp: iso(s.clock) });
        saved.parent = this.parent;
        this.parent = p;
        this.sidechain = true;
        this.agentId = agentId;
      }
    }
    sub.close();
    ctx.subagentFiles++;
    this.sidechain = false;
    this.agentId = undefined;
    this.parent = saved.parent;
    this.msgId = undefined;
    const result = { status: 'completed', prompt: ev.prompt, agentId: ev.agentId, content: [{ type: 'text', text: ev.output }], totalDurationMs: s.clock - t0, totalTokens: rng.range(8000, 60000), totalToolUseCount: 3 };
    const extra = { toolUseResult: result };
    if (this.v2) extra.sourceToolAssistantUUID = this.parent;
    this.user([{ tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text: ev.output }] }], extra, out);
  }
  end() {
    this.out.close();
  }
  get size() {
    return this.out.size;
  }
}

const BASE_INSTRUCTIONS = [
  'You are a coding agent running in a terminal on the user\'s machine. You and the user share one workspace.',
  '',
  '# How you work',
  '',
  '- Read the relevant code before changing it. Prefer small, reviewable changes.',
  '- Run the project\'s formatter, linter and tests before you say a change is done.',
  '- Never revert changes you did not make. Ask before destructive operations.',
  '- Use `rg` for searching and `apply_patch` for editing files.',
  '',
  '# Sandbox and approvals',
  '',
  'Commands run in a sandbox with workspace-write access. Network access is restricted; request escalation when a command needs it.',
  '',
  '# Final answer',
  '',
  'Summarise what changed, which files, and how it was verified. Keep it short.',
].join('\n');

class CodexWriter {
  constructor(ctx, s, rng) {
    this.ctx = ctx;
    this.s = s;
    this.rng = rng;
    this.legacy = rng.chance(0.12);
    this.cwd = `${s.home}/src/${s.repo.name}`;
    const t = s.clock;
    const d = new Date(t);
    // uuidv7-like: the time in the first 48 bits, as real rollout names have.
    const h = Math.floor(t).toString(16).padStart(12, '0');
    this.id = `${h.slice(0, 8)}-${h.slice(8, 12)}-7${rng.hex(3)}-${'89ab'[rng.int(4)]}${rng.hex(3)}-${rng.hex(12)}`;
    s.id = this.id;
    const dir = join(ctx.out, 'codex', 'sessions', String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()));
    this.out = new Out(join(dir, `rollout-${stamp(t)}-${this.id}.jsonl`), ctx.stats, 'codex');
    this.model = rng.pick(CODEX_MODELS);
    this.turn = undefined;
  }
  rec(type, payload) {
    if (this.legacy) this.out.line(payload);
    else this.out.line({ timestamp: iso(this.s.clock), type, payload });
  }
  begin() {
    const { s, rng } = this;
    const git = { commit_hash: rng.hex(40), branch: s.repo.branch, repository_url: `git@github.com:${s.repo.org}/${s.repo.name}.git` };
    if (this.legacy) {
      this.out.line({ id: this.id, timestamp: iso(s.clock), instructions: null, git });
      this.out.line({ record_type: 'state' });
    } else {
      this.rec('session_meta', { id: this.id, timestamp: iso(s.clock), cwd: this.cwd, originator: rng.pick(['codex_cli_rs', 'codex-tui', 'codex_exec']), cli_version: `0.${rng.range(100, 128)}.0`, source: 'cli', model_provider: 'openai', base_instructions: { text: BASE_INSTRUCTIONS }, git });
    }
  }
  event(ev) {
    const { s, rng } = this;
    switch (ev.t) {
      case 'user': {
        step(s, rng, 15000, 300000);
        this.turn = `${Math.floor(s.clock).toString(16).padStart(12, '0').slice(0, 8)}-${rng.hex(4)}-7${rng.hex(3)}-${rng.hex(4)}-${rng.hex(12)}`;
        if (!this.legacy) {
          this.rec('event_msg', { type: 'task_started', turn_id: this.turn, model_context_window: 258400, collaboration_mode_kind: 'default' });
          this.rec('turn_context', { turn_id: this.turn, cwd: this.cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false }, model: this.model, effort: rng.pick(['medium', 'high']), summary: 'auto' });
        }
        if (!this.started) {
          this.started = true;
          this.rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${this.cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>` }] });
        }
        this.rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: ev.text }] });
        if (!this.legacy) this.rec('event_msg', { type: 'user_message', message: ev.text, images: [], local_images: [], text_elements: [] });
        return;
      }
      case 'think':
        step(s, rng, 500, 5000);
        this.rec('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: `**${ev.text.split(' ').slice(0, 4).join(' ')}**\n\n${ev.text}` }], content: null, encrypted_content: `gAAAAA${this.ctx.b64url(rng, rng.range(600, 3000))}` });
        if (!this.legacy) this.rec('event_msg', { type: 'agent_reasoning', text: ev.text });
        return;
      case 'say':
        step(s, rng, 500, 6000);
        if (!this.legacy) this.rec('event_msg', { type: 'agent_message', message: ev.text, phase: 'commentary' });
        this.rec('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ev.text }] });
        this.last = ev.text;
        return;
      case 'endTurn':
        if (!this.legacy) {
          this.rec('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: rng.range(20000, 400000), cached_input_tokens: rng.range(10000, 300000), output_tokens: rng.range(500, 20000), total_tokens: rng.range(30000, 420000) }, model_context_window: 258400 }, rate_limits: null });
          this.rec('event_msg', { type: 'task_complete', turn_id: this.turn, last_agent_message: this.last ?? '' });
        }
        return;
      case 'tool':
        this.tool(ev);
    }
  }
  tool(ev) {
    const { s, rng } = this;
    const callId = `call_${rng.b62(24)}`;
    step(s, rng, 300, 4000);
    if (ev.tool === 'edit') {
      const patch = `*** Begin Patch\n*** Update File: ${this.cwd}/${ev.path}\n@@\n${ev.old.split('\n').map((l) => `-${l}`).join('\n')}\n${ev.new.split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n`;
      this.rec('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
      step(s, rng, 50, 800);
      if (!this.legacy) this.rec('event_msg', { type: 'patch_apply_end', call_id: callId, turn_id: this.turn, stdout: `Success. Updated the following files:\nM ${this.cwd}/${ev.path}\n`, stderr: '', success: true });
      this.rec('response_item', { type: 'custom_tool_call_output', call_id: callId, output: JSON.stringify({ output: `Success. Updated the following files:\nM ${this.cwd}/${ev.path}\n`, metadata: { exit_code: 0, duration_seconds: 0.0 } }) });
      return;
    }
    const cmd = ev.tool === 'shell' ? ev.cmd : ev.tool === 'read' ? `sed -n '1,${ev.lines.length}p' ${ev.path}` : `rg -n "${ev.pattern}" ${s.repo.L.src}`;
    const exitCode = ev.exit;
    const dur = rng.range(20, 9000) / 1000;
    if (this.legacy) {
      this.rec('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', cmd], timeout_ms: 120000 }), call_id: callId });
      step(s, rng, 100, 9000);
      this.rec('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: ev.output, metadata: { exit_code: exitCode, duration_seconds: dur } }) });
      return;
    }
    this.rec('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: this.cwd, yield_time_ms: 10000, max_output_tokens: 12000 }), call_id: callId });
    step(s, rng, 100, 9000);
    this.rec('event_msg', { type: 'exec_command_end', call_id: callId, turn_id: this.turn, command: ['/bin/zsh', '-lc', cmd], cwd: this.cwd, parsed_cmd: [{ type: ev.tool === 'read' ? 'read' : 'unknown', cmd }], stdout: exitCode === 0 ? ev.output : '', stderr: exitCode === 0 ? '' : ev.output, aggregated_output: ev.output, exit_code: exitCode, duration: { secs: Math.floor(dur), nanos: Math.round((dur % 1) * 1e9) }, formatted_output: ev.output.slice(0, 2000), status: exitCode === 0 ? 'completed' : 'failed' });
    this.rec('response_item', { type: 'function_call_output', call_id: callId, output: `Chunk ID: ${rng.hex(6)}\nWall time: ${dur.toFixed(4)} seconds\nProcess exited with code ${exitCode}\nOriginal token count: ${Math.ceil(ev.output.length / 4)}\nOutput:\n${ev.output}` });
  }
  end() {
    this.out.close();
  }
  get size() {
    return this.out.size;
  }
}

const GEMINI_TOOLS = { shell: 'run_shell_command', read: 'read_file', edit: 'replace', grep: 'search_file_content' };
const GEMINI_DISPLAY = { shell: 'Shell', read: 'ReadFile', edit: 'Edit', grep: 'SearchText' };

/** Gemini CLI rewrites one pretty-printed object; sessions are built in memory (they are small). */
class GeminiWriter {
  constructor(ctx, s, rng) {
    this.ctx = ctx;
    this.s = s;
    this.rng = rng;
    this.root = `${s.home}/src/${s.repo.name}`;
    this.hash = createHash('sha256').update(this.root).digest('hex');
    this.msgs = [];
    this.cur = undefined;
    this.bytes = 0;
    this.model = rng.pick(['gemini-2.5-pro', 'gemini-3-pro', 'gemini-2.5-flash']);
    this.start = s.clock;
  }
  begin() {}
  flushGemini() {
    if (this.cur) this.msgs.push(this.cur);
    this.cur = undefined;
  }
  gem() {
    const { s, rng } = this;
    if (!this.cur) {
      this.cur = { id: rng.uuid(), timestamp: iso(step(s, rng, 1000, 9000)), type: 'gemini', content: '', thoughts: [], tokens: { input: rng.range(3000, 90000), output: rng.range(20, 900), cached: rng.range(0, 60000), thoughts: rng.range(0, 400), tool: 0, total: 0 }, model: this.model };
      this.cur.tokens.total = this.cur.tokens.input + this.cur.tokens.output;
    }
    return this.cur;
  }
  event(ev) {
    const { s, rng } = this;
    switch (ev.t) {
      case 'user':
        this.flushGemini();
        step(s, rng, 15000, 300000);
        this.msgs.push({ id: rng.uuid(), timestamp: iso(s.clock), type: 'user', content: ev.text });
        this.bytes += ev.text.length + 120;
        return;
      case 'think':
        this.gem().thoughts.push({ subject: ev.text.split(' ').slice(0, 4).join(' '), description: ev.text, timestamp: iso(s.clock) });
        this.bytes += ev.text.length + 100;
        return;
      case 'say':
        if (this.cur?.toolCalls) this.flushGemini();
        this.gem().content += (this.cur.content ? '\n\n' : '') + ev.text;
        this.bytes += ev.text.length + 60;
        return;
      case 'endTurn':
        this.flushGemini();
        return;
      case 'tool': {
        const name = GEMINI_TOOLS[ev.tool];
        if (!name) return;
        const g = this.gem();
        g.toolCalls ??= [];
        const id = `${name}-${s.clock}-${rng.hex(14)}`;
        const args = ev.tool === 'shell' ? { command: ev.cmd, description: `Run ${ev.cmd.split(' ')[0]}` } : ev.tool === 'read' ? { absolute_path: `${this.root}/${ev.path}` } : ev.tool === 'edit' ? { file_path: `${this.root}/${ev.path}`, old_string: ev.old, new_string: ev.new } : { pattern: ev.pattern };
        const output = ev.tool === 'shell' ? `Command: ${ev.cmd}\nDirectory: (root)\nOutput: ${ev.output}\nError: (none)\nExit Code: ${ev.exit}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${rng.range(1000, 99999)}` : ev.output;
        g.toolCalls.push({ id, name, args, result: [{ functionResponse: { id, name, response: { output } } }], status: ev.exit === 0 ? 'success' : 'error', timestamp: iso(step(s, rng, 200, 6000)), displayName: GEMINI_DISPLAY[ev.tool], description: '', renderOutputAsMarkdown: ev.tool !== 'shell' });
        this.bytes += output.length * 1.2 + 400;
      }
    }
  }
  end() {
    this.flushGemini();
    const { s, rng, ctx } = this;
    const doc = { sessionId: s.id, projectHash: this.hash, startTime: iso(this.start), lastUpdated: iso(s.clock), messages: this.msgs };
    const out = new Out(join(ctx.out, 'gemini-cli', 'tmp', this.hash, 'chats', `session-${stamp(this.start).slice(0, 16)}-${rng.hex(8)}.json`), ctx.stats, 'gemini-cli');
    out.write(JSON.stringify(doc, null, 2));
    out.close();
  }
  get size() {
    return this.bytes;
  }
}

/** Aider appends every session of a repo to one `.aider.chat.history.md`. */
class AiderWriter {
  constructor(ctx, s, rng) {
    this.ctx = ctx;
    this.s = s;
    this.rng = rng;
    const path = join(ctx.out, 'aider', s.repo.name, '.aider.chat.history.md');
    const append = ctx.aiderFiles.has(path);
    ctx.aiderFiles.add(path);
    this.out = new Out(path, ctx.stats, 'aider', append);
    this.model = rng.pick(['gpt-4o', 'claude-3-7-sonnet-20250219', 'deepseek/deepseek-chat', 'o3-mini']);
  }
  begin() {
    const { s } = this;
    const d = new Date(s.clock);
    this.out.write(`\n# aider chat started at ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}\n\n`);
    this.out.write(`> ${s.home.includes('runner') ? '/opt/hostedtoolcache/aider' : 'aider'} --model ${this.model}  \n> Aider v0.${this.rng.range(70, 86)}.${this.rng.range(0, 3)}  \n> Main model: ${this.model} with diff edit format  \n> Git repo: .git with ${this.rng.range(40, 900)} files  \n> Repo-map: using 4096 tokens, auto refresh  \n\n`);
  }
  event(ev) {
    const { s, rng } = this;
    switch (ev.t) {
      case 'user':
        step(s, rng, 15000, 300000);
        this.out.write(`${ev.text.split('\n').map((l) => `#### ${l}`.trimEnd() + '  ').join('\n')}\n\n`);
        return;
      case 'think':
        return;
      case 'say':
        this.out.write(`${ev.text}\n\n`);
        return;
      case 'endTurn':
        this.out.write(`> Tokens: ${rng.range(2, 30)}.${rng.range(0, 9)}k sent, ${rng.range(100, 2000)} received. Cost: $0.${pad(rng.range(0, 99))} message, $0.${pad(rng.range(0, 99))} session.  \n\n`);
        return;
      case 'tool':
        if (ev.tool === 'edit') {
          const ext = /\.([a-z]+)$/.exec(ev.path)?.[1] ?? '';
          const lang = { ts: 'typescript', py: 'python', go: 'go', rs: 'rust', ex: 'elixir', exs: 'elixir', rb: 'ruby' }[ext] ?? (ev.path === 'Makefile' ? 'makefile' : '');
          this.out.write(`${ev.path}\n\`\`\`${lang}\n<<<<<<< SEARCH\n${ev.old}\n=======\n${ev.new}\n>>>>>>> REPLACE\n\`\`\`\n\n`);
          this.out.write(`> Applied edit to ${ev.path}  \n> Commit ${rng.hex(7)} fix: update ${ev.path.split('/').pop()}  \n\n`);
        } else if (ev.tool === 'shell') {
          this.out.write(`#### /run ${ev.cmd}  \n\n${ev.output.split('\n').map((l) => `> ${l}`.trimEnd() + '  ').join('\n')}\n`);
          this.out.write(`> Add ${ev.exit === 0 ? '0.1' : '1.2'}k tokens of command output to the chat? (Y)es/(N)o [Yes]: ${ev.exit === 0 ? 'n' : 'y'}  \n`);
          if (ev.exit !== 0) this.out.write(`> Added ${ev.output.split('\n').length} lines of output to the chat.  \n`);
          this.out.write('\n');
        } else if (ev.tool === 'read') {
          this.out.write(`> Added ${ev.path} to the chat  \n\n`);
        }
    }
  }
  end() {
    this.out.close();
  }
  get size() {
    return this.out.size;
  }
}

/** Python json.dumps style (Hermes): spaces after ":" and ",". */
function pyDumps(v) {
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

const HERMES_TOOLS = ['terminal', 'read_file', 'write_file', 'patch', 'search_files', 'web_search', 'delegate_task'].map((name) => ({ type: 'function', function: { name, description: `${name.replace('_', ' ')} tool`, parameters: { type: 'object', properties: { [name === 'terminal' ? 'command' : 'path']: { type: 'string' } }, required: [] } } }));

/** Hermes gateway JSONL and generic OpenAI-chat JSONL share the message shapes. */
class ChatWriter {
  constructor(ctx, s, rng, hermes) {
    this.ctx = ctx;
    this.s = s;
    this.rng = rng;
    this.hermes = hermes;
    const format = hermes ? 'hermes' : 'openai-chat';
    const path = hermes ? join(ctx.out, 'hermes', 'sessions', `${stamp(s.clock, '', '_', '')}_${rng.hex(6)}.jsonl`) : join(ctx.out, 'openai-chat', s.repo.name, `${s.id}.jsonl`);
    this.out = new Out(path, ctx.stats, format);
    this.pending = [];
    this.text = '';
  }
  line(obj) {
    const s = this.s;
    if (this.hermes) this.out.write(pyDumps({ ...obj, timestamp: naive(s.clock, this.rng) }) + '\n');
    else this.out.line(obj);
  }
  begin() {
    const { s, rng } = this;
    if (this.hermes) this.line({ role: 'session_meta', tools: HERMES_TOOLS, model: rng.pick(['anthropic/claude-sonnet-4', 'minimax/minimax-m2.7', 'moonshotai/kimi-k2']), platform: rng.pick(['cli', 'telegram', 'discord']) });
    else this.line({ role: 'system', content: `You are a coding assistant working in the ${s.repo.name} repository. Use the tools to read files, run commands and edit code.` });
  }
  flushAssistant() {
    if (!this.pending.length && !this.text) return;
    const { rng } = this;
    const calls = this.pending;
    const msg = { role: 'assistant', content: calls.length ? this.text : this.text };
    if (this.hermes) {
      msg.reasoning = this.reasoning ?? null;
      msg.finish_reason = calls.length ? 'tool_calls' : 'stop';
    }
    if (calls.length) msg.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: this.hermes ? pyDumps(c.args) : JSON.stringify(c.args) } }));
    this.line(msg);
    for (const c of calls) {
      step(this.s, rng, 100, 9000);
      this.line({ role: 'tool', content: c.content, tool_call_id: c.id });
    }
    this.pending = [];
    this.text = '';
    this.reasoning = undefined;
  }
  event(ev) {
    const { s, rng } = this;
    switch (ev.t) {
      case 'user':
        this.flushAssistant();
        step(s, rng, 15000, 300000);
        this.line({ role: 'user', content: ev.text });
        return;
      case 'think':
        this.reasoning = ev.text;
        return;
      case 'say':
        if (this.pending.length) this.flushAssistant();
        step(s, rng, 500, 6000);
        this.text = this.text ? `${this.text}\n\n${ev.text}` : ev.text;
        return;
      case 'endTurn':
        this.flushAssistant();
        return;
      case 'tool': {
        if (ev.tool === 'task') return;
        const id = this.hermes ? `call_${rng.b62(24)}` : `call_${rng.hex(24)}`;
        const name = { shell: this.hermes ? 'terminal' : 'bash', read: 'read_file', edit: this.hermes ? 'patch' : 'edit_file', grep: this.hermes ? 'search_files' : 'grep' }[ev.tool];
        const args = ev.tool === 'shell' ? { command: ev.cmd } : ev.tool === 'read' ? { path: ev.path } : ev.tool === 'edit' ? { path: ev.path, old_string: ev.old, new_string: ev.new } : { pattern: ev.pattern };
        const content = ev.tool === 'shell' ? (this.hermes ? pyDumps({ output: ev.output, exit_code: ev.exit, error: ev.exit === 0 ? null : `Command exited with code ${ev.exit}` }) : JSON.stringify({ stdout: ev.output, exit_code: ev.exit })) : ev.output;
        this.pending.push({ id, name, args, content });
      }
    }
  }
  end() {
    this.flushAssistant();
    this.out.close();
  }
  get size() {
    return this.out.size;
  }
}

// ─── driver ─────────────────────────────────────────────────────────────────────────────────────

const FORMAT_MIX = [
  [46, 'claude-code'],
  [34, 'codex'],
  [7, 'gemini-cli'],
  [5, 'aider'],
  [4, 'openai-chat'],
  [4, 'hermes'],
];

function makeWriter(format, ctx, s, rng) {
  switch (format) {
    case 'claude-code':
      return new ClaudeWriter(ctx, s, rng);
    case 'codex':
      return new CodexWriter(ctx, s, rng);
    case 'gemini-cli':
      return new GeminiWriter(ctx, s, rng);
    case 'aider':
      return new AiderWriter(ctx, s, rng);
    case 'hermes':
      return new ChatWriter(ctx, s, rng, true);
    default:
      return new ChatWriter(ctx, s, rng, false);
  }
}

/** Bootstrap block the next session was given: a few of the repo's lessons. */
function bootstrapFor(r, rng) {
  const items = rng.sample(r.items, rng.range(2, Math.min(4, r.items.length)));
  const ids = items.map((i) => i.id);
  const body = items.map((i) => `- ${i.pitfall.lesson}`).join('\n');
  return { ids, text: `<!-- compound:bootstrap ids=${ids.join(',')} -->\n## What earlier sessions learned in ${r.name}\n\n${body}\n<!-- /compound:bootstrap -->` };
}

/** A random pool the signatures and encrypted blobs are sliced from (cheap, deterministic). */
function makePool(seed, alphabet, n) {
  const rng = new Rng(seed, 0x7f7f7f);
  return rng.chars(alphabet, n);
}

function sliceFrom(pool) {
  return (rng, n) => {
    const at = rng.int(pool.length - n - 1);
    return pool.slice(at, at + n);
  };
}

export function generate(opts) {
  const { out, sessions, bytes, seed, quiet } = opts;
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`--out ${out} exists and is not empty`);
  mkdirSync(out, { recursive: true });
  const world = new Rng(seed, 0xabcdef);
  const repos = makeRepos(world);
  const ctx = {
    out,
    stats: new Stats(),
    aiderFiles: new Set(),
    subagentFiles: 0,
    b64: sliceFrom(makePool(seed, `${B62}+/`, 1 << 18)),
    b64url: sliceFrom(makePool(seed + 1, `${B62}-_`, 1 << 18)),
  };
  let written = 0;
  for (let i = 0; i < sessions; i++) {
    const rng = new Rng(seed, i + 1);
    const format = rng.weighted(FORMAT_MIX);
    const repo = repos[Math.min(repos.length - 1, Math.floor(Math.pow(rng.float(), 1.6) * repos.length))];
    // Size: log-normal around what is left per remaining session, so the total lands near --bytes.
    const mean = Math.max(2048, (bytes - written) / (sessions - i));
    const cap = format === 'gemini-cli' ? 4 << 20 : 48 << 20;
    const wanted = Math.min(cap, Math.max(1500, rng.lognormal(mean, 1.0)));
    const target = wanted;
    const s = {
      id: rng.uuid(),
      repo,
      home: repo.user === 'runner' ? '/home/runner/work' : rng.chance(0.3) ? `/Users/${repo.user}` : `/home/${repo.user}`,
      clock: sessionStart(rng),
      bootstrap: rng.chance(0.12) ? bootstrapFor(repo, rng) : undefined,
      compact: target > 400000 && rng.chance(0.6) ? Math.floor(target * 0.6) : undefined,
      subagents: false,
    };
    const before = ctx.stats.bytes;
    const w = makeWriter(format, ctx, s, rng);
    w.begin();
    // Whole turns only: stop when one more average turn would overshoot more than it fills.
    let done = 0;
    for (const turn of turns(s, rng, () => target - w.size)) {
      for (const ev of turn) w.event(ev);
      done++;
      if (w.size + w.size / done / 2 >= target) break;
    }
    w.end();
    ctx.stats.session(format);
    const got = ctx.stats.bytes - before;
    written += got;
    if (!quiet && (i + 1) % 1000 === 0) process.stderr.write(`gen-corpus: ${i + 1}/${sessions} sessions, ${(ctx.stats.bytes / 1024 ** 2).toFixed(0)} MiB\n`);
  }
  const manifest = {
    generator: 'bench/gen-corpus.mjs',
    seed,
    sessions,
    targetBytes: bytes,
    bytes: ctx.stats.bytes,
    files: ctx.stats.files,
    subagentFiles: ctx.subagentFiles,
    repos: repos.map((r) => ({ name: r.name, lang: r.lang, items: r.items.map((i) => i.id) })),
    formats: ctx.stats.byFormat,
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`gen-corpus: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  try {
    const m = generate(opts);
    if (!opts.quiet) process.stderr.write(`gen-corpus: ${m.sessions} sessions, ${m.files} files, ${(m.bytes / 1024 ** 2).toFixed(1)} MiB in ${opts.out}\n`);
  } catch (err) {
    console.error(`gen-corpus: ${err.message}`);
    process.exit(1);
  }
}

export { parseArgs, Rng };
