// How fast the process reads uploaded file bytes, all uploads together (INTAKE_UPLOAD_BANDWIDTH).
// Every upload byte passes through the main thread (multipart parsing, the limit and type checks,
// the hash, the write): twenty files at full speed kept it about 80 % busy and multiplied the JSON
// submit p99 (docs/performance.md). A token bucket shared by every upload spaces their chunks out,
// so the event loop is free between them for everything else. A chunk over the budget is held, not
// copied: its stream stops pulling, busboy stops reading the socket, and TCP holds the sender back.

export interface UploadPace {
  /** Milliseconds the caller must wait before passing on `bytes` more (0: at once). */
  take(bytes: number): number;
  /** Chunks held so far, and the bytes in them (for tests and the bench). */
  stats(): { held: number; heldBytes: number };
}

/**
 * A bucket of `bytesPerSecond` (0: no limit) holding at most `burstBytes`. Takers may run it into
 * debt: each waits until the debt it left is paid, so concurrent uploads queue behind one another
 * in the order they asked and the total rate stays at the limit.
 */
export function uploadPace(bytesPerSecond: number, options: { burstBytes?: number; now?: () => number } = {}): UploadPace {
  if (bytesPerSecond <= 0) return { take: () => 0, stats: () => ({ held: 0, heldBytes: 0 }) };
  const now = options.now ?? (() => performance.now());
  // One socket chunk by default: a larger burst lets the uploads take the loop for that long at once.
  const burst = options.burstBytes ?? 64 * 1024;
  let tokens = burst;
  let last = now();
  let held = 0;
  let heldBytes = 0;
  return {
    take(bytes) {
      const at = now();
      tokens = Math.min(burst, tokens + ((at - last) * bytesPerSecond) / 1000);
      last = at;
      tokens -= bytes;
      if (tokens >= 0) return 0;
      held += 1;
      heldBytes += bytes;
      return Math.ceil((-tokens * 1000) / bytesPerSecond);
    },
    stats: () => ({ held, heldBytes }),
  };
}
