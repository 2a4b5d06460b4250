// The Redis client, loaded when a Redis URL is configured: without one (the embedded default) its
// modules would cost about 2 MB of heap for nothing (docs/memory.md). ioredis is
// CommonJS, so require loads it synchronously where a client is made.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

let loaded: typeof Redis | undefined;

export function loadRedis(): typeof Redis {
  return (loaded ??= (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis);
}
