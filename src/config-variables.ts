// Every environment variable loadConfig (config.ts) reads, with its default and meaning: the source of the
// table in docs/configuration.md (`npm run docs:config` writes it). test/config-docs.test.ts holds the two
// together: each variable loadConfig reads is listed here, and setting a listed default changes nothing.
import { DEFAULT_DELIVERY_SCHEDULE, DEFAULT_PIPELINE_SCHEDULE } from './config.ts';

export interface ConfigVariable {
  name: string;
  /** The value loadConfig uses when the variable is unset, written as the variable would be; absent when there is none. */
  default?: string;
  /** Shown instead of a default where there is none. */
  otherwise?: string;
  /** Markdown, with links relative to docs/. */
  meaning: string;
}

/** Read only to refuse them with a message naming their replacement. */
export const RETIRED_VARIABLES = [
  'INTAKE_PIPELINE_RETRY_BASE_MS', 'INTAKE_PIPELINE_RETRY_MAX_MS', 'INTAKE_DELIVERY_RETRY_BASE_MS', 'INTAKE_DELIVERY_RETRY_MAX_MS',
];

export const CONFIG_VARIABLES: ConfigVariable[] = [
  { name: 'PORT', default: '3000', meaning: 'the port the server listens on' },
  { name: 'HOST', default: '0.0.0.0', meaning: 'the address the server listens on' },
  { name: 'INTAKE_PUBLIC_URL', otherwise: "the request's own origin", meaning: 'base URL of the `endpoint` links handed out and of the links printed at start (set it behind a proxy)' },
  { name: 'INTAKE_DATA_DIR', default: './data', meaning: 'directory of the embedded SQLite database' },
  { name: 'INTAKE_SECRET_KEY', otherwise: '`secret.key` in the data directory', meaning: 'the key that encrypts stored secrets (webhook signing secrets, chat webhook URLs, Telegram bot tokens, the OAuth signing key): 32 random bytes in base64 (`openssl rand -base64 32`) or hex. Unset, the key file `secret.key` in `INTAKE_DATA_DIR` is used, made `0600` on the first start of a new database. Set it (the same in every process) when processes do not share one data directory: PostgreSQL with several machines or containers. A process whose key does not open the database\'s secrets refuses to start (see [Security](security.md#secrets-at-rest-and-file-permissions))' },
  { name: 'DATABASE_URL', otherwise: 'unset', meaning: '`postgres://…`: use PostgreSQL instead of SQLite' },
  { name: 'INTAKE_DATABASE_POOL_SIZE', default: '10', meaning: 'PostgreSQL connections per process, shared by its API and its workers' },
  { name: 'INTAKE_DATABASE_CONNECT_TIMEOUT_MS', default: '5000', meaning: 'PostgreSQL: longest wait for a connection of the pool; past it the request is answered `503` (see [Operations](operations.md))' },
  { name: 'INTAKE_DATABASE_STATEMENT_TIMEOUT_MS', default: '30000', meaning: 'PostgreSQL: longest a statement may run (a lock held elsewhere, a runaway query) before the server cancels it and the request is answered `503`; `0` for no limit; migrations run without it' },
  { name: 'INTAKE_SQLITE_BUSY_TIMEOUT_MS', default: '10000', meaning: "SQLite: longest wait for another process's write lock; past it `503`" },
  { name: 'INTAKE_SQLITE_WRITER_THREAD', default: 'auto', meaning: 'SQLite: `auto` stores submissions on the main thread where the workers are embedded (`npm start`), and otherwise from a worker thread started once several arrive at once; `true` starts the thread with the first write, `false` never does (the thread: more submissions/s for an API process under load, about 25 MB idle and up to 100 MB at peak; see [Memory](memory.md))' },
  { name: 'INTAKE_MAX_BODY_BYTES', default: '65536', meaning: 'largest request body; larger ones get `413`' },
  { name: 'INTAKE_MAX_UPLOAD_BYTES', default: '26214400', meaning: 'largest total of the uploaded files of one submission (25 MiB), whatever the form\'s own limits; more gets `413` (see [Files](files.md))' },
  { name: 'INTAKE_UPLOAD_CONCURRENCY', default: '4', meaning: 'uploaded files the process reads at once; a file beyond them waits, unread (TCP holds its sender back), so uploads cannot crowd out every other request; 1 keeps the latency of JSON submits closest to normal beside uploads, at the risk of one slow sender holding the only slot (see [Files](files.md#performance))' },
  { name: 'INTAKE_UPLOAD_QUEUE_TIMEOUT_MS', default: '30000', meaning: 'how long a file waits for its turn under `INTAKE_UPLOAD_CONCURRENCY`; after that its post gets `503` with `Retry-After`' },
  { name: 'INTAKE_UPLOAD_BANDWIDTH', default: '0', meaning: 'bytes a second the process reads of all uploaded files together (`0`, the default: no limit; else at least `65536`, e.g. `16777216` for 16 MiB/s): upload bytes pass through the thread that answers every request, so a limit keeps uploads from crowding out the JSON submits, at the price of slower uploads (see [Performance](performance.md#file-uploads))' },
  { name: 'INTAKE_FILE_LINK_TTL_S', default: '86400', meaning: 'seconds a signed file download link in a webhook, chat message or export stays valid (see [Files](files.md))' },
  { name: 'INTAKE_FILE_EMAIL_LINK_TTL_S', default: '604800', meaning: 'seconds a signed file download link in a notification email stays valid (7 days)' },
  { name: 'INTAKE_STORAGE', default: 'disk', meaning: 'where uploaded files live: `disk` (under `INTAKE_DATA_DIR/files/`) or `s3`, an S3-compatible bucket that several processes share (see [Files](files.md#storage))' },
  { name: 'INTAKE_STORAGE_S3_ENDPOINT', otherwise: 'AWS', meaning: 'S3: the endpoint of an S3-compatible store (`https://s3.example.com`, MinIO, Garage, R2); unset for AWS itself' },
  { name: 'INTAKE_STORAGE_S3_BUCKET', otherwise: 'unset', meaning: 'S3: the bucket, which must exist; required with `INTAKE_STORAGE=s3`. A missing bucket or refused keys stop the server at start' },
  { name: 'INTAKE_STORAGE_S3_REGION', default: 'us-east-1', meaning: "S3: the bucket's region" },
  { name: 'INTAKE_STORAGE_S3_ACCESS_KEY_ID', otherwise: 'the AWS credential chain', meaning: 'S3: the access key id (with the secret access key; both unset: the environment or instance role)' },
  { name: 'INTAKE_STORAGE_S3_SECRET_ACCESS_KEY', otherwise: 'the AWS credential chain', meaning: 'S3: the secret access key' },
  { name: 'INTAKE_STORAGE_S3_FORCE_PATH_STYLE', default: 'false', meaning: 'S3: `true` to address the bucket as `endpoint/bucket` rather than `bucket.endpoint` (MinIO and most self-hosted stores)' },
  { name: 'INTAKE_CLAMAV_URL', otherwise: 'unset', meaning: 'clamd (`tcp://host:port`, its `TCPSocket`): uploaded files are scanned before notifications go out, an infected one quarantined; while clamd does not answer, submissions wait (see [Files](files.md#malware-scanning))' },
  { name: 'INTAKE_CLAMAV_TIMEOUT_MS', default: '30000', meaning: 'longest wait for clamd\'s verdict on one file' },
  { name: 'INTAKE_TRUST_PROXY', default: 'false', meaning: 'take the client IP from `X-Forwarded-For` (only behind a proxy you run)' },
  { name: 'INTAKE_SUBMIT_RATE_LIMIT', default: '10', meaning: 'submissions (and, separately, discovery requests) per minute per IP' },
  { name: 'INTAKE_API_RATE_LIMIT', default: '60', meaning: 'management requests per minute per API key, all routes together; requests without a valid key count per IP' },
  { name: 'INTAKE_MCP_RATE_LIMIT', default: '30', meaning: 'MCP tool calls (`tools/call` posted to `/mcp`) per minute per API key; the requests that open a session (`initialize`, notifications, `tools/list`, `GET /mcp`) do not count; every request without a valid key counts per IP' },
  { name: 'INTAKE_MCP_ALLOWED_ORIGINS', otherwise: 'none', meaning: "browser origins (comma-separated) allowed to call `/mcp` beside `INTAKE_PUBLIC_URL`'s; without a public URL, loopback origins are allowed; any other `Origin` gets 403" },
  { name: 'INTAKE_LOGIN_RATE_LIMIT', default: '10', meaning: 'dashboard log-in attempts (and set-up, sign-up, set-password) per minute per IP' },
  { name: 'INTAKE_LOGIN_ACCOUNT_RATE_LIMIT', default: '30', meaning: 'log-in attempts per hour per account, from all addresses together (a guesser spread over many addresses)' },
  { name: 'INTAKE_OAUTH_RATE_LIMIT', default: '30', meaning: 'requests to the OAuth endpoints (`/oauth/*`: registration, authorization, token, revocation) and their discovery documents per minute per IP, all together' },
  { name: 'INTAKE_OAUTH_REGISTER_RATE_LIMIT', default: '10', meaning: 'OAuth client registrations (`POST /oauth/register`) per hour per IP (see [Security](security.md#oauth-sessions-registrations-and-tokens))' },
  { name: 'REDIS_URL', otherwise: 'unset', meaning: '`redis://…` or `rediss://…`: rate limits and per-destination in-flight caps are shared by every process through Redis (see [Several processes](production.md#several-processes))' },
  { name: 'INTAKE_REDIS_PREFIX', default: 'intake:', meaning: 'prefix of every Redis key Intake writes, so several instances can share one Redis' },
  { name: 'INTAKE_REDIS_TIMEOUT_MS', default: '50', meaning: 'longest wait for one rate-limit command; past it the request is counted in memory (see [Operations](operations.md))' },
  { name: 'INTAKE_REDIS_BREAK_AFTER', default: '3', meaning: 'Redis failures in a row after which every request uses memory at once' },
  { name: 'INTAKE_REDIS_PROBE_MS', default: '500', meaning: 'how often Redis is pinged while the fallback is in force' },
  { name: 'INTAKE_SIGNUP', default: 'closed', meaning: '`open`: anyone may create an account on the dashboard; `closed`: the owner adds people with `intake users create`' },
  { name: 'INTAKE_FREE_SUBMISSION_LIMIT', default: '5000', meaning: 'lifetime submissions of a free owner, across all forms' },
  { name: 'INTAKE_FREE_AI_CREDITS', default: '50', meaning: 'one-time AI credits of a free owner' },
  { name: 'INTAKE_PRO_MONTHLY_AI_CREDITS', default: '500', meaning: 'monthly AI credits of a pro owner; use beyond them is metered' },
  { name: 'INTAKE_BILLING_URL', default: 'https://intake.example/billing', meaning: 'the `upgrade_url` of `plan_limit_exhausted` errors' },
  { name: 'INTAKE_LOG_LEVEL', default: 'info', meaning: '`fatal` … `trace`, or `silent`. One line per request, written when it is answered; successful page and asset reads (the dashboard, `/healthz`) only at `debug`' },
  { name: 'INTAKE_METRICS_TOKEN', otherwise: 'unset', meaning: 'serves Prometheus metrics at `GET /metrics` on the main port, to requests with `Authorization: Bearer <token>` (at least 16 characters; others get `401`); unset, `/metrics` does not exist (see [Metrics](metrics.md))' },
  { name: 'INTAKE_METRICS_PORT', otherwise: 'unset', meaning: 'serves the same metrics without a token on `127.0.0.1` at this port only (never another address), for a Prometheus or agent on the same machine; each process (`serve`, `worker`) needs its own port (see [Metrics](metrics.md))' },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', otherwise: 'unset', meaning: 'an OpenTelemetry collector or tracing backend (`http://127.0.0.1:4318`): each process sends its traces there as OTLP/HTTP JSON, to `/v1/traces`; a submission\'s trace runs from its request through the queue to each pipeline step and each delivery. Unset, no tracing code is loaded (see [Tracing](tracing.md))' },
  { name: 'OTEL_SERVICE_NAME', default: 'intake', meaning: 'the `service.name` of the traces this process sends' },
  { name: 'OTEL_BSP_MAX_QUEUE_SIZE', default: '2048', meaning: 'spans waiting to be exported, at most (OpenTelemetry\'s own variable; also bounds those on their way to the export thread): past it new spans are dropped, never requests slowed' },
  { name: 'INTAKE_EMBEDDED_WORKER', default: 'true', meaning: 'run the workers inside `serve`; `false` when they run as their own processes (see [Memory](memory.md) for the memory either way)' },
  { name: 'INTAKE_WORKER_CONCURRENCY', default: '8', meaning: 'jobs one worker process runs at once, and submissions it has waiting on a provider (a model, a translation server) at once' },
  { name: 'INTAKE_WORKER_LEASE_MS', default: '30000', meaning: 'a job whose worker stops renewing its lease this long is taken up by another; a worker known to be gone (no such process on this machine; on PostgreSQL, its session closed) frees its jobs within seconds' },
  { name: 'INTAKE_WORKER_POLL_MS', default: '50', meaning: 'how often an idle SQLite worker looks for jobs another process enqueued (its own process wakes it at once); PostgreSQL workers are notified of new jobs and poll at least a second apart for retries that come due' },
  { name: 'INTAKE_PIPELINE_MAX_ATTEMPTS', default: '5', meaning: 'attempts of a step against a failing provider before the submission is `failed`' },
  { name: 'INTAKE_PIPELINE_RETRY_SCHEDULE', default: DEFAULT_PIPELINE_SCHEDULE, meaning: "delays before the 1st, 2nd, … retry of a step against a failing provider; the last repeats; ±10 % jitter; a provider's `Retry-After` is honoured (see [Retry schedules](notifications.md#retry-schedules))" },
  { name: 'INTAKE_PG_JOBS_SCHEMA', default: 'graphile_worker', meaning: 'PostgreSQL schema of the job tables; every process of one deployment uses the same (a start with another moves where submissions\' jobs go)' },
  { name: 'INTAKE_RETENTION_INTERVAL_MS', default: '3600000', meaning: "how often the workers delete what is past its form's retention (see [Your data](data.md)), and expired OAuth records" },
  { name: 'INTAKE_AI_BASE_URL', otherwise: 'unset', meaning: 'an OpenAI-compatible chat-completions server, base URL with `/v1` (OpenAI, Ollama `http://host:11434/v1`, vLLM, llama.cpp)' },
  { name: 'INTAKE_AI_MODEL', otherwise: 'unset', meaning: 'the model to ask; required with `INTAKE_AI_BASE_URL`' },
  { name: 'INTAKE_AI_API_KEY', otherwise: 'unset', meaning: "the model server's key, if it needs one" },
  { name: 'INTAKE_AI_TIMEOUT_MS', default: '30000', meaning: 'per model request' },
  { name: 'INTAKE_TRANSLATE_URL', otherwise: 'unset', meaning: 'a LibreTranslate-compatible server' },
  { name: 'INTAKE_TRANSLATE_API_KEY', otherwise: 'unset', meaning: "that server's key, if it needs one" },
  { name: 'INTAKE_DEEPL_API_KEY', otherwise: 'unset', meaning: 'DeepL (keys ending `:fx` use the free API host)' },
  { name: 'INTAKE_DEEPL_URL', otherwise: "the key's API host", meaning: 'another DeepL-compatible host' },
  { name: 'INTAKE_TRANSLATE_TIMEOUT_MS', default: '15000', meaning: 'per translation request' },
  { name: 'INTAKE_OUTBOUND_ALLOW', otherwise: 'empty', meaning: 'comma-separated hosts and CIDR ranges that notifications may reach although private or local (e.g. `hooks.internal,10.0.0.0/8`); allowed hosts may also use plain `http://`' },
  { name: 'INTAKE_SMTP_URL', otherwise: 'unset', meaning: 'SMTP server (`smtp://user:pass@host:587`, `smtps://…`) for email destinations and owner alerts' },
  { name: 'INTAKE_MAIL_FROM', otherwise: 'unset', meaning: 'the sender of those emails; required with `INTAKE_SMTP_URL`' },
  { name: 'INTAKE_DELIVERY_TIMEOUT_MS', default: '15000', meaning: 'per delivery attempt' },
  { name: 'INTAKE_DELIVERY_MAX_ATTEMPTS', default: '8', meaning: 'attempts of one delivery; after the last, the destination is disabled' },
  { name: 'INTAKE_DELIVERY_RETRY_SCHEDULE', default: DEFAULT_DELIVERY_SCHEDULE, meaning: 'delays before each retry of a delivery: the first attempt goes at once, then these; the last repeats; ±10 % jitter (8 attempts over about 27 h)' },
  { name: 'INTAKE_DELIVERY_DISABLE_AFTER', default: '15', meaning: 'failed attempts in a row, across submissions, that disable a destination' },
  { name: 'INTAKE_DELIVERY_CONCURRENCY', default: '16', meaning: 'deliveries one worker process sends at once (a destination gets at most 2 of them); also the smart replies it emails at once' },
  { name: 'INTAKE_CAPTCHA_CHALLENGE_TTL_S', default: '600', meaning: 'seconds an ALTCHA challenge may be solved and sent in; each solution is accepted once (see [CAPTCHA](captcha.md))' },
  { name: 'INTAKE_ALTCHA_COST', default: '5000', meaning: "PBKDF2 iterations of one ALTCHA attempt: with `INTAKE_ALTCHA_MAX_COUNTER`, the work a visitor's browser does" },
  { name: 'INTAKE_ALTCHA_MAX_COUNTER', default: '10000', meaning: 'the most attempts an ALTCHA challenge takes (each needs between half this and this)' },
  { name: 'INTAKE_TURNSTILE_VERIFY_URL', default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', meaning: "Cloudflare Turnstile's siteverify URL" },
  { name: 'INTAKE_HCAPTCHA_VERIFY_URL', default: 'https://api.hcaptcha.com/siteverify', meaning: "hCaptcha's siteverify URL" },
  { name: 'INTAKE_RECAPTCHA_VERIFY_URL', default: 'https://www.google.com/recaptcha/api/siteverify', meaning: "Google reCAPTCHA's siteverify URL" },
  { name: 'INTAKE_CAPTCHA_VERIFY_TIMEOUT_MS', default: '5000', meaning: 'longest wait for a siteverify answer; a provider that does not answer in time gets the submission stored as spam, never as clean' },
  { name: 'INTAKE_RECAPTCHA_MIN_SCORE', default: '0.5', meaning: 'reCAPTCHA v3: a score below this fails the CAPTCHA (v2 answers carry no score)' },
  { name: 'INTAKE_KB_MAX_BYTES', default: '524288', meaning: 'largest knowledge base content (UTF-8 bytes, 512 KiB)' },
  { name: 'INTAKE_SMART_REPLY_CREDITS', default: '2', meaning: 'AI credits one smart reply costs' },
];

export const TABLE_START = '<!-- config-table:start (generated by npm run docs:config from src/config-variables.ts; do not edit) -->';
export const TABLE_END = '<!-- config-table:end -->';

export function configTable(variables: ConfigVariable[] = CONFIG_VARIABLES): string {
  const rows = variables.map((v) => `| \`${v.name}\` | ${v.default !== undefined ? `\`${v.default}\`` : v.otherwise ?? 'unset'} | ${v.meaning} |`);
  return [TABLE_START, '', '| Variable | Default | Meaning |', '|---|---|---|', ...rows, '', TABLE_END].join('\n');
}

/** The page with its table replaced; throws when the markers are missing. */
export function withConfigTable(page: string, variables: ConfigVariable[] = CONFIG_VARIABLES): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error('docs/configuration.md has no config-table markers');
  return `${page.slice(0, start)}${configTable(variables)}${page.slice(end + TABLE_END.length)}`;
}
