// A client generated from the live /openapi.json by code nobody here wrote: openapi-typescript makes
// the types, openapi-fetch makes the calls, and a typed script (.ci/client/typed-script.ts) creates a
// form, submits with an Idempotency-Key, reads, lists with a filter and deletes. It must pass
// `tsc --strict` and do what it says against a real server on the engine of the run. The generator
// needs TypeScript 5 (the project is on 7), so it lives in its own npm project, .ci/client, which
// .ci/run installs; without it this test is skipped, saying so.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp } from './helpers.ts';

const run = promisify(execFile);
const client = path.resolve(import.meta.dirname, '../.ci/client');
const bin = (name: string) => path.join(client, 'node_modules/.bin', name);
const installed = fs.existsSync(bin('openapi-typescript'));

test('a client generated with openapi-typescript and openapi-fetch type-checks strictly and works against the server', {
  skip: installed ? false : 'the generated-client tools are not installed: run `npm ci --prefix .ci/client` (.ci/run does)',
}, async (t) => {
  const app = await startTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-generated-client-'));
  t.after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const baseUrl = await app.app.listen({ port: 0, host: '127.0.0.1' });

  // 1. Types from the live document, by the generator run on this Node. Without
  // --default-non-nullable false, openapi-typescript 7 makes every field with a default required in
  // request bodies too (a form could not be created without spelling out every setting).
  const document = await fetch(`${baseUrl}/openapi.json`);
  assert.equal(document.status, 200);
  fs.writeFileSync(path.join(dir, 'openapi.json'), await document.text());
  await run(process.execPath, [bin('openapi-typescript'), path.join(dir, 'openapi.json'), '--default-non-nullable', 'false', '-o', path.join(dir, 'schema.d.ts')]);

  // 2. The typed script beside them, resolving openapi-fetch and @types/node from .ci/client.
  fs.copyFileSync(path.join(client, 'typed-script.ts'), path.join(dir, 'typed-script.ts'));
  fs.symlinkSync(path.join(client, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(client, 'tsconfig.json'), files: ['typed-script.ts'] }));

  // 3. TypeScript 5, strict: a path, parameter or body the document does not declare fails here.
  const checked = await run(process.execPath, [bin('tsc'), '-p', path.join(dir, 'tsconfig.json'), '--strict', '--noEmit']).catch((error: { stdout: string; stderr: string }) => error);
  assert.equal(checked.stdout + checked.stderr, '', 'tsc --strict reports nothing');

  // 4. Run against the server.
  const key = await app.createKey();
  const { stdout } = await run(process.execPath, [path.join(dir, 'typed-script.ts')], { env: { ...process.env, INTAKE_URL: baseUrl, INTAKE_API_KEY: key } });
  const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    create: number; submit: { status: number; id: string }; replay: { status: number; id: string };
    read: { status: number; id: string; message: string }; list: { status: number; ids: string[]; total: number };
    listMissed: { status: number; total: number }; delete: { status: number; id: string }; readAfterDelete: number;
  };
  assert.equal(outcome.create, 201);
  assert.equal(outcome.submit.status, 201);
  assert.deepEqual(outcome.replay, { status: 200, id: outcome.submit.id }, 'the same Idempotency-Key replays the first submission');
  assert.equal(outcome.read.status, 200);
  assert.equal(outcome.read.id, outcome.submit.id);
  assert.match(outcome.read.message, /^Hello from generated/);
  assert.deepEqual(outcome.list, { status: 200, ids: [outcome.submit.id], total: 1 }, 'the search filter finds it');
  assert.deepEqual(outcome.listMissed, { status: 200, total: 0 }, 'and a search for another word does not');
  assert.deepEqual(outcome.delete, { status: 200, id: outcome.submit.id });
  assert.equal(outcome.readAfterDelete, 404);
});
