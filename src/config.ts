// The environment, read and validated once. Nothing else in src/ reads process.env:
// everything that varies between deployments arrives here and is passed down.
import path from 'node:path';

export type Plan = 'free' | 'pro';

export interface Config {
  port: number;
  host: string;
  /** Base URL used to build submission endpoints; when unset, the request's own origin is used. */
  publicUrl: string | null;
  dataDir: string;
  /** postgres://… when set; otherwise the embedded SQLite file under dataDir. */
  databaseUrl: string | null;
  maxBodyBytes: number;
  trustProxy: boolean;
  rateLimits: { submitPerMinute: number; apiPerMinute: number; mcpPerMinute: number };
  freeSubmissionLimit: number;
  freeAiCredits: number;
  proMonthlyAiCredits: number;
  billingUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(env: Env): Config['logLevel'] {
  const raw = read(env, 'INTAKE_LOG_LEVEL') ?? 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new ConfigError('INTAKE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** Builds the configuration from an environment (process.env by default). Throws ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const perMinute = (name: string, fallback: number) => integer(env, name, fallback, 1, 1_000_000_000);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    publicUrl: url(env, 'INTAKE_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    dataDir: path.resolve(read(env, 'INTAKE_DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']) ?? null,
    maxBodyBytes: integer(env, 'INTAKE_MAX_BODY_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    trustProxy: boolean(env, 'INTAKE_TRUST_PROXY', false),
    rateLimits: {
      submitPerMinute: perMinute('INTAKE_SUBMIT_RATE_LIMIT', 10),
      apiPerMinute: perMinute('INTAKE_API_RATE_LIMIT', 60),
      mcpPerMinute: perMinute('INTAKE_MCP_RATE_LIMIT', 30),
    },
    freeSubmissionLimit: integer(env, 'INTAKE_FREE_SUBMISSION_LIMIT', 5000, 0, 1_000_000_000),
    freeAiCredits: integer(env, 'INTAKE_FREE_AI_CREDITS', 50, 0, 1_000_000_000),
    proMonthlyAiCredits: integer(env, 'INTAKE_PRO_MONTHLY_AI_CREDITS', 500, 0, 1_000_000_000),
    billingUrl: url(env, 'INTAKE_BILLING_URL', ['http:', 'https:']) ?? 'https://intake.example/billing',
    logLevel: logLevel(env),
  };
}
