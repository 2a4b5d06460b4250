// The audits' tools (the MCP conformance suite, Redocly's lint, recheck and acorn) are not the
// project's dependencies: together about 100 MB that running Intake or its other tests never read.
// They live in their own npm project, .ci/audit, which .ci/run installs; the audit tests load them
// from there and skip, naming the install command, when it is absent. Only the few calls the tests
// make are typed here (as test/s3rver.d.ts does), so the type check does not need the packages.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const AUDIT_PROJECT = path.resolve(import.meta.dirname, '..', '.ci', 'audit');
export const AUDIT_INSTALL = 'npm ci --prefix .ci/audit --omit=optional';

const fromAudit = createRequire(path.join(AUDIT_PROJECT, 'package.json'));

/** The file `specifier` resolves to from .ci/audit, or null when that project is not installed. */
export function auditResolve(specifier: string): string | null {
  try {
    return fromAudit.resolve(specifier);
  } catch {
    return null;
  }
}

/** A `skip` value: false when every package is installed in .ci/audit, else the one-line reason. */
export function auditMissing(...packages: string[]): string | false {
  const missing = packages.filter((name) => auditResolve(`${name}/package.json`) === null && auditResolve(name) === null);
  return missing.length === 0 ? false : `${missing.join(', ')} not installed: run \`${AUDIT_INSTALL}\` (.ci/run does)`;
}

export async function auditImport<T>(specifier: string): Promise<T> {
  const file = auditResolve(specifier);
  if (file === null) throw new Error(`${specifier} is not installed in .ci/audit: run \`${AUDIT_INSTALL}\``);
  return (await import(pathToFileURL(file).href)) as T;
}

/** The conformance suite's command-line entry (its package's `bin`). */
export function conformanceSuite(): string | null {
  const manifest = auditResolve('@modelcontextprotocol/conformance/package.json');
  if (manifest === null) return null;
  const bin = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin.conformance;
  return bin === undefined ? null : path.join(path.dirname(manifest), bin);
}

export interface Recheck {
  checkSync(source: string, flags: string, params: { timeout: number; checker: 'automaton' | 'fuzz' | 'auto' }):
    | { status: 'safe' | 'unknown' }
    | { status: 'vulnerable'; complexity: { summary: string } };
}

export interface Acorn {
  parse(code: string, options: { ecmaVersion: 'latest'; sourceType: 'module'; locations: true }): unknown;
}

export interface RedoclyProblem {
  severity: 'error' | 'warn';
  ruleId: string;
  message: string;
  location: Array<{ pointer?: string }>;
}

export interface Redocly {
  createConfig(config: { extends: string[] }): Promise<unknown>;
  lintFromString(options: { source: string; absoluteRef: string; config: unknown }): Promise<RedoclyProblem[]>;
}
