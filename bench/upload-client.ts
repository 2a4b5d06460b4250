// Runs bench/upload-load.ts in a child process: an upload load to wait for, or a JSON probe that
// runs until stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { niceCommand, ROOT } from './server-process.ts';

export interface UploadLoadOptions {
  mode: 'uploads' | 'probe';
  url: string;
  /** uploads */
  files: number;
  fileBytes: number;
  connections: number;
  /** uploads: the niceness the client process runs at (none: the bench's own) */
  niceness?: number;
  /** probe: the JSON body, one every intervalMs, for at most `seconds` */
  body: string;
  intervalMs: number;
  seconds: number;
}

export interface UploadResult {
  seconds: number;
  statusCounts: Record<string, number>;
  errors: number;
  /** Time of one whole upload, ms. */
  p50: number;
  p99: number;
  mibPerSecond: number;
}

export interface ProbeResult {
  /** [sent at (epoch ms), latency (ms), 1 when answered 201 else 0], one per request. */
  samples: Array<[number, number, 0 | 1]>;
}

function start<T>(options: Partial<UploadLoadOptions>): { child: ChildProcess; result: Promise<T> } {
  const child = spawn(...niceCommand(options.niceness, [path.join(ROOT, 'bench/upload-load.ts'), JSON.stringify(options)]), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const result = new Promise<T>((resolve, reject) => {
    child.on('error', reject).on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as T) : reject(new Error(`upload client (${options.mode}) exited with ${code}`))));
  });
  return { child, result };
}

export function runUploads(options: Pick<UploadLoadOptions, 'url' | 'files' | 'fileBytes' | 'connections' | 'niceness'>): Promise<UploadResult> {
  const { child, result } = start<UploadResult>({ mode: 'uploads', ...options });
  child.stdin!.end();
  return result;
}

/** A probe that runs for `seconds`, or until stop() (whichever is first). */
export function startProbe(options: Pick<UploadLoadOptions, 'url' | 'body' | 'intervalMs' | 'seconds'>): { stop(): Promise<ProbeResult>; result: Promise<ProbeResult> } {
  const { child, result } = start<ProbeResult>({ mode: 'probe', ...options });
  return { result, stop: () => (child.stdin!.end(), result) };
}
