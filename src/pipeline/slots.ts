// A counting semaphore in one process: `take` waits for a free slot and returns its release.
export class Slots {
  readonly #waiting: Array<() => void> = [];
  #free: number;

  constructor(size: number) {
    this.#free = size;
  }

  async take(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // A waiting taker inherits the slot; only with nobody waiting does it become free.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
