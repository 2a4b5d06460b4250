// Runs the load generator (bench/load.ts, autocannon) in a child process and reads back its result.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server-process.ts';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Where to write the ids of the submissions answered 201 (warm-up included), one a line. */
  idsFile?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Exact percentiles of every response time of the measured phase, in milliseconds. */
  p50: number;
  p99: number;
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 201s over warm-up and measured phase: what the server promised to keep. */
  created: number;
  /** Requests written but never answered because the load generator closed its connections at the end. */
  unanswered: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/load.ts'), JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(stdout) as LoadResult;
}
