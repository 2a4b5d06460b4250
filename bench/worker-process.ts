// `intake worker` processes for the pipeline benchmark: started as an operator would, and ready
// once they say so (the log line `serve`'s sibling writes after migrating and starting its workers).
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, INTAKE_BENCH_ENV, INTAKE_NODE_FLAGS, ROOT } from './server-process.ts';

export interface WorkerProcess {
  pid: number;
  /** SIGTERM lets it finish its jobs and, under --cpu-prof, write its profile. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

const READY = '"msg":"Intake worker is ready"';
const STARTUP_MS = 60_000;

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export async function startWorker(storeEnv: Record<string, string>, nodeOptions: string[] = []): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...INTAKE_NODE_FLAGS, ...nodeOptions, CLI, 'worker'], {
    cwd: ROOT,
    // Info level for the one line that says it is ready; the pipeline logs nothing per job at that level.
    env: { PATH: process.env.PATH ?? '', ...INTAKE_BENCH_ENV, ...storeEnv, INTAKE_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const gone = exited(child);
    child.kill(signal);
    await gone;
  };
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('intake worker did not say it was ready')), STARTUP_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (output.length < 100_000) output += chunk.toString();
      if (output.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`intake worker exited with ${code} before it was ready`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return { pid: child.pid as number, stop };
}
