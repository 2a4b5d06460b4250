// Servers under test run as child processes on the same Node binary as the bench, one at a time.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI = path.join(ROOT, 'src/cli.ts');

/**
 * The Node flags `npm start` runs Intake with, read from package.json's start script, so that the
 * benchmark measures the process users run (the flags bound the heap's young generation).
 */
export const INTAKE_NODE_FLAGS: string[] = (() => {
  const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.split(' ').filter((word) => !/^[A-Z_]+=/.test(word)); // environment variables the script sets
  return words.slice(1, words.indexOf('src/cli.ts'));
})();

/** How Intake runs under the benchmark: limits raised by configuration, quiet logs, no embedded worker. */
export const INTAKE_BENCH_ENV = {
  HOST: '127.0.0.1',
  INTAKE_SUBMIT_RATE_LIMIT: '1000000000',
  INTAKE_API_RATE_LIMIT: '1000000000',
  INTAKE_LOG_LEVEL: 'warn',
  INTAKE_EMBEDDED_WORKER: 'false',
};

export interface ServerProcess {
  base: string;
  pid: number;
  /** The highest resident set size seen so far (the kernel's VmHWM, sampled every 100 ms), in bytes. */
  peakRss(): number;
  /** SIGTERM waits for a clean shutdown; SIGKILL is a crash. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** CPU time (user + system, every thread) the process has used so far, in µs from /proc; 0 where /proc is missing. */
export function readCpuMicros(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100); // USER_HZ ticks
  } catch {
    return 0;
  }
}

/** Peak and current RSS in bytes from /proc; zeros where /proc is missing or the process is gone. */
export function readRss(pid: number): { peak: number; current: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { peak: kb('VmHWM'), current: kb('VmRSS') };
  } catch {
    return { peak: 0, current: 0 };
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/**
 * The command that runs node at a niceness (through nice(1), so that every thread the process starts
 * inherits it: on Linux a niceness set from outside reaches only the thread it names).
 */
export function niceCommand(niceness: number | undefined, args: string[]): [string, string[]] {
  return niceness ? ['nice', ['-n', String(niceness), process.execPath, ...args]] : [process.execPath, args];
}

/** Starts `node <args>` with env (plus PORT) and resolves once GET /healthz answers 200. */
export async function startServer(args: string[], env: Record<string, string>, nodeOptions: string[] = [], niceness?: number): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(...niceCommand(niceness, [...nodeOptions, ...args]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let peak = 0;
  const sample = () => {
    const rss = readRss(child.pid as number);
    peak = Math.max(peak, rss.peak, rss.current);
  };
  const sampler = setInterval(sample, 100);
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    sample();
    clearInterval(sampler);
    const gone = exited(child);
    child.kill(signal);
    await gone;
  };
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, pid: child.pid as number, peakRss: () => (sample(), peak), stop };
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  await stop('SIGKILL');
  throw new Error(`${args.join(' ')} did not start (exit code ${child.exitCode})`);
}

export const startIntake = (storeEnv: Record<string, string>, nodeOptions: string[] = [], niceness?: number) =>
  startServer([CLI, 'serve'], { ...INTAKE_BENCH_ENV, ...storeEnv }, [...INTAKE_NODE_FLAGS, ...nodeOptions], niceness);

export const startBaseline = () => startServer([path.join(ROOT, 'bench/baseline-server.ts')], {});
