// Every command of `intake` run once through the real CLI, a child process as `npm run intake` starts
// it, on one fresh store. Each command imports its code only when it runs (src/cli/commands.ts), so a
// command whose module lacks an import, or leaned on something another command's module used to load,
// fails only when that command runs: here, rather than in an operator's hands. One run per lazily
// loaded module is enough: `keys create --password` and `users password-link` also load the
// dashboard's. `serve` and `worker` are started by the tests of real processes (test/processes.ts:
// setup, compile-cache, tracing, worker-crash), each a few seconds of CPU this file need not repeat.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { COMMANDS } from '../src/cli/commands.ts';
import { USAGE } from '../src/cli/usage.ts';
import { runCli, type ScriptResult } from './cli.ts';
import { createTestStore, ENGINE, type TestStore } from './helpers.ts';

const STARTED_ELSEWHERE = ['serve', 'worker'];
const OWNER = 'owner@example.com';

describe('every CLI command through the real CLI', () => {
  let store: TestStore;
  const ran = new Set<string>();
  const cli = (args: string[], input?: string): Promise<ScriptResult> => {
    ran.add(args[0] ?? '');
    return runCli(args, store.env, input);
  };
  before(async () => {
    store = await createTestStore();
  });
  after(() => store.cleanup());

  it('migrate', async () => {
    const migrated = await cli(['migrate']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stderr, /^Applied 0001_core, /);
  });

  it('setup-link, on a server with no account yet', async () => {
    const link = await cli(['setup-link']);
    assert.equal(link.code, 0, link.stderr);
    assert.match(link.stdout, /^http:\/\/\S+\/setup\?token=[\w-]{40,}\n$/);
  });

  it('keys create --password', async () => {
    const created = await cli(['keys', 'create', '--email', OWNER, '--name', 'cli', '--password'], 'a password long enough\n');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^\S+\n$/, 'only the key on stdout');
    assert.match(created.stderr, /can now log in to the dashboard/);
  });

  it('users password-link', async () => {
    const link = await cli(['users', 'password-link', '--email', OWNER]);
    assert.equal(link.code, 0, link.stderr);
    assert.match(link.stdout, /^http:\/\/\S+\/set-password\?token=[\w-]{40,}\n$/);
  });

  it('subjects export', async () => {
    const exported = await cli(['subjects', 'export', '--owner', OWNER, '--email', 'someone@example.com']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(typeof JSON.parse(exported.stdout), 'object');
  });

  it('purge --dry-run', async () => {
    const purged = await cli(['purge', '--dry-run']);
    assert.equal(purged.code, 0, purged.stderr);
    assert.equal(purged.stderr, 'Would delete 0 submissions past retention in 0 forms.\n');
  });

  it('backup and restore (on PostgreSQL, the note that names pg_dump)', async () => {
    const file = path.join(store.dataDir, 'copy.sqlite');
    const backup = await cli(['backup', '--out', file]);
    const restore = await cli(['restore', '--from', file]);
    if (ENGINE === 'postgres') {
      for (const result of [backup, restore]) {
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /pg_dump/);
      }
      return;
    }
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(backup.stdout, `${file}\n`);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stderr, /^Restored 0 submissions into /);
  });

  it('ran every command but those started elsewhere, and the usage names each', () => {
    assert.deepEqual([...ran, ...STARTED_ELSEWHERE].sort(), Object.keys(COMMANDS).sort());
    for (const name of Object.keys(COMMANDS)) assert.match(USAGE, new RegExp(`\\n  ${name} `), name);
  });
});
