// Chaos: PostgreSQL crashes under load. A cluster of the test's own (initdb, pg_ctl) serves a real
// `intake serve`; eight clients post submissions while the cluster is stopped in immediate mode
// (every connection cut, as in a crash) and started again. Every 201 must be stored, every refusal
// while it is down a 503 with Retry-After, /readyz 503 meanwhile, and service must return within
// seconds of the database. The figures go to the test output (and docs/operations.md).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { runCli } from './cli.ts';
import { byStatus, longestWait, startLoad } from './chaos-load.ts';
import { CONTACT_SCHEMA, ENGINE, RELAXED_ENV } from './helpers.ts';
import { missing, startPrivatePostgres, type PrivatePostgres } from './private-services.ts';
import { startServer, stop } from './processes.ts';

const UP_BEFORE_MS = 3_000;
const DOWN_MS = 4_000;
const UP_AFTER_MS = 5_000;

// The cluster is the test's own whatever DATABASE_URL says: it runs in the embedded-database pass of
// the suite, and is not repeated in the PostgreSQL pass.
const skip = missing.postgres ?? (ENGINE === 'postgres' && 'runs in the SQLite pass of the suite: its PostgreSQL cluster is its own either way');

describe('chaos: PostgreSQL crashes under load', { skip }, () => {
  let cluster: PrivatePostgres;
  let dataDir: string;
  before(async () => {
    cluster = await startPrivatePostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-chaos-pg-'));
  });
  after(async () => {
    await cluster?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores every 201, refuses with 503 and Retry-After while it is down, and serves again within seconds', async (t) => {
    const env = { ...RELAXED_ENV, INTAKE_FREE_SUBMISSION_LIMIT: '1000000000', DATABASE_URL: cluster.url, INTAKE_DATA_DIR: dataDir, INTAKE_DATABASE_CONNECT_TIMEOUT_MS: '1000' };
    const created = await runCli(['keys', 'create', '--email', 'chaos@example.com', '--name', 'k'], env);
    assert.equal(created.code, 0, created.stderr);
    const server = await startServer(env);
    try {
      const form = (await (await fetch(`${server.base}/api/forms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.stdout.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Chaos', slug: 'chaos', visibility: 'public', fields_schema: CONTACT_SCHEMA }),
      })).json()) as { endpoint: string };

      const load = startLoad({
        base: server.base, endpoint: new URL(form.endpoint).pathname, clients: 8,
        durationMs: 60_000, maxRequests: 60_000, pauseAfterRefusalMs: 50,
      });
      // /readyz and /healthz as a load balancer and a person would see them, every 100 ms.
      const probes: Array<{ at: number; ready: number; database: string; ms: number }> = [];
      let probesDone = false;
      const probing = (async () => {
        while (!probesDone) {
          const at = load.now();
          const ready = (await fetch(`${server.base}/readyz`)).status;
          const health = (await (await fetch(`${server.base}/healthz`)).json()) as { database: { status: string } };
          probes.push({ at, ready, database: health.database.status, ms: load.now() - at });
          await sleep(100);
        }
      })();

      await sleep(UP_BEFORE_MS);
      const downAt = load.now();
      await cluster.crash();
      await sleep(DOWN_MS);
      await cluster.start();
      const upAt = load.now();
      await sleep(UP_AFTER_MS);
      load.stop();
      probesDone = true;
      await Promise.all([load.done, probing]);

      const answers = load.answers;
      const ids = answers.filter((a) => a.status === 201).map((a) => a.id!);
      const db = new pg.Client({ connectionString: cluster.url });
      await db.connect();
      const { rows } = await db.query<{ n: string }>('select count(*) as n from submissions where id::text = any($1::text[])', [ids]);
      await db.end();
      const refusals = answers.filter((a) => a.status !== 201);
      const firstAfter = answers.filter((a) => a.status === 201 && a.answered > upAt).sort((a, b) => a.answered - b.answered)[0];
      const readyAgain = probes.find((p) => p.at > upAt && p.ready === 200);
      const figures = {
        requests: answers.length,
        created: ids.length,
        stored: Number(rows[0]!.n),
        refusalsByStatus: byStatus(refusals),
        refusedWhileDown: refusals.filter((a) => a.sent >= downAt && a.sent < upAt).length,
        longestWaitMs: Math.round(longestWait(answers)),
        firstCreatedAfterRestartMs: firstAfter ? Math.round(firstAfter.answered - upAt) : null,
        readyAgainAfterRestartMs: readyAgain ? Math.round(readyAgain.at - upAt) : null,
        slowestProbeMs: Math.round(Math.max(...probes.map((p) => p.ms))),
        databaseDownForMs: Math.round(upAt - downAt),
      };
      t.diagnostic(`chaos figures, PostgreSQL stopped in immediate mode for ${figures.databaseDownForMs} ms: ${JSON.stringify(figures)}`);

      assert.equal(figures.stored, ids.length, 'every submission answered 201 is stored');
      assert.ok(ids.length > 100, `${ids.length} submissions created`);
      assert.ok(refusals.length > 0, 'some requests came while the database was down');
      for (const refusal of refusals) {
        assert.equal(refusal.status, 503, `refused with ${refusal.status} at ${Math.round(refusal.sent)} ms (down ${Math.round(downAt)} to ${Math.round(upAt)} ms)`);
        assert.match(refusal.retryAfter ?? '', /^\d+$/, 'a 503 says when to come back');
      }
      assert.ok(probes.some((p) => p.at > downAt + 500 && p.at < upAt && p.ready === 503 && p.database === 'down'), '/readyz 503 and /healthz "down" while it is down');
      assert.ok(figures.firstCreatedAfterRestartMs !== null && figures.firstCreatedAfterRestartMs < 5_000, 'submissions are stored again within seconds');
      assert.ok(figures.readyAgainAfterRestartMs !== null && figures.readyAgainAfterRestartMs < 5_000, '/readyz answers 200 again within seconds');
    } finally {
      await stop(server.child);
    }
  });
});
