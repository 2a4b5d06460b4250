// Submit throughput while Redis is down, as a ratio to the throughput with Redis up (issue 26).
// Intake (embedded SQLite) keeps its rate limits in a redis-server of the bench's own. Each run
// measures three servers in turn, alike but for Redis: up; killed once the server has started
// (connections refused: every command fails at once); frozen with SIGSTOP (the port open and
// nothing answering: every command waits for its timeout until the breaker opens). Ratios are
// taken within a run.
import { randomBytes } from 'node:crypto';
import { missing, startPrivateRedis, type PrivateRedis } from '../test/private-services.ts';
import { CONTACT_SUBMISSION, createForm, createOwner } from './intake-setup.ts';
import { runLoad, type LoadResult } from './load-client.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { createStore } from './stores.ts';
import { fixed, median, ms, table, whole } from './stats.ts';
import { CONNECTIONS, WARMUP_SECONDS } from './submit-targets.ts';

type Mode = 'up' | 'killed' | 'frozen';
const MODES: Mode[] = ['up', 'killed', 'frozen'];
const LABELS: Record<Mode, string> = {
  up: 'Redis up',
  killed: 'Redis killed (connections refused)',
  frozen: 'Redis frozen (SIGSTOP: no answers)',
};

async function measure(redis: PrivateRedis, mode: Mode, seconds: number): Promise<LoadResult> {
  const store = await createStore('sqlite', null);
  try {
    const env = { ...store.env, REDIS_URL: redis.url, INTAKE_REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}:` };
    const key = await createOwner(env);
    const server = await startIntake(env);
    try {
      const form = await createForm(server.base, key);
      if (mode === 'killed') await redis.kill();
      if (mode === 'frozen') redis.freeze();
      return await runLoad({
        url: `${server.base}${form.endpointPath}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)', referer: 'https://example.com/contact' },
        body: JSON.stringify(CONTACT_SUBMISSION),
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_SECONDS,
        seconds,
      });
    } finally {
      await server.stop('SIGKILL');
      if (mode === 'killed') await redis.start();
      if (mode === 'frozen') redis.thaw();
    }
  } finally {
    await store.cleanup();
  }
}

type Run = Record<Mode, LoadResult>;

function render(runs: Run[], context: BenchContext): string {
  const ratio = (run: Run, mode: Mode) => run[mode].requestsPerSecond / run.up.requestsPerSecond;
  const summary = table(
    ['Redis', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Ratio to Redis up', 'Non-2xx + errors'],
    MODES.map((mode) => [
      LABELS[mode],
      whole(median(runs.map((run) => run[mode].requestsPerSecond))),
      ms(median(runs.map((run) => run[mode].p50))),
      ms(median(runs.map((run) => run[mode].p99))),
      mode === 'up' ? '1' : fixed(median(runs.map((run) => ratio(run, mode))), 2),
      whole(runs.reduce((sum, run) => sum + run[mode].non2xx + run[mode].errors, 0)),
    ]),
  );
  const perRun = table(
    ['Run', ...MODES.map((mode) => `${mode} req/s`), 'killed/up', 'frozen/up'],
    runs.map((run, i) => [String(i + 1), ...MODES.map((mode) => whole(run[mode].requestsPerSecond)), fixed(ratio(run, 'killed'), 2), fixed(ratio(run, 'frozen'), 2)]),
  );
  return [
    `Intake on embedded SQLite with REDIS_URL set (rate limits in Redis, raised so that none is reached), autocannon with ${CONNECTIONS} ` +
      `connections, ${WARMUP_SECONDS} s of warm-up then ${context.loadSeconds} s measured. Redis is killed or frozen after the server ` +
      'has started and before the load, so the warm-up sees the breaker open (three failures in a row, 50 ms each at most). ' +
      `Medians of ${runs.length} runs; a ratio is the median of the per-run ratios.`,
    `\n${summary}\n\n**Per run**\n\n${perRun}`,
  ].join('\n');
}

function checks(runs: Run[]): TargetCheck[] {
  return (['killed', 'frozen'] as const).map((mode) => {
    const value = median(runs.map((run) => run[mode].requestsPerSecond / run.up.requestsPerSecond));
    return {
      name: `Submit throughput, ${LABELS[mode]} / Redis up`,
      goal: '≥ 0.5',
      measured: fixed(value, 2),
      met: value >= 0.5,
      limit: 'the breaker: until three commands in a row have failed, each request waits for its own (at most 50 ms)',
    };
  });
}

export const redisOutageSection: Section = {
  name: 'redis-outage',
  title: 'Submit throughput while Redis is down',
  async run(context: BenchContext): Promise<SectionResult> {
    if (missing.redis) return { markdown: `Skipped: ${missing.redis}.`, targets: [] };
    const redis = await startPrivateRedis();
    try {
      const runs: Run[] = [];
      for (let i = 0; i < context.runs; i++) {
        const run = {} as Run;
        for (const mode of MODES) {
          context.log(`redis-outage run ${i + 1}: ${mode}`);
          run[mode] = await measure(redis, mode, context.loadSeconds);
        }
        runs.push(run);
      }
      return { markdown: render(runs, context), targets: checks(runs) };
    } finally {
      redis.thaw();
      await redis.remove();
    }
  },
};
