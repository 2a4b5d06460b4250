// Which transport carries live events, by the configuration: Redis when REDIS_URL is set (as the
// shared limits do), else PostgreSQL's LISTEN/NOTIFY on that engine, else this process's memory
// (the embedded SQLite default: the API and its workers are one process).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { liveBus, memoryTransport, type LiveBus } from './bus.ts';
import { postgresTransport } from './postgres-transport.ts';
import { redisTransport } from './redis-transport.ts';

export function liveBusFor(config: Config, database: Database): LiveBus {
  if (config.redis) return liveBus(redisTransport(config.redis));
  if (database.pgPool && config.databaseUrl) return liveBus(postgresTransport(database.pgPool, config.databaseUrl, database.jobsSchema));
  return liveBus(memoryTransport());
}
