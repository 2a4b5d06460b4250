// The dashboard's inbox of a form with a million submissions: the first page and page 50,000
// (20 rows a page: the last page of All, a million rows deep) must answer in under 100 ms. A third
// of them are done, so the Inbox tab (neither spam nor done) and the Done tab are splits of their own. The
// owner logs in as a person would, through a one-time set-password link printed by the CLI.
// On the same data, the overview (issue 24): its pages over HTTP and its queries in this process
// (overview-queries.ts), p99 under 50 ms.
import { createForm, createOwner, runCli } from './intake-setup.ts';
import { measureLatency, type LatencyResult } from './latency-client.ts';
import { generatePostgres, generateSqlite } from './listing-data.ts';
import type { BenchContext, Section, SectionResult, TargetCheck } from './section.ts';
import { startIntake } from './server-process.ts';
import { table, whole } from './stats.ts';
import { ENGINE_NAMES, failuresOf, latencyChecks, latencyTable, type EngineRuns } from './latency-report.ts';
import { measureOverviewQueries, QUERY_LABELS } from './overview-queries.ts';
import { createStore, type Engine } from './stores.ts';

const SUBMISSIONS = 1_000_000;
const REQUESTS = 100;
const WARMUP = 5;
const TARGET_MS = 100;
const EMAIL = 'bench@example.com';

const QUERIES = [
  { label: 'Inbox, page 1', path: '', target: true },
  { label: 'All, page 50,000 (the last)', path: '?tab=all&page=50000', target: true },
  { label: 'Spam, page 1', path: '?tab=spam', target: false },
  { label: 'Inbox, page 25,000', path: '?page=25000', target: false },
  { label: 'Done, page 1', path: '?tab=done', target: false },
  { label: 'Done, page 10,000', path: '?tab=done&page=10000', target: false },
  { label: 'Search, first page', path: '?q=trial', target: false },
];

const OVERVIEW_TARGET_MS = 50;
const OVERVIEW_PAGES = [
  { label: 'Overview page, 90 days', path: '/overview?range=90', target: true },
  { label: 'Overview page, 30 days', path: '/overview', target: false },
  { label: "Form's overview tab, 90 days", path: '/forms/FORM?range=90', target: true },
];
const OVERVIEW_QUERIES = Object.values(QUERY_LABELS).map((label) => ({ label, path: '', target: label !== QUERY_LABELS.indexWalk }));

interface EngineResult {
  engine: Engine;
  runs: Array<Record<string, LatencyResult>>;
  pages: EngineRuns;
  queries: EngineRuns;
}

