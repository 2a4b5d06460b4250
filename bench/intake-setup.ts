// Sets up an owner, a key and a form the way a user would: the CLI for the key, the API for the form.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { CLI, ROOT } from './server-process.ts';

/** A contact form of four fields, and a submission to it such as a site would send. */
export const CONTACT_FORM = {
  name: 'Contact',
  slug: 'contact',
  visibility: 'public',
  fields_schema: {
    fields: [
      { name: 'name', type: 'string', required: true, rules: [{ op: 'max_length', value: 200 }] },
      { name: 'email', type: 'email', required: true },
      { name: 'subject', type: 'string', rules: [{ op: 'max_length', value: 200 }] },
      { name: 'message', type: 'string', required: true, rules: [{ op: 'min_length', value: 2 }, { op: 'max_length', value: 5000 }] },
    ],
  },
};

export const CONTACT_SUBMISSION = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@example.com',
  subject: 'Question about the analytical engine',
  message:
    'Hello! I read the notes on your site and would like to know whether the engine can compute Bernoulli numbers ' +
    'without manual intervention, and what the delivery time would be for a small workshop. Thank you, Ada',
};

/** tree: the checkout whose CLI runs (another tree's, to measure it beside this one: it migrates its store to its own schema). */
export async function runCli(args: string[], env: Record<string, string>, tree = ROOT): Promise<string> {
  const cli = tree === ROOT ? CLI : path.join(tree, 'src/cli.ts');
  const child = spawn(process.execPath, [cli, ...args], { cwd: tree, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`intake ${args.join(' ')} failed (${code}): ${stderr}`);
  return stdout.trim();
}

/** Creates a pro owner (no lifetime submission cap) and returns its new API key. Migrates the store first. */
export async function createOwner(env: Record<string, string>, email = 'bench@example.com', tree = ROOT): Promise<string> {
  const key = await runCli(['keys', 'create', '--email', email, '--name', 'bench', '--new-account'], env, tree);
  await runCli(['users', 'set-plan', '--email', email, '--plan', 'pro'], env, tree);
  return key;
}

export async function createForm(base: string, key: string, form: object = CONTACT_FORM): Promise<{ id: string; endpointPath: string; htmlEndpointPath: string }> {
  const response = await fetch(`${base}/api/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(form),
  });
  if (response.status !== 201) throw new Error(`form creation failed: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { id: string; endpoint: string; html_endpoint: string };
  return { id: created.id, endpointPath: new URL(created.endpoint).pathname, htmlEndpointPath: new URL(created.html_endpoint).pathname };
}
