// Every relative link in the README and docs/ points at a file that exists, and every #anchor at a
// heading of that file (GitHub's slugs), so moving a section cannot leave a reader at a dead end.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    anchors.add(n === 0 ? base : `${base}-${n}`);
    seen.set(base, n + 1);
  }
  return anchors;
}

describe('documentation links', () => {
  it('resolve: files exist and anchors name headings', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const file = path.join(ROOT, page);
      const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
        // The spec lives beside the repository, in the workplace's shared folder.
        if (resolved.includes(`${path.sep}shared${path.sep}`) && !resolved.startsWith(ROOT)) continue;
        if (!fs.existsSync(resolved)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('keeps the README short: the rest is in docs/', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= 250, `README.md has ${lines} lines`);
  });
});
