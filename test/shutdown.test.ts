// `intake serve` stops cleanly on SIGTERM at any moment, also while its embedded workers are still
// starting (right after it began to listen): they are stopped once started, and the process exits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { exited, startServer } from './processes.ts';
import { createTestStore, RELAXED_ENV, type TestStore } from './helpers.ts';

describe('shutdown', () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore();
  });
  after(() => store.cleanup());

  it('exits on SIGTERM that comes while the embedded workers start', async () => {
    const server = await startServer({ ...RELAXED_ENV, ...store.env, INTAKE_EMBEDDED_WORKER: 'true' });
    const exit = exited(server.child);
    server.child.kill('SIGTERM');
    const code = await Promise.race([exit, sleep(20_000, 'still running', { ref: false })]);
    if (code === 'still running') server.child.kill('SIGKILL');
    assert.equal(code, 0, 'exits cleanly, within 20 s');
  });
});
