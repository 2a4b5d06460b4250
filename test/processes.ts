// Real Intake processes (the CLI's `serve` and `worker`) for tests that kill and restart them.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { baseEnv, CLI } from './cli.ts';
import { ENGINE } from './helpers.ts';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A worker lease longer than any crash test waits, so leftovers finish only if the killed worker is
 * known to be gone: its closed session on PostgreSQL; on SQLite, its pid missing from this Linux
 * machine (elsewhere no holder is ever judged gone, and a short lease stands in).
 */
export const LEASE_PAST_THE_TEST_MS = ENGINE === 'postgres' || process.platform === 'linux' ? '600000' : '1000';

export const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

function spawnCli(args: string[], env: Record<string, string>, keepStdout = false): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    env: { ...baseEnv(), INTAKE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'inherit'],
  });
}

/** A server process; with `keepStdout`, what it writes to stdout (its JSON log and its notices) is kept in `stdout()`. */
export async function startServer(env: Record<string, string>, keepStdout = false): Promise<{ child: ChildProcess; base: string; stdout(): string }> {
  const port = await freePort();
  const child = spawnCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, keepStdout);
  let written = '';
  child.stdout?.on('data', (chunk) => (written += chunk));
  const stdout = () => written;
  const base = `http://127.0.0.1:${port}`;
  // Up to 30 s: on a loaded machine, loading and migrating takes a while.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, stdout };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

export function startWorker(env: Record<string, string>): ChildProcess {
  return spawnCli(['worker'], env);
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill(signal);
  await done;
}

/** JSON requests to a server process with an API key. */
export function apiClient(base: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };
}
