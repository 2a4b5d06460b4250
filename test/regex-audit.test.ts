// Every regular-expression literal in src/ is checked by recheck, a ReDoS analyser: none may take
// super-linear time on hostile input. Values from submitters, owners and receivers reach many of
// them, so the rule holds for all, and a new pattern that backtracks fails here, not in production.
// recheck and acorn come from .ci/audit (test/audit-tools.ts); without it this test skips, saying so.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { auditImport, auditMissing, type Acorn, type Recheck } from './audit-tools.ts';

const SOURCE_ROOT = path.join(import.meta.dirname, '..', 'src');

interface Found { file: string; line: number; source: string; flags: string }

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function regexLiterals(parse: Acorn['parse'], file: string): Found[] {
  const code = stripTypeScriptTypes(fs.readFileSync(file, 'utf8'));
  const tree = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  const found: Found[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const candidate = node as { type?: string; regex?: { pattern: string; flags: string }; loc?: { start: { line: number } } };
    if (candidate.type === 'Literal' && candidate.regex) {
      found.push({ file: path.relative(SOURCE_ROOT, file), line: candidate.loc?.start.line ?? 0, source: candidate.regex.pattern, flags: candidate.regex.flags });
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'loc') visit(child);
  };
  visit(tree);
  return found;
}

// The analysis does not depend on the database; the PostgreSQL run of the suite skips it.
const skip = process.env.DATABASE_URL ? 'engine-independent: runs with the SQLite suite' : auditMissing('recheck', 'acorn');
describe('regular expressions in src/', { skip }, async () => {
  if (skip) return;
  const { parse } = await auditImport<Acorn>('acorn');
  const { checkSync } = await auditImport<Recheck>('recheck');
  const literals = sourceFiles(SOURCE_ROOT).flatMap((file) => regexLiterals(parse, file));

  it('finds the literals to check', () => {
    assert.ok(literals.length > 30, `only ${literals.length} found`);
  });

  it('has none that recheck finds vulnerable to super-linear backtracking', () => {
    const vulnerable = literals.flatMap(({ file, line, source, flags }) => {
      // recheck models matching from every position; the global and sticky flags change nothing it looks at.
      const result = checkSync(source, flags.replace(/[gy]/g, ''), { timeout: 2_000, checker: 'automaton' });
      return result.status === 'vulnerable' ? [`${file}:${line} /${source}/${flags}: ${result.complexity.summary}`] : [];
    });
    assert.deepEqual(vulnerable, []);
  });
});
