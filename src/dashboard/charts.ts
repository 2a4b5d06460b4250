// Charts drawn on the server as SVG: no script, nothing fetched, and the page's CSP (script-src and
// style-src 'self') holds. Colours come from the stylesheet's variables through classes, so the dark
// theme applies; sizes are SVG attributes (inline styles are refused by the CSP). Each chart has a
// <title> per bar for the numbers on hover and a data table in a <details> for screen readers and
// keyboards; the SVG itself is one image with a summary as its name.
import { html, type Html } from './html.ts';

export interface Series {
  label: string;
  /** The CSS class that colours it: chart-a (accent), chart-b (danger), chart-c (muted). */
  tone: 'chart-a' | 'chart-b' | 'chart-c';
  values: number[];
}

const HEIGHT = 120;
const BAR = 10;
const GAP = 2;

// Both formatters are made on first use: ICU's data is mapped into the process when one is built, memory
// an instance that never draws a chart is spared.
let number: Intl.NumberFormat | undefined;
const count = (n: number) => (number ??= new Intl.NumberFormat('en')).format(n);
const share = (part: number, whole: number) => (whole === 0 ? '0 %' : `${Math.round((part / whole) * 1000) / 10} %`);
// One formatter for every label: toLocaleDateString builds a new one per call (about 0.5 ms each).
let dayFormat: Intl.DateTimeFormat | undefined;
/** 2026-11-27 → 27 Nov */
const shortDay = (day: string) =>
  day ? (dayFormat ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })).format(new Date(`${day}T00:00:00Z`)) : '';

function legend(series: Series[]): Html {
  return html`<ul class="legend">${series.map((s) => html`<li><span class="swatch ${s.tone}" aria-hidden="true"></span>${s.label}</li>`)}</ul>`;
}

function dataTable(caption: string, firstColumn: string, rows: Array<[string, number[]]>, columns: string[]): Html {
  return html`<details class="chart-data"><summary>Data table</summary><div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
  <caption class="visually-hidden">${caption}</caption>
  <thead><tr><th scope="col">${firstColumn}</th>${columns.map((c) => html`<th scope="col" class="num">${c}</th>`)}</tr></thead>
  <tbody>${rows.map(([label, values]) => html`<tr><th scope="row">${label}</th>${values.map((v) => html`<td class="num">${count(v)}</td>`)}</tr>`)}</tbody>
</table></div></details>`;
}

/**
 * Stacked bars, one per day, oldest on the left. The SVG stretches to the panel's width
 * (preserveAspectRatio none: bars may widen, never overflow); the axis labels are HTML beside it.
 */
export function dailyBars(options: { title: string; days: string[]; series: Series[]; summary: string }): Html {
  const { days, series } = options;
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = days.length * (BAR + GAP);
  const bars = days.map((day, i) => {
    let top = HEIGHT;
    const parts = series.map((s) => {
      const value = s.values[i] ?? 0;
      const height = (value / max) * HEIGHT;
      top -= height;
      return value > 0 ? html`<rect class="${s.tone}" x="${i * (BAR + GAP)}" y="${top.toFixed(2)}" width="${BAR}" height="${height.toFixed(2)}"/>` : html``;
    });
    const title = `${shortDay(day)}: ${series.map((s) => `${count(s.values[i] ?? 0)} ${s.label.toLowerCase()}`).join(', ')}`;
    // A full-height transparent target, so that a day with few or none still shows its numbers on hover.
    return html`<g><title>${title}</title><rect class="chart-hit" x="${i * (BAR + GAP)}" y="0" width="${BAR + GAP}" height="${HEIGHT}"/>${parts}</g>`;
  });
  return html`<figure class="chart">
  <figcaption><strong>${options.title}</strong> <span class="muted small">${options.summary}</span></figcaption>
  <div class="chart-plot">
    <div class="chart-scale muted small" aria-hidden="true"><span>${count(max)}</span><span>0</span></div>
    <svg viewBox="0 0 ${width} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${options.title}: ${options.summary}" focusable="false">
      <line class="chart-axis" x1="0" y1="${HEIGHT}" x2="${width}" y2="${HEIGHT}"/>
      ${bars}
    </svg>
  </div>
  <div class="chart-days muted small" aria-hidden="true"><span>${shortDay(days[0] ?? '')}</span><span>${shortDay(days.at(-1) ?? '')}</span></div>
  ${legend(series)}
  ${dataTable(`${options.title}, per day`, 'Day', days.map((day, i) => [day, series.map((s) => s.values[i] ?? 0)]), series.map((s) => s.label))}
</figure>`;
}

/** Horizontal bars for a few named quantities (languages, totals), each with its count and share. */
export function namedBars(options: { title: string; rows: Array<{ label: string; value: number }>; tone: Series['tone']; unit: string }): Html {
  const whole = options.rows.reduce((sum, row) => sum + row.value, 0);
  const max = Math.max(1, ...options.rows.map((row) => row.value));
  return html`<figure class="chart">
  <figcaption><strong>${options.title}</strong></figcaption>
  <ul class="hbars">${options.rows.map((row) => html`<li>
    <span class="hbar-label">${row.label}</span>
    <svg class="hbar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><title>${row.label}: ${count(row.value)} ${options.unit} (${share(row.value, whole)})</title><rect class="chart-track" x="0" y="0" width="100" height="10"/><rect class="${options.tone}" x="0" y="0" width="${((row.value / max) * 100).toFixed(2)}" height="10"/></svg>
    <span class="hbar-value">${count(row.value)} <span class="muted small">${share(row.value, whole)}</span></span>
  </li>`)}</ul>
</figure>`;
}

export const chartText = { count, share };
