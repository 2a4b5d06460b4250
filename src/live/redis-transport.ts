// Redis pub/sub: PUBLISH on the deployment's prefix; each API process subscribes on a connection
// of its own (a subscribed connection can do nothing else), opened when its first page subscribes.
// ioredis reconnects by itself and subscribes again; the pages are then told to refresh, since
// pub/sub keeps nothing for a subscriber that was away.
import type { Redis } from 'ioredis';
import { loadRedis } from '../limits/ioredis.ts';
import type { Config } from '../config.ts';
import type { LiveTransport } from './bus.ts';

export function redisTransport(redis: NonNullable<Config['redis']>): LiveTransport {
  const channel = `${redis.prefix}live`;
  // Publishing never waits for a Redis that is down: the offline queue is off and the command fails at once.
  const publisher = new (loadRedis())(redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  publisher.on('error', () => {});
  let subscriber: Redis | null = null;
  let connecting: Promise<void> | null = null;
  const connected = () => {
    if (publisher.status === 'ready') return Promise.resolve();
    connecting ??= publisher.connect().finally(() => (connecting = null));
    return connecting;
  };

  return {
    kind: 'redis',
    maxBytes: 64_000,
    async send(message) {
      if (publisher.status === 'wait') await connected();
      await publisher.publish(channel, message);
    },
    async listen(onMessage, onResumed) {
      const next = new (loadRedis())(redis.url, { lazyConnect: true, maxRetriesPerRequest: null });
      next.on('error', () => {});
      let first = true;
      next.on('ready', () => {
        if (!first) onResumed();
        first = false;
      });
      next.on('message', (from: string, message: string) => {
        if (from === channel) onMessage(message);
      });
      subscriber = next;
      await next.connect();
      await next.subscribe(channel);
    },
    async close() {
      const open = subscriber;
      subscriber = null;
      open?.disconnect();
      publisher.disconnect();
    },
  };
}
