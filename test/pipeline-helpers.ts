// The real app and a real pipeline worker sharing its queue, on the test's own database.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningWorker } from '../src/jobs/queue.ts';
import type { ServiceOptions } from '../src/services.ts';
import { startWorkers } from '../src/workers.ts';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

export interface LoggedLine {
  level: 'info' | 'error';
  object: Record<string, unknown>;
  message: string;
}

export interface PipelineApp extends TestApp {
  log: LoggedLine[];
}

/** Retries are quick so that tests of backoff take milliseconds. */
export const FAST_RETRY_ENV = { INTAKE_PIPELINE_RETRY_SCHEDULE: '20ms,40ms,80ms,160ms,200ms' };

/** The app with both of its workers, the pipeline's and the deliveries'; what they log is kept in `log`. */
export async function startPipelineApp(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<PipelineApp> {
  const t = await startTestApp({ ...FAST_RETRY_ENV, ...env }, options);
  const log: LoggedLine[] = [];
  const worker: RunningWorker = await startWorkers(t.config, t.database, t.services, {
    info: (object, message) => log.push({ level: 'info', object: object as Record<string, unknown>, message }),
    error: (object, message) => log.push({ level: 'error', object: object as Record<string, unknown>, message }),
  });
  return {
    ...t,
    log,
    async close() {
      await worker.stop();
      await t.close();
    },
  };
}

/** Polls until `probe` gives something other than undefined, failing the test after the deadline. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface Processed {
  id: string;
  processing_status: string;
  processing_reason: string | null;
  spam_flag: boolean;
  spam_confidence: number | null;
  spam_reason: string | null;
  original_language: string | null;
  translated_data: Record<string, string> | null;
  processed_at: string | null;
  spam_corrected_at: string | null;
  data: Record<string, unknown>;
}

const FINAL = ['completed', 'skipped', 'failed'];

/** Polls the management API until the submission reaches a final status. */
export async function settled(t: TestApp, key: string, formId: string, id: string, timeoutMs = 15_000): Promise<Processed> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key) });
    assert.equal(response.statusCode, 200, response.body);
    const submission = response.json() as Processed;
    if (FINAL.includes(submission.processing_status)) return submission;
    if (Date.now() > deadline) assert.fail(`submission ${id} still ${submission.processing_status} (${submission.processing_reason})`);
    await sleep(10);
  }
}

export async function submit(t: TestApp, endpoint: string, data: Record<string, unknown>): Promise<string> {
  const response = await t.request({ method: 'POST', url: pathOf(endpoint), headers: { 'content-type': 'application/json' }, payload: data });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: string }).id;
}

export async function submitAndSettle(t: TestApp, key: string, form: { id: string; endpoint: string }, data: Record<string, unknown>) {
  return settled(t, key, form.id, await submit(t, form.endpoint, data));
}

export { bearer, createForm };
