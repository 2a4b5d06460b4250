// HTML that escapes by default: every value interpolated into html`…` is escaped unless it is
// itself Html (made by html`…` or raw()). Submission data, names and messages are hostile, so
// the only way to put markup on a page is to write it in a template of this folder.
import escapeHtml from 'escape-html';

export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as Value) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Markup written in this codebase, never data. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * A link target from hostile data: only http(s) and mailto survive; anything else (javascript:,
 * data:, vbscript:) becomes inert text-free "#".
 */
export function safeHref(url: string): string {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : '#';
  } catch {
    return '#';
  }
}

/** A time as UTC text, short enough for a table. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
}

/** Shows any JSON value as text; objects and arrays pretty-printed. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}
