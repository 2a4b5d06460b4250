// Group commit: writes that arrive in the same event-loop turn, or while a transaction is
// committing, share one transaction, so one commit (one fsync) makes a whole batch durable. Each
// caller still learns its own outcome, and nobody is answered before its commit has returned.

export type BatchFlush<I, O> = (items: I[]) => Promise<O[]>;

interface Waiting<I, O> {
  item: I;
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

export class GroupCommit<I, O> {
  readonly #flush: BatchFlush<I, O>;
  readonly #maxBatch: number;
  readonly #maxConcurrent: number;
  #queue: Array<Waiting<I, O>> = [];
  #running = 0;
  #scheduled = false;

  /** maxConcurrent > 1 lets batches overlap where the engine commits them in parallel. */
  constructor(flush: BatchFlush<I, O>, options: { maxBatch: number; maxConcurrent: number }) {
    this.#flush = flush;
    this.#maxBatch = options.maxBatch;
    this.#maxConcurrent = options.maxConcurrent;
  }

  write(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.#maxConcurrent || this.#queue.length === 0) return;
    this.#scheduled = true;
    // Flushing at once would send each write alone before the next request is even read. Waiting
    // for the end of this I/O turn gathers everything that arrived in it.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running++;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, this.#maxBatch);
        // What is left over may commit beside this batch where the engine allows it.
        this.#schedule();
        try {
          const outcomes = await this.#flush(batch.map((w) => w.item));
          batch.forEach((w, i) => w.resolve(outcomes[i] as O));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.#running--;
    }
  }
}
