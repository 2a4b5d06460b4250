// The environment, read and validated once. Nothing else in src/ reads process.env:
// everything that varies between deployments arrives here and is passed down. A feature's own
// section may be read in a file of its own beside this one (config-files.ts), called from loadConfig.
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { parseKey } from './secrets/box.ts';
import { boolean, ConfigError, fraction, identifier, integer, read, schedule, url, withoutTrailingSlashes, type Env } from './config-readers.ts';
import { filesConfig, type FilesConfig } from './config-files.ts';

export { ConfigError } from './config-readers.ts';
export { DEFAULT_UPLOAD_BANDWIDTH, type S3StorageConfig } from './config-files.ts';

export const DEFAULT_DELIVERY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
/** A provider's blip is retried within seconds; an outage gets a few minutes before the submission fails. */
export const DEFAULT_PIPELINE_SCHEDULE = '2s,10s,1m,5m';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;


export type Plan = 'free' | 'pro';

export interface Config {
  port: number;
  host: string;
  /** Base URL used to build submission endpoints; when unset, the request's own origin is used. */
  publicUrl: string | null;
  dataDir: string;
  /**
   * The key that seals stored secrets (INTAKE_SECRET_KEY, 32 bytes in base64 or hex); null: the key
   * file in dataDir, made on the first start of a new database (secrets/key.ts).
   */
  secretKey: string | null;
  /** postgres://… when set; otherwise the embedded SQLite file under dataDir. */
  databaseUrl: string | null;
  /** PostgreSQL connections per process (its API, its workers and their queue share them). */
  poolSize: number;
  /** PostgreSQL: longest wait for a connection, in ms; past it a request is answered 503. */
  connectTimeoutMs: number;
  /** PostgreSQL: longest a statement may run before the server cancels it; 0 for no limit. */
  statementTimeoutMs: number;
  /** SQLite: longest wait for another connection's write lock, in ms; past it a request is answered 503. */
  sqliteBusyTimeoutMs: number;
  /**
   * SQLite: where submissions are stored. `auto` (default): in a process with embedded workers, on the
   * main thread; in an API process without them, on the main thread until a batch of several arrives at
   * once, then in a worker thread for good, so that commits under load never hold the event loop while a
   * quiet server never pays the thread's memory. `true`: the thread from the first write; `false`: never
   * (docs/memory.md).
   */
  sqliteWriterThread: 'auto' | 'true' | 'false';
  maxBodyBytes: number;
  /** Uploaded files (docs/files.md): config-files.ts. */
  files: FilesConfig;
  trustProxy: boolean;
  /**
   * Browser origins allowed to call /mcp beside INTAKE_PUBLIC_URL's (or, without one, loopback
   * origins): the transport must refuse other Origins, which is what stops DNS rebinding.
   */
  mcpAllowedOrigins: string[];
  rateLimits: {
    submitPerMinute: number; apiPerMinute: number; mcpPerMinute: number; loginPerMinute: number; loginPerAccountPerHour: number;
    oauthPerMinute: number; oauthRegisterPerHour: number;
  };
  /** `open`: anyone may create an account on the dashboard; `closed` (default): the owner adds people with the CLI. */
  signup: 'open' | 'closed';
  /**
   * Where counters that several processes share live (rate limits, in-flight caps per destination):
   * Redis when a URL is set, else PostgreSQL when that is the database, else this process's memory.
   */
  redis: {
    url: string;
    prefix: string;
    /** Longest wait for one command, in ms: past it the request goes on with this process's memory. */
    commandTimeoutMs: number;
    /** Consecutive failures or timeouts after which every request uses this process's memory at once. */
    breakAfter: number;
    /** How often Redis is tried again while the fallback is in force, in ms. */
    probeMs: number;
  } | null;
  freeSubmissionLimit: number;
  freeAiCredits: number;
  proMonthlyAiCredits: number;
  billingUrl: string;
  /** An OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp); null: AI runs offline only. */
  ai: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  translation: {
    /** A LibreTranslate-compatible server. */
    libreTranslate: { url: string; apiKey: string | null } | null;
    deepl: { apiKey: string; url: string } | null;
    timeoutMs: number;
  };
  pipeline: {
    /** Run the worker inside `intake serve`; false when workers run as their own processes. */
    embeddedWorker: boolean;
    concurrency: number;
    /** Attempts of one step against a failing provider before the submission is `failed`. */
    maxAttempts: number;
    /** Delays before each retry, in ms; the last repeats. */
    retrySchedule: number[];
    /** A job whose worker stops renewing it for this long is taken up by another worker. */
    leaseMs: number;
    /** How often an idle worker looks for work another process enqueued (SQLite; PostgreSQL is notified). */
    pollMs: number;
    /** PostgreSQL schema of graphile-worker's job tables. */
    jobsSchema: string;
    /** How often the retention purge runs, across all processes together. */
    retentionIntervalMs: number;
  };
  delivery: {
    /** Hosts and CIDR ranges that outbound requests may reach although they are private or local. */
    outboundAllow: string[];
    smtp: { url: string; from: string } | null;
    timeoutMs: number;
    /** Attempts of one delivery; after the last the destination is disabled. */
    maxAttempts: number;
    /** Delays before each retry, in ms; the last repeats. */
    retrySchedule: number[];
    /** Consecutive failed attempts, across submissions, that disable a destination. */
    disableAfter: number;
    concurrency: number;
  };
  /** CAPTCHA on submission endpoints (src/captcha): the hosted providers' verify URLs and ALTCHA's own proof of work. */
  captcha: {
    /** Seconds an ALTCHA challenge may be solved and sent in. */
    challengeTtlS: number;
    /** PBKDF2 iterations of one ALTCHA attempt. */
    altchaCost: number;
    /** The highest counter an ALTCHA challenge hides (it is picked between half this and this): the attempts a solver makes. */
    altchaMaxCounter: number;
    turnstileVerifyUrl: string;
    hcaptchaVerifyUrl: string;
    recaptchaVerifyUrl: string;
    /** Longest wait for a provider's siteverify answer; past it the submission is stored as spam. */
    verifyTimeoutMs: number;
    /** reCAPTCHA v3: a score below this fails. */
    recaptchaMinScore: number;
  };
  knowledge: {
    /** Largest knowledge base content, in UTF-8 bytes. */
    maxBytes: number;
    /** AI credits one smart reply costs. */
    replyCredits: number;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Prometheus metrics (docs/metrics.md): off unless one of the two is set. */
  metrics: {
    /** GET /metrics on the app, with this bearer token; null: the route does not exist. */
    token: string | null;
    /** GET /metrics on 127.0.0.1 at this port, without a token; null: no such server. */
    port: number | null;
  };
  /**
   * OpenTelemetry traces (docs/tracing.md): on when OTEL_EXPORTER_OTLP_ENDPOINT is set, exported as
   * OTLP/HTTP to its /v1/traces; null: no SDK is loaded at all. `maxQueuedSpans`: the SDK's
   * OTEL_BSP_MAX_QUEUE_SIZE, which also bounds the spans on their way to the export thread.
   */
  tracing: { endpoint: string; serviceName: string; maxQueuedSpans: number } | null;
}

function logLevel(env: Env): Config['logLevel'] {
  const raw = read(env, 'INTAKE_LOG_LEVEL') ?? 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new ConfigError('INTAKE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

function signup(env: Env): Config['signup'] {
  const raw = read(env, 'INTAKE_SIGNUP')?.toLowerCase() ?? 'closed';
  if (raw !== 'open' && raw !== 'closed') throw new ConfigError('INTAKE_SIGNUP', `must be open or closed, got "${raw}"`);
  return raw;
}

function writerThread(env: Env): Config['sqliteWriterThread'] {
  const raw = read(env, 'INTAKE_SQLITE_WRITER_THREAD')?.toLowerCase() ?? 'auto';
  if (raw !== 'auto' && raw !== 'true' && raw !== 'false') throw new ConfigError('INTAKE_SQLITE_WRITER_THREAD', `must be auto, true or false, got "${raw}"`);
  return raw;
}

function aiConfig(env: Env): Config['ai'] {
  const baseUrl = url(env, 'INTAKE_AI_BASE_URL', ['http:', 'https:']);
  const model = read(env, 'INTAKE_AI_MODEL');
  if (!baseUrl) {
    if (model || read(env, 'INTAKE_AI_API_KEY')) throw new ConfigError('INTAKE_AI_BASE_URL', 'is required when INTAKE_AI_MODEL or INTAKE_AI_API_KEY is set');
    return null;
  }
  if (!model) throw new ConfigError('INTAKE_AI_MODEL', 'is required when INTAKE_AI_BASE_URL is set');
  return {
    baseUrl: withoutTrailingSlashes(baseUrl),
    apiKey: read(env, 'INTAKE_AI_API_KEY') ?? null,
    model,
    timeoutMs: integer(env, 'INTAKE_AI_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

function libreTranslateConfig(env: Env): Config['translation']['libreTranslate'] {
  const translateUrl = url(env, 'INTAKE_TRANSLATE_URL', ['http:', 'https:']);
  if (!translateUrl) return null;
  return { url: withoutTrailingSlashes(translateUrl), apiKey: read(env, 'INTAKE_TRANSLATE_API_KEY') ?? null };
}

function deeplConfig(env: Env): Config['translation']['deepl'] {
  const apiKey = read(env, 'INTAKE_DEEPL_API_KEY');
  if (!apiKey) return null;
  // DeepL's free keys end in ":fx" and are served from a separate host.
  const fallback = apiKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com';
  return { apiKey, url: withoutTrailingSlashes(url(env, 'INTAKE_DEEPL_URL', ['http:', 'https:']) ?? fallback) };
}

function outboundAllow(env: Env): string[] {
  const entries = (read(env, 'INTAKE_OUTBOUND_ALLOW') ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const bare = entry.replace(/^\[|\](?=\/|$)/g, '');
    if (entry.includes('/') && !ipaddr.isValidCIDR(bare)) throw new ConfigError('INTAKE_OUTBOUND_ALLOW', `not a valid CIDR range: "${entry}"`);
  }
  return entries;
}

/** A comma-separated list of origins (scheme://host[:port], nothing after), each normalised as URL.origin gives it. */
function origins(env: Env, name: string): string[] {
  const entries = (read(env, name) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.map((entry) => {
    let parsed: URL;
    try {
      parsed = new URL(entry);
    } catch {
      throw new ConfigError(name, `not an origin such as https://app.example.com: "${entry}"`);
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || withoutTrailingSlashes(entry).toLowerCase() !== parsed.origin) {
      throw new ConfigError(name, `not an origin such as https://app.example.com (scheme, host and port only): "${entry}"`);
    }
    return parsed.origin;
  });
}

function secretKey(env: Env): string | null {
  const raw = read(env, 'INTAKE_SECRET_KEY');
  if (raw === undefined) return null;
  // The message never repeats the value: it is a secret, and start-up errors end up in logs.
  if (!parseKey(raw)) throw new ConfigError('INTAKE_SECRET_KEY', 'expected 32 random bytes in base64 (openssl rand -base64 32) or 64 hex digits');
  return raw;
}

function redisConfig(env: Env): Config['redis'] {
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const prefix = read(env, 'INTAKE_REDIS_PREFIX') ?? 'intake:';
  if (!/^[\w:.-]{1,64}$/.test(prefix)) throw new ConfigError('INTAKE_REDIS_PREFIX', 'expected up to 64 letters, digits, ":", ".", "_" or "-"');
  if (!redisUrl) return null;
  return {
    url: redisUrl,
    prefix,
    commandTimeoutMs: integer(env, 'INTAKE_REDIS_TIMEOUT_MS', 50, 5, 10_000),
    breakAfter: integer(env, 'INTAKE_REDIS_BREAK_AFTER', 3, 1, 1_000),
    probeMs: integer(env, 'INTAKE_REDIS_PROBE_MS', 500, 50, 60_000),
  };
}

/** At least 16 characters: the token is all that stands between /metrics and the world. */
function metricsConfig(env: Env): Config['metrics'] {
  const token = read(env, 'INTAKE_METRICS_TOKEN') ?? null;
  if (token !== null && (token.length < 16 || /\s/.test(token))) {
    throw new ConfigError('INTAKE_METRICS_TOKEN', 'expected at least 16 characters without spaces (openssl rand -hex 24)');
  }
  const port = read(env, 'INTAKE_METRICS_PORT') === undefined ? null : integer(env, 'INTAKE_METRICS_PORT', 0, 0, 65535);
  return { token, port };
}

/** The standard OpenTelemetry variables: the collector's base URL (traces go to its /v1/traces) and the service's name. */
function tracingConfig(env: Env): Config['tracing'] {
  const endpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const serviceName = read(env, 'OTEL_SERVICE_NAME') ?? 'intake';
  // The SDK's own default; the batch processor in the export thread reads the same variable.
  const maxQueuedSpans = integer(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, 1_000_000);
  return endpoint ? { endpoint: withoutTrailingSlashes(endpoint), serviceName, maxQueuedSpans } : null;
}

function smtpConfig(env: Env): Config['delivery']['smtp'] {
  const smtpUrl = url(env, 'INTAKE_SMTP_URL', ['smtp:', 'smtps:']);
  if (!smtpUrl) return null;
  const from = read(env, 'INTAKE_MAIL_FROM');
  if (!from) throw new ConfigError('INTAKE_MAIL_FROM', 'is required when INTAKE_SMTP_URL is set');
  return { url: smtpUrl, from };
}

/** Where links to the dashboard and endpoints point: the configured public URL, else this server. */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** Builds the configuration from an environment (process.env by default). Throws ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const perMinute = (name: string, fallback: number) => integer(env, name, fallback, 1, 1_000_000_000);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    publicUrl: withoutTrailingSlashes(url(env, 'INTAKE_PUBLIC_URL', ['http:', 'https:']) ?? '') || null,
    dataDir: path.resolve(read(env, 'INTAKE_DATA_DIR') ?? './data'),
    secretKey: secretKey(env),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']) ?? null,
    poolSize: integer(env, 'INTAKE_DATABASE_POOL_SIZE', 10, 1, 200),
    connectTimeoutMs: integer(env, 'INTAKE_DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    statementTimeoutMs: integer(env, 'INTAKE_DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    sqliteBusyTimeoutMs: integer(env, 'INTAKE_SQLITE_BUSY_TIMEOUT_MS', 10_000, 10, 600_000),
    sqliteWriterThread: writerThread(env),
    maxBodyBytes: integer(env, 'INTAKE_MAX_BODY_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    files: filesConfig(env),
    trustProxy: boolean(env, 'INTAKE_TRUST_PROXY', false),
    mcpAllowedOrigins: origins(env, 'INTAKE_MCP_ALLOWED_ORIGINS'),
    redis: redisConfig(env),
    rateLimits: {
      submitPerMinute: perMinute('INTAKE_SUBMIT_RATE_LIMIT', 10),
      apiPerMinute: perMinute('INTAKE_API_RATE_LIMIT', 60),
      mcpPerMinute: perMinute('INTAKE_MCP_RATE_LIMIT', 30),
      loginPerMinute: perMinute('INTAKE_LOGIN_RATE_LIMIT', 10),
      loginPerAccountPerHour: perMinute('INTAKE_LOGIN_ACCOUNT_RATE_LIMIT', 30),
      oauthPerMinute: perMinute('INTAKE_OAUTH_RATE_LIMIT', 30),
      oauthRegisterPerHour: perMinute('INTAKE_OAUTH_REGISTER_RATE_LIMIT', 10),
    },
    signup: signup(env),
    freeSubmissionLimit: integer(env, 'INTAKE_FREE_SUBMISSION_LIMIT', 5000, 0, 1_000_000_000),
    freeAiCredits: integer(env, 'INTAKE_FREE_AI_CREDITS', 50, 0, 1_000_000_000),
    proMonthlyAiCredits: integer(env, 'INTAKE_PRO_MONTHLY_AI_CREDITS', 500, 0, 1_000_000_000),
    billingUrl: url(env, 'INTAKE_BILLING_URL', ['http:', 'https:']) ?? 'https://intake.example/billing',
    ai: aiConfig(env),
    translation: {
      libreTranslate: libreTranslateConfig(env),
      deepl: deeplConfig(env),
      timeoutMs: integer(env, 'INTAKE_TRANSLATE_TIMEOUT_MS', 15_000, 100, 600_000),
    },
    pipeline: {
      embeddedWorker: boolean(env, 'INTAKE_EMBEDDED_WORKER', true),
      concurrency: integer(env, 'INTAKE_WORKER_CONCURRENCY', 8, 1, 256),
      maxAttempts: integer(env, 'INTAKE_PIPELINE_MAX_ATTEMPTS', 5, 1, 50),
      retrySchedule: schedule(env, 'INTAKE_PIPELINE_RETRY_SCHEDULE', DEFAULT_PIPELINE_SCHEDULE, 'INTAKE_PIPELINE_RETRY'),
      leaseMs: integer(env, 'INTAKE_WORKER_LEASE_MS', 30_000, 500, 3_600_000),
      pollMs: integer(env, 'INTAKE_WORKER_POLL_MS', 50, 5, 60_000),
      jobsSchema: identifier(env, 'INTAKE_PG_JOBS_SCHEMA', 'graphile_worker'),
      retentionIntervalMs: integer(env, 'INTAKE_RETENTION_INTERVAL_MS', 3_600_000, 1_000, 7 * 86_400_000),
    },
    delivery: {
      outboundAllow: outboundAllow(env),
      smtp: smtpConfig(env),
      timeoutMs: integer(env, 'INTAKE_DELIVERY_TIMEOUT_MS', 15_000, 100, 120_000),
      maxAttempts: integer(env, 'INTAKE_DELIVERY_MAX_ATTEMPTS', 8, 1, 50),
      retrySchedule: schedule(env, 'INTAKE_DELIVERY_RETRY_SCHEDULE', DEFAULT_DELIVERY_SCHEDULE, 'INTAKE_DELIVERY_RETRY'),
      disableAfter: integer(env, 'INTAKE_DELIVERY_DISABLE_AFTER', 15, 1, 10_000),
      concurrency: integer(env, 'INTAKE_DELIVERY_CONCURRENCY', 16, 1, 256),
    },
    captcha: {
      challengeTtlS: integer(env, 'INTAKE_CAPTCHA_CHALLENGE_TTL_S', 600, 10, 86_400),
      altchaCost: integer(env, 'INTAKE_ALTCHA_COST', 5_000, 1, 1_000_000),
      altchaMaxCounter: integer(env, 'INTAKE_ALTCHA_MAX_COUNTER', 10_000, 2, 10_000_000),
      turnstileVerifyUrl: url(env, 'INTAKE_TURNSTILE_VERIFY_URL', ['http:', 'https:']) ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      hcaptchaVerifyUrl: url(env, 'INTAKE_HCAPTCHA_VERIFY_URL', ['http:', 'https:']) ?? 'https://api.hcaptcha.com/siteverify',
      recaptchaVerifyUrl: url(env, 'INTAKE_RECAPTCHA_VERIFY_URL', ['http:', 'https:']) ?? 'https://www.google.com/recaptcha/api/siteverify',
      verifyTimeoutMs: integer(env, 'INTAKE_CAPTCHA_VERIFY_TIMEOUT_MS', 5_000, 100, 60_000),
      recaptchaMinScore: fraction(env, 'INTAKE_RECAPTCHA_MIN_SCORE', 0.5),
    },
    knowledge: {
      maxBytes: integer(env, 'INTAKE_KB_MAX_BYTES', 512 * 1024, 1024, 16 * 1024 * 1024),
      replyCredits: integer(env, 'INTAKE_SMART_REPLY_CREDITS', 2, 0, 1000),
    },
    logLevel: logLevel(env),
    metrics: metricsConfig(env),
    tracing: tracingConfig(env),
  };
}
