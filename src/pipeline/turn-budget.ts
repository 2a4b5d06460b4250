// The pipeline's work in slices of the event loop's turns. On SQLite every store call resolves at
// once (the connection is synchronous), so a batch job's submissions, side by side, would run their
// spam checks, language detection and final statuses as one macrotask: with `npm start`'s embedded
// worker that held the process's only thread for tens of milliseconds (hundreds on a busy host), and
// no request was read meanwhile. Each submission asks for a turn before each step; once the current
// turn has run for the budget, every asker waits for the same `setImmediate`, which lets the event
// loop poll its sockets (at once, or after one more slice when the pause began in the poll phase).
// The submissions that reach their final status in one slice still share one commit (the group
// commit gathers a turn's writes), so the slice trades a few more commits per batch for a bounded stall. On PostgreSQL every store call waits on the network and the
// turns come on their own: the budget is rarely reached.

export class TurnBudget {
  readonly #budgetMs: number;
  readonly #now: () => number;
  /** When this turn's first asker asked; null once the event loop has turned. */
  #turnStart: number | null = null;
  #pause: Promise<void> | null = null;

  constructor(budgetMs: number, now: () => number = () => performance.now()) {
    this.#budgetMs = budgetMs;
    this.#now = now;
  }

  /**
   * Nothing to wait for while this turn is within its budget (undefined, so the caller skips an
   * await); past it, a promise that resolves in the event loop's next turn, the same for every asker.
   */
  turn(): Promise<void> | undefined {
    if (this.#pause) return this.#pause;
    const now = this.#now();
    if (this.#turnStart === null) {
      this.#turnStart = now;
      // Runs in the loop's check phase, after this iteration's callbacks (a turn may span several of
      // them, which only makes the budget stricter): the next asker starts a new turn.
      setImmediate(() => {
        this.#turnStart = null;
      });
      return undefined;
    }
    if (now - this.#turnStart < this.#budgetMs) return undefined;
    this.#pause = new Promise((resolve) => {
      // Queued from the check phase (a resumed slice), it waits for the loop's next iteration, after
      // its poll; queued from a timer or an I/O callback, it runs in this iteration's check phase.
      setImmediate(() => {
        this.#pause = null;
        this.#turnStart = null;
        resolve();
      });
    });
    return this.#pause;
  }
}
