// Runs the real CLI (or another script) as a child process against a test store.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What a child process keeps of the test run's environment: PATH, and Node's compile cache when the run
 * has one (`npm test` sets it; `npm start` and `npm run intake` keep one too), so that each CLI or
 * server a test starts does not strip the types of every source file again.
 */
export function baseEnv(): Record<string, string> {
  const cache = process.env.NODE_COMPILE_CACHE;
  return { PATH: process.env.PATH ?? '', ...(cache ? { NODE_COMPILE_CACHE: cache } : {}) };
}

/** Runs a TypeScript file with this Node, with only baseEnv() and `env` in its environment, and `input` on its stdin. */
export function runScript(file: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { env: { ...baseEnv(), ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<ScriptResult> {
  return runScript(CLI, args, env, input);
}
