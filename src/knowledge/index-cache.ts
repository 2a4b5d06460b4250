// The passage indexes of the knowledge bases replies were made from lately, kept in memory within a
// budget. An index takes far more heap than its text (scripts/knowledge-index-memory.ts: about 200 KB
// for 3,000 characters, 8.4 MB for 508,000, the default's largest), so a count of indexes says
// nothing of their memory: 200 of the largest would need 1.7 GB. The budget is in estimated bytes,
// and the index used least recently goes first. One knowledge base keeps one index, of its current
// version.
import type { Passage } from './passages.ts';
import { buildIndexInSlices, type PassageIndex } from './retrieval.ts';

/** Three of the largest knowledge bases INTAKE_KB_MAX_BYTES allows by default, or about 200 small ones. */
export const INDEX_CACHE_BUDGET_BYTES = 32 * 1024 * 1024;

// Fitted from above on that script's sizes (3,000 to 508,000 characters), never below what it measured.
const OWN_BYTES = 160_000;
const BYTES_PER_CHAR = 17;

/** The heap an index of these passages is expected to hold (the measured model above). */
export function estimatedIndexBytes(passages: readonly Passage[]): number {
  let chars = 0;
  for (const passage of passages) chars += passage.body.length + (passage.heading?.length ?? 0);
  return OWN_BYTES + BYTES_PER_CHAR * chars;
}

interface Entry {
  version: number;
  index: PassageIndex;
  bytes: number;
}

export function indexCache(budgetBytes = INDEX_CACHE_BUDGET_BYTES) {
  // A Map iterates in insertion order: re-inserting an entry on use keeps the least recent first.
  const entries = new Map<string, Entry>();
  let held = 0;

  function drop(id: string): void {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    held -= entry.bytes;
  }

  // Builds under way, so that replies arriving meanwhile wait for the same one instead of each
  // building their own.
  const building = new Map<string, Promise<Entry>>();

  async function build(version: number, load: () => Promise<Passage[]>): Promise<Entry> {
    const passages = await load();
    return { version, index: await buildIndexInSlices(passages), bytes: estimatedIndexBytes(passages) };
  }

  return {
    async get(id: string, version: number, load: () => Promise<Passage[]>): Promise<PassageIndex> {
      const found = entries.get(id);
      if (found && found.version === version) {
        entries.delete(id);
        entries.set(id, found);
        return found.index;
      }
      const key = `${id}@${version}`;
      let pending = building.get(key);
      if (!pending) {
        pending = build(version, load).finally(() => building.delete(key));
        building.set(key, pending);
      }
      const entry = await pending;
      if (entries.get(id) === entry) return entry.index; // another caller of the same build kept it
      // A request for an older version (a reply that read the version before an edit) is answered
      // but never replaces a newer index.
      const current = entries.get(id);
      if (current && current.version > version) return entry.index;
      drop(id);
      // An index larger than the whole budget is still kept, alone: the next reply from it is as fast.
      for (const oldest of entries.keys()) {
        if (held + entry.bytes <= budgetBytes) break;
        drop(oldest);
      }
      entries.set(id, entry);
      held += entry.bytes;
      return entry.index;
    },
    /** Estimated bytes held, and by how many indexes. */
    size: () => ({ bytes: held, indexes: entries.size }),
  };
}

export type IndexCache = ReturnType<typeof indexCache>;
