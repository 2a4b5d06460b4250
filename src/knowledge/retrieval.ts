// Ranked full-text retrieval over a knowledge base's passages: BM25 (MiniSearch) over English
// stems without stop words, the heading (a Q&A pair's question) weighted well above the body. An
// index is built from the stored passages and cached per knowledge base version, so every worker
// ranks the same way and an edited knowledge base is never answered from a stale index.
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import type { Passage } from './passages.ts';

export interface Match {
  passage: Passage;
  score: number;
  /**
   * Share of the query's distinct terms found in the passage's heading (its question), or in its
   * body when it has none: a question is answered by a passage about the same things.
   */
  coverage: number;
}

const STOP_WORDS = new Set(eng);
const CACHE_LIMIT = 200;
const HEADING_BOOST = 10;
/** Queries are cut to this many characters: a long submission must not make a search slow. */
const MAX_QUERY_CHARS = 4000;
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  return stemmer(lower);
}

export function queryTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const token of tokenize(text.slice(0, MAX_QUERY_CHARS))) {
    const term = processTerm(token);
    if (term) terms.add(term);
  }
  return terms;
}

export interface PassageIndex {
  readonly passages: readonly Passage[];
  search(query: string, limit?: number): Match[];
}

export function buildIndex(passages: Passage[]): PassageIndex {
  const search = new MiniSearch<{ id: number; heading: string; body: string }>({
    idField: 'id',
    fields: ['heading', 'body'],
    processTerm,
    searchOptions: { boost: { heading: HEADING_BOOST }, processTerm },
  });
  search.addAll(passages.map((p) => ({ id: p.position, heading: p.heading ?? '', body: p.body })));
  const byPosition = new Map(passages.map((p) => [p.position, p]));
  return {
    passages,
    search(query, limit = 5) {
      const text = query.slice(0, MAX_QUERY_CHARS);
      const terms = queryTerms(text);
      if (terms.size === 0) return [];
      return search.search(text).slice(0, limit).flatMap((r) => {
        const passage = byPosition.get(r.id as number);
        if (!passage) return [];
        const fields = Object.values(r.match as Record<string, string[]>);
        const covered = passage.heading ? fields.filter((f) => f.includes('heading')).length : fields.length;
        return [{ passage, score: r.score, coverage: covered / terms.size }];
      });
    },
  };
}

/** Indexes by knowledge base and version; the oldest goes when the cache is full. */
export function indexCache(limit = CACHE_LIMIT) {
  const cache = new Map<string, PassageIndex>();
  return {
    async get(id: string, version: number, load: () => Promise<Passage[]>): Promise<PassageIndex> {
      const key = `${id}@${version}`;
      const found = cache.get(key);
      if (found) return found;
      const index = buildIndex(await load());
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(key, index);
      return index;
    },
  };
}

export type IndexCache = ReturnType<typeof indexCache>;
