// The pg driver, loaded when a PostgreSQL database (or transport) is first opened: an embedded SQLite
// process never needs it, and its modules cost about 3 MB of heap (docs/memory.md).
// pg is CommonJS, so require loads it synchronously where openDatabase needs it.
import { createRequire } from 'node:module';
import type pgModule from 'pg';

let loaded: typeof pgModule | undefined;

export function loadPg(): typeof pgModule {
  return (loaded ??= createRequire(import.meta.url)('pg') as typeof pgModule);
}
