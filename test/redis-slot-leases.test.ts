// In-flight slots in Redis are leases (src/limits/in-flight.ts): taken for a short lease and renewed by
// the process that holds them, so a held slot counts as long as its holder lives, never past its hold
// time, and the slots of a process that died (or stopped renewing) are free within the lease rather
// than after the hold time (45 s for a delivery by default). Against the Redis at 127.0.0.1:6379,
// under a key prefix of the test's own; short leases keep it quick.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { breakerSlots, redisSlots, type InFlightSlots, type LeasedSlots } from '../src/limits/in-flight.ts';
import { loadRedis } from '../src/limits/ioredis.ts';
import { RedisBreaker } from '../src/limits/redis-breaker.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const LEASE_MS = 1_000;
/** How much later than its lease a lapsed slot may be seen free: the poll, a loaded host. */
const MARGIN_MS = 1_000;
/** A hold time far beyond every wait here: only the lease can free these slots in time. */
const HOLD_MS = 60_000;
const PREFIX = `slot-leases-test-${randomUUID().slice(0, 8)}:`;

async function redisAnswers(): Promise<boolean> {
  const probe = new (loadRedis())(REDIS_URL, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** How long until `slots` can take a slot of `key` (released again at once), polled every 50 ms. */
async function msUntilFree(slots: InFlightSlots, key: string, limitMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const release = await slots.take(key, 1, HOLD_MS);
    if (release) {
      await release();
      return performance.now() - started;
    }
    await sleep(50);
  }
  return Infinity;
}

describe('in-flight slots in Redis are leases', { skip: !(await redisAnswers()) && 'no Redis at 127.0.0.1:6379' }, () => {
  let redis: Redis;
  const instances: LeasedSlots[] = [];
  /** The slots of one process. */
  const processSlots = (leaseMs = LEASE_MS) => {
    const slots = redisSlots(redis, PREFIX, leaseMs);
    instances.push(slots);
    return slots;
  };
  before(() => {
    redis = new (loadRedis())(REDIS_URL);
  });
  after(async () => {
    for (const slots of instances) slots.stopRenewing();
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('keeps a held slot past its lease while its holder renews it, and frees it at once on release', async () => {
    const key = randomUUID();
    const [holder, other] = [processSlots(), processSlots()];
    const release = await holder.take(key, 1, HOLD_MS);
    assert.ok(release);
    await sleep(LEASE_MS * 2.5);
    assert.equal(await other.take(key, 1, HOLD_MS), null, 'still held two leases and a half later');
    const ttl = await redis.pttl(`${PREFIX}slots:${key}`);
    assert.ok(ttl > 0 && ttl <= LEASE_MS, `the key lives as long as its slot's lease (${ttl} ms)`);
    await release();
    const again = await other.take(key, 1, HOLD_MS);
    assert.ok(again, 'a released slot is free at the first try');
    await again();
  });

  it('frees within its lease the slot of a holder that stops renewing without releasing', async (t) => {
    const key = randomUUID();
    const [stalled, other] = [processSlots(), processSlots()];
    assert.ok(await stalled.take(key, 1, HOLD_MS));
    await sleep(LEASE_MS * 1.5);
    stalled.stopRenewing();
    assert.equal(await other.take(key, 1, HOLD_MS), null, 'held while it was renewed');
    const freedAfter = await msUntilFree(other, key, HOLD_MS);
    t.diagnostic(`free ${freedAfter.toFixed(0)} ms after the renewals stopped (lease ${LEASE_MS} ms)`);
    assert.ok(freedAfter <= LEASE_MS + MARGIN_MS, `free ${freedAfter.toFixed(0)} ms after the renewals stopped`);
  });

  it('frees within its lease the slot of a process killed with SIGKILL', async (t) => {
    const key = randomUUID();
    const inFlight = new URL('../src/limits/in-flight.ts', import.meta.url).href;
    const ioredis = new URL('../src/limits/ioredis.ts', import.meta.url).href;
    // A worker process that takes a slot and holds it, renewing, until it is killed.
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      const { redisSlots } = await import(${JSON.stringify(inFlight)});
      const { loadRedis } = await import(${JSON.stringify(ioredis)});
      const redis = new (loadRedis())(${JSON.stringify(REDIS_URL)});
      const release = await redisSlots(redis, ${JSON.stringify(PREFIX)}, ${LEASE_MS}).take(${JSON.stringify(key)}, 1, ${HOLD_MS});
      process.stdout.write(release ? 'held\\n' : 'refused\\n');`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
        child.once('exit', (code) => reject(new Error(`the slot holder exited with ${code}`)));
      });
      assert.equal(answer, 'held');
      const other = processSlots();
      await sleep(LEASE_MS * 2.5);
      assert.equal(await other.take(key, 1, HOLD_MS), null, 'the living process renews its slot');
      child.kill('SIGKILL');
      await exited;
      const freedAfter = await msUntilFree(other, key, HOLD_MS);
      t.diagnostic(`free ${freedAfter.toFixed(0)} ms after the kill (lease ${LEASE_MS} ms)`);
      assert.ok(freedAfter <= LEASE_MS + MARGIN_MS, `free ${freedAfter.toFixed(0)} ms after the kill`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('never holds a slot past its hold time, however long its holder renews it', async (t) => {
    const key = randomUUID();
    const [holder, other] = [processSlots(), processSlots()];
    const holdMs = LEASE_MS * 2;
    assert.ok(await holder.take(key, 1, holdMs));
    await sleep(LEASE_MS * 1.5);
    assert.equal(await other.take(key, 1, HOLD_MS), null, 'renewed past its first lease');
    const freedAfter = await msUntilFree(other, key, HOLD_MS);
    // Taken 1.5 leases ago with a hold of 2: free half a lease from now, as before leases.
    t.diagnostic(`free ${freedAfter.toFixed(0)} ms after, with its hold time ${LEASE_MS * 0.5} ms away`);
    assert.ok(freedAfter <= LEASE_MS * 0.5 + MARGIN_MS, `free ${freedAfter.toFixed(0)} ms after, with a hold time half a lease away`);
  });

  it('counts the breaker\'s slots in Redis, renewing them through it, and falls back to memory without Redis', async () => {
    const options = { commandTimeoutMs: 500, breakAfter: 3, probeMs: 500 };
    const up = new RedisBreaker({ url: REDIS_URL, ...options });
    const down = new RedisBreaker({ url: 'redis://127.0.0.1:9', ...options });
    const [shared, local] = [breakerSlots(up, PREFIX, LEASE_MS), breakerSlots(down, PREFIX, LEASE_MS)];
    instances.push(shared, local);
    try {
      await up.ready(5_000);
      const key = randomUUID();
      const release = await shared.take(key, 1, HOLD_MS);
      assert.ok(release);
      await sleep(LEASE_MS * 2.5);
      assert.equal(await processSlots().take(key, 1, HOLD_MS), null, 'held in Redis past its lease');
      await release();
      assert.ok(await processSlots().take(key, 1, HOLD_MS), 'and released there at once');

      // Without Redis the cap holds in the process's memory: two of two, then none.
      const taken = [await local.take(key, 2, HOLD_MS), await local.take(key, 2, HOLD_MS), await local.take(key, 2, HOLD_MS)];
      assert.deepEqual(taken.map((r) => r !== null), [true, true, false]);
      assert.equal(down.status().inForce, true);
    } finally {
      await up.close();
      await down.close();
    }
  });
});
