// The idle resident memory of a first `npm start`, cold or after the install's warm-up
// (scripts/warm-compile-cache.mjs): in a compile-cache directory of its own, optionally warmed first,
// it starts Intake as `npm start` does, creates a key and a form, sends one JSON submission, rests 15 s
// (V8's memory reducer runs 8 s after the last activity) and reads the server's RSS from smaps_rollup.
//   node bench/first-start.ts cold|warmed      (alternate the two; docs/memory.md)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.join(import.meta.dirname, '..');
const mode = process.argv[2];
if (mode !== 'cold' && mode !== 'warmed') throw new Error('usage: node bench/first-start.ts cold|warmed');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const nodeArgs = (name: string) => scripts[name]!.split(' ').slice(1);

function output(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.on('exit', () => resolve(out.trim()));
  });
}

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-start-cache-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-start-data-'));
const env = { ...process.env, NODE_COMPILE_CACHE: cacheDir, INTAKE_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' };
if (mode === 'warmed') await output(['scripts/warm-compile-cache.mjs'], env);

const server = spawn(process.execPath, nodeArgs('start'), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
let log = '';
const base = await new Promise<string>((resolve) => server.stdout.on('data', (chunk: Buffer) => {
  log += chunk;
  const listening = /"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(log);
  if (listening && log.includes('Intake is ready')) resolve(listening[1]!);
}));
const key = await output([...nodeArgs('intake'), 'keys', 'create', '--email', 'bench@example.com', '--name', 'bench'], env);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const fields = [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }];
const form = await (await fetch(`${base}/api/forms`, { method: 'POST', headers, body: JSON.stringify({ name: 'Contact', slug: 'contact', visibility: 'public', fields_schema: { fields } }) })).json() as { endpoint: string };
await fetch(form.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com', message: 'Hello, do you deliver on Saturdays?' }) });
await sleep(15_000);
const rss = Number(/Rss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/smaps_rollup`, 'utf8'))![1]);
console.log(`${mode}: idle ${(rss / 1024).toFixed(1)} MB`);
server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
for (const dir of [cacheDir, dataDir]) fs.rmSync(dir, { recursive: true, force: true });
