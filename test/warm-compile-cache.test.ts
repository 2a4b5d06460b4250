// The install's warm-up (scripts/warm-compile-cache.mjs) must leave Node's compile cache holding what a
// first `npm start` loads, and must never fail an install. Run against an empty cache directory of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.join(import.meta.dirname, '..');

function cacheFiles(directory: string): number {
  if (!fs.existsSync(directory)) return 0;
  return fs.readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

function warmUp(env: NodeJS.ProcessEnv): { status: number | null; stdout: string; cached: number } {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'warm-up-test-'));
  try {
    const result = spawnSync(process.execPath, ['scripts/warm-compile-cache.mjs'], { cwd: ROOT, env: { ...process.env, ...env, NODE_COMPILE_CACHE: cache }, encoding: 'utf8', timeout: 90_000 });
    return { status: result.status, stdout: result.stdout, cached: cacheFiles(cache) };
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

// Engine-independent (the warm-up always runs the embedded database): the PostgreSQL run skips it.
describe('the install\'s warm-up of the compile cache', { skip: process.env.DATABASE_URL ? 'engine-independent: runs with the SQLite suite' : false }, () => {
  it('starts Intake, has it take submissions, and leaves the cache holding the files it loaded', () => {
    const { status, stdout, cached } = warmUp({});
    assert.equal(status, 0);
    assert.match(stdout, /the first start is warmed/);
    // The server, its writer thread, the workers and the CLI: hundreds of files, not a handful.
    assert.ok(cached > 300, `only ${cached} files cached`);
  });

  it('is skipped when asked, and fails no install when Intake cannot start', () => {
    const skipped = warmUp({ INTAKE_SKIP_WARMUP: '1' });
    // Only the warm-up script's own entry: nothing was started.
    assert.deepEqual({ status: skipped.status, stdout: skipped.stdout }, { status: 0, stdout: '' });
    assert.ok(skipped.cached <= 1, `${skipped.cached} files cached`);
    const broken = warmUp({ INTAKE_SECRET_KEY: 'not a key' });
    assert.equal(broken.status, 0);
    assert.match(broken.stdout, /could not be warmed/);
  });
});
