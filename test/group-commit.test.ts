import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GroupCommit } from '../src/db/group-commit.ts';

/** A flush that records its batches and waits until released, like a commit waiting on fsync. */
function controlledFlush() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const flush = async (items: number[]) => {
    batches.push(items);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise<void>((resolve) => releases.push(resolve));
    inFlight--;
    if (items.includes(-1)) throw new Error('commit failed');
    return items.map((n) => n * 10);
  };
  const releaseAll = async () => {
    await new Promise((r) => setImmediate(r));
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { flush, batches, releaseAll, maxInFlight: () => maxInFlight };
}

describe('group commit', () => {
  it('commits the writes of one turn together, and those arriving during a commit in the next', async () => {
    const c = controlledFlush();
    const writer = new GroupCommit(c.flush, { maxBatch: 100, maxConcurrent: 1 });
    const sameTurn = [1, 2, 3].map((n) => writer.write(n));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(c.batches, [[1, 2, 3]]);
    const duringCommit = [4, 5].map((n) => writer.write(n));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(c.batches, [[1, 2, 3]], 'nothing else commits while the first commit runs');
    for (let i = 0; i < 3; i++) await c.releaseAll();
    assert.deepEqual(await Promise.all([...sameTurn, ...duringCommit]), [10, 20, 30, 40, 50]);
    assert.deepEqual(c.batches, [[1, 2, 3], [4, 5]]);
  });

  it('splits at maxBatch and never runs more flushes at once than allowed', async () => {
    const c = controlledFlush();
    const writer = new GroupCommit(c.flush, { maxBatch: 2, maxConcurrent: 2 });
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => writer.write(n));
    for (let i = 0; i < 10; i++) await c.releaseAll();
    assert.deepEqual(await Promise.all(all), [10, 20, 30, 40, 50, 60, 70]);
    assert.ok(c.batches.every((b) => b.length <= 2));
    assert.deepEqual(c.batches.flat().sort(), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(c.maxInFlight(), 2);
  });

  it('fails only the writes of a failed commit; later writes go on', async () => {
    const c = controlledFlush();
    const writer = new GroupCommit(c.flush, { maxBatch: 100, maxConcurrent: 1 });
    const failing = writer.write(-1);
    const failingResult = failing.then(() => 'stored', (e: Error) => e.message);
    for (let i = 0; i < 3; i++) await c.releaseAll();
    assert.equal(await failingResult, 'commit failed');
    const later = writer.write(7);
    for (let i = 0; i < 3; i++) await c.releaseAll();
    assert.equal(await later, 70);
  });
});
