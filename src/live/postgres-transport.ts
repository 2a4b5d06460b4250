// PostgreSQL LISTEN/NOTIFY: a publisher notifies through the pool (one statement per batch); each
// API process listens on one connection of its own, opened when its first page subscribes, and
// opened again after it drops (the pages are then told to refresh: NOTIFY keeps nothing for later).
import type pg from 'pg';
import { loadPg } from '../db/pg.ts';
import type { LiveTransport } from './bus.ts';

/** NOTIFY refuses payloads from 8,000 bytes on. */
const MAX_PAYLOAD = 7_900;
const RECONNECT_MS = [250, 1_000, 2_000, 5_000];

/** The channel of one deployment: every process sharing the job schema shares it too (tests each have their own). */
export function channelName(jobsSchema: string): string {
  return `intake_live_${jobsSchema.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 63).toLowerCase();
}

export function postgresTransport(pool: pg.Pool, databaseUrl: string, jobsSchema: string): LiveTransport {
  const channel = channelName(jobsSchema);
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  async function connect(onMessage: (message: string) => void, onLost: () => void): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: databaseUrl });
    next.on('notification', (notice) => {
      if (notice.channel === channel && notice.payload) onMessage(notice.payload);
    });
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      if (client === next) client = null;
      next.end().catch(() => {});
      if (!closed) onLost();
    };
    next.on('error', drop);
    next.on('end', drop);
    await next.connect();
    await next.query(`LISTEN "${channel}"`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  }

  return {
    kind: 'postgres',
    maxBytes: MAX_PAYLOAD,
    async send(message) {
      // Named: prepared once per connection instead of parsed with every stored batch.
      await pool.query({ name: 'intake_live_notify', text: 'select pg_notify($1, $2)', values: [channel, message] });
    },
    async listen(onMessage, onResumed) {
      let attempt = 0;
      const reconnect = () => {
        if (closed || retry) return;
        const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)] as number;
        retry = setTimeout(() => {
          retry = null;
          connect(onMessage, reconnect).then(() => {
            attempt = 0;
            onResumed();
          }, reconnect);
        }, delay);
        retry.unref();
      };
      await connect(onMessage, reconnect);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
