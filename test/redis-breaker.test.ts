// The breaker in front of Redis, against a redis-server of the test's own: commands time out after
// their deadline, three failures in a row send every caller to memory at once, the log says so,
// and Redis answering a background ping ends the fallback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { breakerSlots } from '../src/limits/in-flight.ts';
import { FALLBACK, RedisBreaker } from '../src/limits/redis-breaker.ts';
import { missing, startPrivateRedis, type PrivateRedis } from './private-services.ts';

describe('the Redis breaker', { skip: missing.redis ?? false }, () => {
  let redis: PrivateRedis;
  let breaker: RedisBreaker;
  const logged: string[] = [];
  before(async () => {
    redis = await startPrivateRedis();
    // A deadline far from "at once", so that a loaded machine cannot blur the two.
    breaker = new RedisBreaker({ url: redis.url, commandTimeoutMs: 300, breakAfter: 3, probeMs: 200 });
    breaker.useLog({ warn: (_d, message) => logged.push(`warn: ${message}`), info: (_d, message) => logged.push(`info: ${message}`) });
    await breaker.ready(5_000);
  });
  after(async () => {
    redis?.thaw();
    await breaker?.close();
    await redis?.remove();
  });

  /** How long one command takes to come back, and what it came back with. */
  async function timed(): Promise<{ ms: number; answer: unknown }> {
    const start = performance.now();
    const answer = await breaker.run((r) => r.incr('breaker-test'));
    return { ms: performance.now() - start, answer };
  }

  it('falls back after three timeouts in a row, at once after that, and says so', async () => {
    assert.equal(typeof (await timed()).answer, 'number');
    assert.deepEqual(breaker.status(), { inForce: false, since: null, openings: 0 });
    redis.freeze();
    const first = [await timed(), await timed(), await timed()];
    for (const { ms, answer } of first) {
      assert.equal(answer, FALLBACK);
      assert.ok(ms >= 290 && ms < 2_000, `a command that got no answer took ${ms.toFixed(0)} ms`);
    }
    assert.equal(breaker.status().inForce, true);
    assert.match(logged.join('\n'), /warn: Redis is not answering/);
    const open = await timed();
    assert.equal(open.answer, FALLBACK);
    assert.ok(open.ms < 150, `with the breaker open a caller waited ${open.ms.toFixed(1)} ms`);
  });

  it('caps work in flight in memory meanwhile, at once', async () => {
    const slots = breakerSlots(breaker, 'breaker-test:');
    const started = performance.now();
    const taken = [await slots.take('destination', 2, 60_000), await slots.take('destination', 2, 60_000), await slots.take('destination', 2, 60_000)];
    // A take sent to the frozen Redis would wait a second (the workers' deadline).
    assert.ok(performance.now() - started < 300, 'no command was sent');
    assert.deepEqual(taken.map((release) => release !== null), [true, true, false]);
    await taken[0]!();
    assert.ok(await slots.take('destination', 2, 60_000), 'a released slot can be taken again');
  });

  it('uses Redis again once a background ping is answered, and says so', async () => {
    redis.thaw();
    for (let i = 0; i < 50 && breaker.status().inForce; i++) await sleep(50);
    assert.equal(breaker.status().inForce, false, 'closed within 2.5 s of Redis answering');
    assert.equal(typeof (await timed()).answer, 'number');
    assert.match(logged.join('\n'), /info: Redis answers again/);
    assert.equal(breaker.status().openings, 1);
  });

  it('falls back at once when Redis is gone, and comes back when it is started again', async () => {
    await redis.kill();
    for (let i = 0; i < 3; i++) {
      const { ms, answer } = await timed();
      assert.equal(answer, FALLBACK);
      assert.ok(ms < 250, `a command to a dead Redis (deadline 300 ms) took ${ms.toFixed(0)} ms`);
    }
    assert.equal(breaker.status().inForce, true);
    await redis.start();
    for (let i = 0; i < 100 && breaker.status().inForce; i++) await sleep(50);
    assert.equal(breaker.status().inForce, false, 'closed within 5 s of Redis starting');
  });
});
