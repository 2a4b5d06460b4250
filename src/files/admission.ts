// How many uploaded files the process reads at once (INTAKE_UPLOAD_CONCURRENCY). Upload bytes pass
// through the main thread that also answers every other request: twenty files streaming at full
// speed kept it about 80 % busy and multiplied the JSON submit p99 (docs/performance.md). A file part
// waits here before a byte of it is read; meanwhile nothing reads its connection, so the client is
// held back by TCP itself, not by buffers in Intake. The wait is bounded: after
// INTAKE_UPLOAD_QUEUE_TIMEOUT_MS the post gets 503 with Retry-After rather than hanging.
import { AppError } from '../http/errors.ts';

export interface UploadAdmission {
  /** Resolves with the release once the file may be read; rejects with a 503 after the wait limit. */
  acquire(): Promise<() => void>;
  /** Files being read now, and the most there ever were at once (for tests and the bench). */
  stats(): { active: number; waiting: number; peak: number };
}

/** Seconds a client is told to wait: the queue empties within about one wait limit. */
function busy(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError('service_unavailable', 503, `Too many files are being uploaded right now. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, undefined, { retry_after: seconds });
}

export function uploadAdmission(options: { concurrency: number; waitMs: number }): UploadAdmission {
  let active = 0;
  let peak = 0;
  // First come, first served: a waiter is resolved (given a slot) or timed out, never both.
  const waiting: Array<{ admit: () => void }> = [];

  function release(): void {
    const next = waiting.shift();
    if (next) next.admit();
    else active -= 1;
  }
  function slot(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  return {
    acquire() {
      if (active < options.concurrency) {
        active += 1;
        peak = Math.max(peak, active);
        return Promise.resolve(slot());
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          // The slot passes from the releaser to this waiter: `active` does not change.
          admit: () => {
            clearTimeout(timer);
            resolve(slot());
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(busy(options.waitMs));
        }, options.waitMs);
        waiting.push(waiter);
      });
    },
    stats: () => ({ active, waiting: waiting.length, peak }),
  };
}
