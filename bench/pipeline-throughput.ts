// One measured drain of a backlog: `intake worker` processes started and ready, then the whole
// backlog committed at once, then the time until its last submission was final. The end is the
// latest processed_at the workers recorded; a count query every POLL_MS only says when to look.
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTACT_FORM } from './intake-setup.ts';
import type { GeneratedSubmission } from './pipeline-corpus.ts';
import { backlogOutcome, backlogWatcher, writeBacklog, type BacklogOutcome, type JobShape } from './pipeline-data.ts';
import type { BenchStore } from './stores.ts';
import { startWorker } from './worker-process.ts';

const POLL_MS = 100;

/** The contact form with spam protection on, strategy `standard`. */
export const pipelineForm = (slug: string) => ({ ...CONTACT_FORM, name: `Contact (${slug})`, slug, spam_protection_enabled: true, spam_protection_strategy: 'standard' });
const TIMEOUT_MS = 300_000;

export interface ThroughputRun {
  submissions: number;
  workers: number;
  /** From the backlog's commit to the last processed_at. */
  seconds: number;
  perSecond: number;
  outcome: BacklogOutcome;
  /** Every submission final, none failed, no job left behind. */
  clean: boolean;
}

export async function drainBacklog(
  store: BenchStore,
  formId: string,
  submissions: GeneratedSubmission[],
  workers: number,
  options: { env?: Record<string, string>; nodeOptions?: string[]; jobs?: JobShape } = {},
): Promise<ThroughputRun> {
  const env = { ...store.env, ...options.env };
  const processes = await Promise.all(Array.from({ length: workers }, () => startWorker(env, options.nodeOptions)));
  let committedAt: number;
  try {
    committedAt = await writeBacklog(store, formId, submissions, options.jobs);
    const watcher = await backlogWatcher(store, formId);
    try {
      while ((await watcher.unfinished()) > 0) {
        if (Date.now() - committedAt > TIMEOUT_MS) throw new Error(`the backlog was not processed within ${TIMEOUT_MS / 1000} s`);
        await sleep(POLL_MS);
      }
    } finally {
      await watcher.close();
    }
  } finally {
    // SIGTERM: a clean stop, and the profile written when the workers run under --cpu-prof.
    await Promise.all(processes.map((p) => p.stop('SIGTERM')));
  }
  const outcome = await backlogOutcome(store, formId);
  const seconds = (outcome.lastProcessedAt - committedAt) / 1000;
  return {
    submissions: submissions.length,
    workers,
    seconds,
    perSecond: submissions.length / seconds,
    outcome,
    clean: (outcome.statuses.pending ?? 0) + (outcome.statuses.processing ?? 0) + (outcome.statuses.failed ?? 0) === 0 && outcome.jobsLeft === 0,
  };
}
