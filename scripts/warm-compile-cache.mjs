// Run by `npm install` (postinstall): starts Intake once as `npm start` would, in a throwaway data
// directory on a free loopback port, has it take a JSON and a plain-HTML submission and process them,
// opens the dashboard's sign-in page, and stops it. Why: Node's compile cache (src/compile-cache.mjs)
// keeps the JavaScript that type stripping made of each file, and a process whose files are all in it
// never loads the type stripper (about 17 MB). Without this, the first `npm start` after an install is
// the one that fills the cache, and it idles over the 150 MB target (docs/memory.md); with it, the
// first start is like every later one. It never fails the install: any trouble skips it, and
// INTAKE_SKIP_WARMUP=1 turns it off. JavaScript, not TypeScript, so that it runs on any npm's Node.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');
const DEADLINE_MS = 60_000;

/** `npm run <name>`'s node arguments (its flags, the preload, then the script), from package.json. */
function scriptArgs(name) {
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  const words = scripts[name].split(' ');
  if (words[0] !== 'node') throw new Error(`npm run ${name} is not a node command`);
  return words.slice(1);
}

/** The server being warmed, stopped whatever happens. */
let server = null;

function startServer(env) {
  const child = spawn(process.execPath, scriptArgs('start'), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = new Promise((resolve, reject) => {
    let out = '';
    let base = null;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      base ??= /"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1] ?? null;
      if (base && out.includes('Intake is ready')) resolve(base);
    });
    child.stderr.resume();
    child.on('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  return { child, address };
}

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

async function json(response) {
  if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
  return response.json();
}

async function warm(env) {
  server = startServer(env);
  try {
    const base = await server.address;
    const key = await run([...scriptArgs('intake'), 'keys', 'create', '--email', 'warm-up@example.invalid', '--name', 'warm-up'], env);
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const form = await json(await fetch(`${base}/api/forms`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ name: 'Contact', slug: 'contact', visibility: 'public', spam_protection_enabled: true, spam_protection_strategy: 'intelligent', fields_schema: { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] } }),
    }));
    await json(await fetch(form.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com', message: 'Hello, do you deliver on Saturdays? Thanks!' }) }));
    await fetch(form.html_endpoint, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: 'email=ben%40example.com&message=Bonjour%2C+livrez-vous+le+samedi+%3F' });
    await fetch(`${base}/login`);
    for (let tries = 0; tries < 100; tries++) {
      const { data } = await json(await fetch(`${base}/api/forms/${form.id}/submissions`, { headers: auth }));
      if (data.length === 2 && data.every((submission) => submission.processing_status === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await stop();
  }
}

/** A clean exit writes what the process compiled to the cache. */
async function stop() {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

if (process.env.INTAKE_SKIP_WARMUP !== '1' && Number(process.versions.node.split('.')[0]) >= 24) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-warm-up-'));
  const env = { ...process.env, INTAKE_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'INTAKE_METRICS_PORT']) delete env[name];
  const started = Date.now();
  const timer = setTimeout(() => {
    console.log('Intake: warming the compile cache took too long; skipped (the first start fills it instead).');
    server?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }, DEADLINE_MS);
  try {
    await warm(env);
    console.log(`Intake: the first start is warmed (${((Date.now() - started) / 1000).toFixed(1)} s; INTAKE_SKIP_WARMUP=1 skips it).`);
  } catch (error) {
    console.log(`Intake: the first start could not be warmed (${error.message}); it will fill the compile cache itself.`);
  } finally {
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
