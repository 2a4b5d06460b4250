// Runs bench/trickle.ts in a child process and reads back its result.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server-process.ts';

export interface TrickleOptions {
  url: string;
  headers: Record<string, string>;
  /** Submissions from bench/pipeline-corpus.ts (this seed), warm-up ones first, sent intervalMs apart. */
  seed: number;
  warmup: number;
  measured: number;
  intervalMs: number;
  /** How long to keep watching for the last submissions to become final. */
  timeoutMs: number;
  /** Where to poll: the SQLite file, or the PostgreSQL URL (search_path set). */
  sqliteFile?: string;
  databaseUrl?: string;
}

export interface TrickleResult {
  /** Milliseconds from each measured submission's 201 to the first poll that saw it final. */
  latencies: number[];
  /** Answers other than 201, and requests that failed. */
  failures: number;
  /** Measured submissions still not final when the client stopped watching. */
  unfinished: number;
}

export async function runTrickle(options: TrickleOptions): Promise<TrickleResult> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/trickle.ts'), JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`trickle client exited with ${code}`);
  return JSON.parse(stdout) as TrickleResult;
}
