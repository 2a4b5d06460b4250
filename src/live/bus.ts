// The live bus: events published where facts are committed, in any process, reach the dashboard
// streams of every API process. One transport per process (a LISTEN connection, a Redis
// subscriber, or nothing but memory), fanned out here to the streams of each owner.
import { messagesOf, parseEvents, type LiveEvent } from './events.ts';

/** `resync`: the transport was interrupted; events may have been missed, so pages refresh once. */
export type LiveListener = (event: LiveEvent | 'resync') => void;

export interface LiveLog {
  warn(object: object, message: string): void;
}

/** How messages cross processes. `listen` starts receiving; `onResumed` runs after a reconnection. */
export interface LiveTransport {
  kind: 'postgres' | 'redis' | 'memory';
  /** Largest message, in bytes. */
  maxBytes: number;
  send(message: string): Promise<void>;
  listen(onMessage: (message: string) => void, onResumed: () => void): Promise<void>;
  close(): Promise<void>;
}

export interface LiveBus {
  kind: LiveTransport['kind'];
  /** Fire and forget: never delays the caller, and a failure is only logged (pages also refresh on their own). */
  publish(events: LiveEvent[]): void;
  /** Resolves once the transport listens; the returned function unsubscribes. */
  subscribe(account: string, listener: LiveListener): Promise<() => void>;
  /** Listeners in this process, for tests and the health of the stream route. */
  listeners(): number;
  useLog(log: LiveLog): void;
  close(): Promise<void>;
}

const WARN_EVERY_MS = 60_000;

export function liveBus(transport: LiveTransport): LiveBus {
  const byAccount = new Map<string, Set<LiveListener>>();
  let log: LiveLog = { warn: () => {} };
  let listening: Promise<void> | null = null;
  let closed = false;
  let lastWarning = 0;
  let unreported = 0;

  const deliver = (event: LiveEvent | 'resync', listeners: Iterable<LiveListener>) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.warn({ err: error }, 'a live listener failed');
      }
    }
  };
  const received = (message: string) => {
    for (const event of parseEvents(message)) {
      const listeners = byAccount.get(event.account);
      if (listeners) deliver(event, [...listeners]);
    }
  };
  const resumed = () => {
    for (const listeners of byAccount.values()) deliver('resync', [...listeners]);
  };

  return {
    kind: transport.kind,
    publish(events) {
      if (closed || events.length === 0) return;
      for (const message of messagesOf(events, transport.maxBytes)) {
        transport.send(message).catch((error: unknown) => {
          // While Redis or PostgreSQL is away every batch fails: one line a minute says so.
          const now = Date.now();
          if (now - lastWarning < WARN_EVERY_MS) return void unreported++;
          log.warn({ err: error, transport: transport.kind, unreported }, 'live events were not published');
          lastWarning = now;
          unreported = 0;
        });
      }
    },
    async subscribe(account, listener) {
      if (closed) throw new Error('the live bus is closed');
      listening ??= transport.listen(received, resumed).catch((error: unknown) => {
        listening = null;
        throw error;
      });
      await listening;
      const listeners = byAccount.get(account) ?? new Set();
      listeners.add(listener);
      byAccount.set(account, listeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && byAccount.get(account) === listeners) byAccount.delete(account);
      };
    },
    listeners: () => [...byAccount.values()].reduce((n, set) => n + set.size, 0),
    useLog(next) {
      log = next;
    },
    async close() {
      closed = true;
      byAccount.clear();
      await transport.close();
    },
  };
}

/** One process: published events come back to this process's listeners, after the caller's turn. */
export function memoryTransport(): LiveTransport {
  let onMessage: ((message: string) => void) | null = null;
  return {
    kind: 'memory',
    maxBytes: 64_000,
    async send(message) {
      queueMicrotask(() => onMessage?.(message));
    },
    async listen(handler) {
      onMessage = handler;
    },
    async close() {
      onMessage = null;
    },
  };
}
