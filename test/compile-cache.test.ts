// The process `npm start` runs keeps Node's compile cache (src/compile-cache.mjs): what it compiled is
// on disk once it is ready, and what the SQLite writer thread compiled once that thread has started,
// though neither ever exits cleanly when killed. A later start that finds them loads no type stripper.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, runCli } from './cli.ts';
import { CONTACT_SCHEMA, createTestStore, ENGINE, RELAXED_ENV, type TestStore } from './helpers.ts';
import { exited, freePort } from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The Node flags of a command line, between `node` and the CLI. */
const flagsOf = (words: string[]) => words.slice(1, words.indexOf('src/cli.ts'));

const cacheEntries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await sleep(50);
  assert.ok(condition(), what);
}

describe('compile cache', () => {
  let store: TestStore;
  let cacheDir: string;
  let child: ChildProcess | null = null;
  before(async () => {
    store = await createTestStore();
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-compile-cache-'));
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = exited(child);
      child.kill('SIGKILL');
      await gone;
    }
    fs.rmSync(cacheDir, { recursive: true, force: true });
    await store.cleanup();
  });

  it('npm start, npm run intake and the Docker image run Node with the same flags', () => {
    const start = flagsOf(scripts.start!.split(' '));
    assert.ok(start.includes('./src/compile-cache.mjs'), 'npm start preloads the compile cache');
    assert.deepEqual(flagsOf(scripts.intake!.split(' ')), start);
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    assert.ok(entrypoint, 'the Dockerfile has an ENTRYPOINT');
    assert.deepEqual(flagsOf(JSON.parse(entrypoint) as string[]), start);
  });

  it('is on disk once the server is ready, and with the writer thread’s files once it has started, before any exit', async () => {
    // The writer thread from the first write: by default a process with embedded workers starts none.
    const env = { ...RELAXED_ENV, ...store.env, INTAKE_SQLITE_WRITER_THREAD: 'true' };
    const key = (await runCli(['keys', 'create', '--email', 'cache@example.com', '--name', 'k'], env)).stdout.trim();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [...flagsOf(scripts.start!.split(' ')), CLI, 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', INTAKE_LOG_LEVEL: 'warn', ...env, NODE_COMPILE_CACHE: cacheDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let ready = false;
    for (let i = 0; i < 600 && !ready; i++) {
      ready = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (!ready) await sleep(50);
    }
    assert.ok(ready, 'the server started');
    await until(() => cacheEntries(cacheDir) > 0, 'the ready server wrote its compile cache');
    const beforeSubmitting = cacheEntries(cacheDir);

    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const form = (await (await fetch(`${base}/api/forms`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ name: 'Cached', slug: 'cached', visibility: 'public', fields_schema: CONTACT_SCHEMA }),
    })).json()) as { endpoint: string };
    const submitted = await fetch(`${base}${new URL(form.endpoint).pathname}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: 'hello' }),
    });
    assert.equal(submitted.status, 201);
    // Only SQLite writes in a thread of its own, whose entry file the main thread never compiles.
    if (ENGINE === 'sqlite') await until(() => cacheEntries(cacheDir) > beforeSubmitting, 'the writer thread wrote its compile cache');
  });
});
