// Reading INTAKE_* variables: each reader trims, checks and names the variable in its ConfigError,
// so that config.ts says only which settings exist and how they fit together.
import { parseSchedule } from './jobs/backoff.ts';

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export type Env = Record<string, string | undefined>;

export function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A number from 0 to 1, such as 0.5. */
export function fraction(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) throw new ConfigError(name, `expected a number from 0 to 1 such as 0.5, got "${raw}"`);
  return Number(raw);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
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

export function identifier(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) throw new ConfigError(name, `must be a lowercase SQL identifier, got "${raw}"`);
  return raw;
}

export function schedule(env: Env, name: string, fallback: string, replaces: string): number[] {
  for (const old of [`${replaces}_BASE_MS`, `${replaces}_MAX_MS`]) {
    if (read(env, old) !== undefined) throw new ConfigError(old, `is replaced by ${name} (a list of delays such as "${fallback}")`);
  }
  const raw = read(env, name) ?? fallback;
  const delays = parseSchedule(raw);
  if (!delays) throw new ConfigError(name, `expected delays such as "${fallback}" (units ms, s, m, h), got "${raw}"`);
  if (delays.some((d) => d > 7 * 86_400_000)) throw new ConfigError(name, 'a delay may not exceed 7 days (168h)');
  return delays;
}

/** Fast first, then minutes, then hours: eight attempts span about 27 hours. */

export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}
