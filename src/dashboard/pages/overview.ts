// The overview: the account's activity across its forms at /overview, and one form's on its
// overview tab: submissions per day with their spam, languages, replies made and declined,
// notifications delivered and failed, over the last 7, 30 or 90 UTC days (links switch the range,
// so it works without JavaScript). Read from the daily counts, never from the submissions.
import type { FastifyInstance } from 'fastify';
import { OVERVIEW_RANGES, type Overview, type OverviewRange } from '../../analysis/overview.ts';
import { chartText, dailyBars, namedBars } from '../charts.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { page, sendPage } from '../layout.ts';
import { sessionOf } from '../page-context.ts';
import { languageName } from './submission-summary.ts';

const { count, share } = chartText;
const LANGUAGES_SHOWN = 8;

/** `range` from a query string: 7, 30 or 90 days, else 30. */
export function rangeOf(query: unknown): OverviewRange {
  const asked = Number((query as { range?: unknown } | undefined)?.range);
  return (OVERVIEW_RANGES as readonly number[]).includes(asked) ? (asked as OverviewRange) : 30;
}

function rangeSwitch(current: OverviewRange, hrefOf: (range: OverviewRange) => string): Html {
  return html`<nav class="segmented" aria-label="Range"><ul>${OVERVIEW_RANGES.map(
    (range) => html`<li><a href="${hrefOf(range)}"${range === current ? html` aria-current="page"` : ''}>${range} days</a></li>`,
  )}</ul></nav>`;
}

function languageRows(overview: Overview): Array<{ label: string; value: number }> {
  const shown = overview.languages.slice(0, LANGUAGES_SHOWN).map((l) => ({ label: languageName(l.language), value: l.submissions }));
  const rest = overview.languages.slice(LANGUAGES_SHOWN).reduce((sum, l) => sum + l.submissions, 0);
  return rest > 0 ? [...shown, { label: 'Other languages', value: rest }] : shown;
}

/** The figures and charts of an overview; `empty` is shown instead when nothing arrived in the range. */
export function overviewCharts(overview: Overview, hrefOf: (range: OverviewRange) => string, empty: Html): Html {
  const { totals, range } = overview;
  const days = overview.days.map((d) => d.day);
  const series = <K extends keyof Overview['days'][number]>(key: K) => overview.days.map((d) => d[key] as number);
  const made = totals.repliesDrafted + totals.repliesSent;
  const notified = totals.delivered + totals.deliveryFailures;
  const head = html`<div class="row-between chart-head"><h2 id="activity-title">Last ${range} days <span class="muted small">(UTC)</span></h2>${rangeSwitch(range, hrefOf)}</div>`;
  if (totals.received === 0 && notified === 0) return html`<section class="panel" aria-labelledby="activity-title">${head}<div class="empty">${empty}</div></section>`;
  const languages = languageRows(overview);
  return html`<section class="panel" aria-labelledby="activity-title">${head}
  <dl class="facts stats">
    <div><dt>Submissions</dt><dd>${count(totals.received)}</dd></div>
    <div><dt>Spam</dt><dd>${share(totals.spam, totals.received)} <span class="muted small">(${count(totals.spam)})</span></dd></div>
    <div><dt>Replies made</dt><dd>${count(made)} <span class="muted small">${count(totals.repliesDeclined)} declined</span></dd></div>
    <div><dt>Notifications failed</dt><dd>${count(totals.deliveryFailures)} <span class="muted small">of ${count(notified)}</span></dd></div>
  </dl>
  <div class="charts">
    ${dailyBars({
      title: 'Submissions per day',
      summary: `${count(totals.received)} in ${range} days, ${share(totals.spam, totals.received)} spam`,
      days,
      series: [
        { label: 'Not spam', tone: 'chart-a', values: overview.days.map((d) => d.received - d.spam) },
        { label: 'Spam', tone: 'chart-b', values: series('spam') },
      ],
    })}
    ${languages.length
      ? namedBars({ title: 'Languages', rows: languages, tone: 'chart-a', unit: 'submissions' })
      : html`<figure class="chart"><figcaption><strong>Languages</strong></figcaption><p class="muted">No language detected yet: turn on translation in a form's settings to detect the language of each submission.</p></figure>`}
    ${dailyBars({
      title: 'Smart replies per day',
      summary: `${count(made)} made (${count(totals.repliesSent)} sent), ${count(totals.repliesDeclined)} declined`,
      days,
      series: [
        { label: 'Drafted', tone: 'chart-c', values: series('repliesDrafted') },
        { label: 'Sent', tone: 'chart-a', values: series('repliesSent') },
        { label: 'Declined', tone: 'chart-b', values: series('repliesDeclined') },
      ],
    })}
    ${dailyBars({
      title: 'Notifications per day',
      summary: `${count(totals.delivered)} delivered, ${count(totals.deliveryFailures)} failed`,
      days,
      series: [
        { label: 'Delivered', tone: 'chart-a', values: series('delivered') },
        { label: 'Failed', tone: 'chart-b', values: series('deliveryFailures') },
      ],
    })}
  </div>
</section>`;
}

export async function overviewPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { analysis, forms } = deps.services;

  app.get('/overview', async (request, reply) => {
    const session = sessionOf(request);
    const range = rangeOf(request.query);
    const [overview, owned] = await Promise.all([analysis.overview(session.account.id, null, range), forms.list(session.account.id)]);
    const empty = owned.length === 0
      ? html`<h3>No forms yet</h3><p>Create a form, paste its snippet into your site, and its submissions are charted here.</p><a class="button primary" href="/forms/new">Create your first form</a>`
      : html`<h3>No submissions in the last ${range} days</h3><p>Open a form and paste its snippet into your site (or send a test with its <code>curl</code> line); ${range < 90 ? html`or look at <a href="/overview?range=90">the last 90 days</a>.` : 'each submission then appears here.'}</p><a class="button primary" href="/forms/${owned[0]!.id}#snippets-title">Get the snippet of ${owned[0]!.name}</a>`;
    return sendPage(reply, page({
      title: 'Overview',
      session,
      section: 'overview',
      body: html`<div class="page-head"><h1>Overview</h1><p class="muted">All your forms${owned.length ? html` (${owned.length})` : ''}; figures per UTC day.</p></div>
${overviewCharts(overview, (r) => `/overview?range=${r}`, empty)}`,
    }));
  });
}
