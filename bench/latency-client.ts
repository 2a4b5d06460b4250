// Runs bench/latency.ts in a child process and reads back its result.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server-process.ts';

export interface LatencyOptions {
  base: string;
  headers: Record<string, string>;
  queries: Array<{ label: string; path: string }>;
  /** Untimed requests per query before the timed ones. */
  warmup: number;
  requests: number;
}

export interface LatencyResult {
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200. */
  failures: number;
}

export async function measureLatency(options: LatencyOptions): Promise<Record<string, LatencyResult>> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/latency.ts'), JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`latency client exited with ${code}`);
  return JSON.parse(stdout) as Record<string, LatencyResult>;
}
