// Work written once as a generator that yields where it may pause, run either at once (scripts,
// tests) or a slice per turn of the event loop (a worker that shares its thread with the API).
import { setImmediate as nextTurn } from 'node:timers/promises';

export type Steps<T> = Generator<void, T, void>;

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Between two slices, everything else that is ready (requests above all) runs. */
export async function runInSlices<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
