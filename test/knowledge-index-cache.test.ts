// The cache of passage indexes is bounded by their estimated memory, not by their number: the least
// recently used index goes first, a knowledge base keeps only its current version's index, and an
// index larger than the whole budget is still answered and kept alone. An index is built a slice per
// turn of the event loop, so that other work runs meanwhile, and replies that ask for it together share one build.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { estimatedIndexBytes, indexCache } from '../src/knowledge/index-cache.ts';
import { buildIndex, buildIndexInSlices } from '../src/knowledge/retrieval.ts';
import { splitPassages, type Passage } from '../src/knowledge/passages.ts';

const faq = (topic: string, answers: number) =>
  splitPassages(Array.from({ length: answers }, (_, i) => `Q: What about ${topic} number ${i}?\nA: ${topic} ${i} is handled by our team within two days.`).join('\n\n'));

function counted(passages: Passage[]) {
  const loads = { n: 0 };
  return { loads, load: async () => { loads.n += 1; return passages; } };
}

describe('knowledge index cache', () => {
  const small = faq('parking', 5);
  const unit = estimatedIndexBytes(small);

  it('builds an index once per knowledge base version and answers from it', async () => {
    const cache = indexCache(10 * unit);
    const source = counted(small);
    const first = await cache.get('kb-1', 1, source.load);
    assert.equal(await cache.get('kb-1', 1, source.load), first);
    assert.equal(source.loads.n, 1);
    assert.equal(first.search('where do I park')[0]?.passage.heading, 'What about parking number 0?');
  });

  it('keeps within its budget by dropping the least recently used index', async () => {
    const [pa, pb, pc] = [small, faq('refunds', 5), faq('returns', 5)];
    const budget = estimatedIndexBytes(pa) + Math.max(estimatedIndexBytes(pb), estimatedIndexBytes(pc)); // two fit, not three
    const cache = indexCache(budget);
    const [a, b, c] = [counted(pa), counted(pb), counted(pc)];
    await cache.get('a', 1, a.load);
    await cache.get('b', 1, b.load);
    assert.equal(cache.size().indexes, 2);
    await cache.get('a', 1, a.load); // a is now the more recent of the two
    await cache.get('c', 1, c.load); // over budget: b goes, not a
    assert.ok(cache.size().bytes <= budget, JSON.stringify(cache.size()));
    assert.equal(cache.size().indexes, 2);
    await cache.get('a', 1, a.load);
    assert.equal(a.loads.n, 1, 'a was kept');
    await cache.get('b', 1, b.load);
    assert.equal(b.loads.n, 2, 'b was dropped and rebuilt');
  });

  it('keeps one index per knowledge base: a new version replaces the old, an older one never does', async () => {
    const cache = indexCache(10 * unit);
    const v1 = counted(small);
    const v2 = counted(faq('parking and bikes', 5));
    await cache.get('kb', 1, v1.load);
    const newer = await cache.get('kb', 2, v2.load);
    assert.deepEqual(cache.size(), { bytes: estimatedIndexBytes(faq('parking and bikes', 5)), indexes: 1 });
    await cache.get('kb', 1, v1.load); // a reply that read the version before the edit
    assert.equal(await cache.get('kb', 2, v2.load), newer, 'the newer index stays');
    assert.equal(v2.loads.n, 1);
  });

  it('answers from an index larger than the whole budget and keeps it alone', async () => {
    const cache = indexCache(unit);
    await cache.get('small', 1, counted(small).load);
    const large = counted(faq('opening hours', 200));
    assert.ok(estimatedIndexBytes(faq('opening hours', 200)) > unit);
    const index = await cache.get('large', 1, large.load);
    assert.ok(index.search('when are you open').length > 0);
    assert.equal(cache.size().indexes, 1);
    await cache.get('large', 1, large.load);
    assert.equal(large.loads.n, 1);
  });

  it('builds a slice per turn of the event loop, the same index as built at once', async () => {
    const passages = faq('opening hours', 400);
    let turns = 0;
    let building = true;
    const other = (async () => {
      while (building) {
        turns += 1;
        await nextTurn();
      }
    })();
    const sliced = await buildIndexInSlices(passages);
    building = false;
    await other;
    // 400 passages: at least a pause every 32 read and every 32 added to BM25.
    assert.ok(turns >= 20, `other work ran in ${turns} turns during the build`);
    const whole = buildIndex(passages);
    for (const question of ['when are you open on number 17?', 'opening hours 250', 'who handles it?']) {
      assert.deepEqual(sliced.search(question), whole.search(question), question);
      const best = whole.search(question)[0]!.passage;
      assert.deepEqual(sliced.rankSentences(question, best), whole.rankSentences(question, best), question);
      assert.deepEqual(sliced.questionWeights(question), whole.questionWeights(question), question);
    }
  });

  it('shares one build among the replies that ask for an index at once', async () => {
    const cache = indexCache(10 * unit);
    const source = counted(faq('opening hours', 100));
    const indexes = await Promise.all([1, 2, 3].map(() => cache.get('kb', 1, source.load)));
    assert.equal(source.loads.n, 1);
    assert.ok(indexes.every((index) => index === indexes[0]));
    assert.equal(cache.size().indexes, 1);
  });
});