/** Sets the owner's password through the link and returns the session cookie. */
async function logIn(base: string, link: string): Promise<string> {
  const path = new URL(link);
  const form = await fetch(`${base}${path.pathname}${path.search}`);
  const pre = /intake_pre=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')?.[1];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!pre || !csrf) throw new Error('the set-password page gave no token');
  const body = new URLSearchParams({ _csrf: csrf, token: path.searchParams.get('token') ?? '', password: 'bench password 1234' });
  const done = await fetch(`${base}/set-password`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: `intake_pre=${pre}`, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const session = /intake_session=([^;]+)/.exec(done.headers.get('set-cookie') ?? '')?.[1];
  if (done.status !== 303 || !session) throw new Error(`set-password answered ${done.status}`);
  return `intake_session=${session}`;
}

async function measureEngine(engine: Engine, context: BenchContext): Promise<EngineResult> {
  const store = await createStore(engine, context.postgresUrl);
  try {
    const key = await createOwner(store.env, EMAIL);
    const link = await runCli(['users', 'password-link', '--email', EMAIL], store.env);
    const server = await startIntake(store.env);
    try {
      const cookie = await logIn(server.base, link);
      const form = await createForm(server.base, key);
      context.log(`dashboard (${engine}): generating ${whole(SUBMISSIONS)} submissions`);
      if (engine === 'sqlite') generateSqlite(store, form.id, SUBMISSIONS);
      else await generatePostgres(store, form.id, SUBMISSIONS);
      const runs: EngineResult['runs'] = [];
      const pages: EngineResult['runs'] = [];
      context.log(`dashboard (${engine}): the overview's queries`);
      const queries = await measureOverviewQueries(store, form.id, context.runs);
      for (let i = 1; i <= context.runs; i++) {
        context.log(`dashboard (${engine}) run ${i}/${context.runs}`);
        runs.push(await measureLatency({
          base: `${server.base}/forms/${form.id}/inbox`,
          headers: { cookie },
          queries: QUERIES.map(({ label, path }) => ({ label, path })),
          warmup: WARMUP,
          requests: REQUESTS,
        }));
        pages.push(await measureLatency({
          base: server.base,
          headers: { cookie },
          queries: OVERVIEW_PAGES.map(({ label, path }) => ({ label, path: path.replace('FORM', form.id) })),
          warmup: WARMUP,
          requests: REQUESTS,
        }));
      }
      return { engine, runs, pages: { engine, runs: pages }, queries: { engine, runs: queries } };
    } finally {
      await server.stop();
    }
  } finally {
    await store.cleanup();
  }
}

const asTable = ({ header, rows }: { header: string[]; rows: string[][] }) => table(header, rows);

function render(results: EngineResult[], context: BenchContext): string {
  const { header, rows } = latencyTable('Dashboard page (GET /forms/:id/inbox…)', QUERIES, results, TARGET_MS);
  const failures = failuresOf(results);
  return [
    `The whole HTML page of a form's inbox (session lookup, form, rows, escaping, layout) with ${whole(SUBMISSIONS)} submissions, ` +
      `20 rows a page, logged in with a session cookie; ${REQUESTS} sequential requests per line after ${WARMUP} untimed ones, ` +
      `timed by a client in its own process (an upper bound of the server's time). Medians over ${context.runs} runs of each run's p50 and p99.` +
      (results.some((r) => r.engine === 'postgres') ? '' : ' PostgreSQL was not reachable: SQLite only.'),
    '',
    table(header, rows),
    '',
    `Answers other than 200: ${failures}. A search reads at most 20,000 positions per page, newest first, and links to the next window; here the term is common.`,
    '',
    `The overview (issue 24) on the same data: its submissions span the last 347 days (one every 30 s, up to now), so 90 days hold about 259,000. ` +
      `Its pages, fetched as above (${REQUESTS} requests per line, whole HTML with four charts and their data tables):`,
    '',
    asTable(latencyTable('Overview page', OVERVIEW_PAGES, results.map((r) => r.pages), OVERVIEW_TARGET_MS)),
    '',
    `Its queries, in the benchmark's process straight against the store (200 sequential calls per line after 10 untimed; the index walk 10 calls). ` +
      'The last line is what the same 90 days cost read from the submissions through the covering index get_submission_stats used before migration 0023:',
    '',
    asTable(latencyTable('Query', OVERVIEW_QUERIES, results.map((r) => r.queries), OVERVIEW_TARGET_MS)),
  ].join('\n');
}

function checks(results: EngineResult[]): TargetCheck[] {
  return [
    ...latencyChecks('Dashboard', QUERIES, results, TARGET_MS),
    ...latencyChecks('Overview', OVERVIEW_PAGES, results.map((r) => r.pages), OVERVIEW_TARGET_MS),
    ...latencyChecks('Overview query', OVERVIEW_QUERIES, results.map((r) => r.queries), OVERVIEW_TARGET_MS),
  ];
}

export const dashboardSection: Section = {
  name: 'dashboard',
  title: 'Dashboard inbox and overview at a million submissions',
  async run(context): Promise<SectionResult> {
    const results = [await measureEngine('sqlite', context)];
    if (context.postgresUrl) results.push(await measureEngine('postgres', context));
    return { markdown: render(results, context), targets: checks(results) };
  },
};
