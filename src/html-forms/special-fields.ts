// The hidden fields a plain HTML form may send beside its data (`_next`, `_subject`, `_replyto`,
// `_gotcha`, `_language`) and the CAPTCHA tokens (src/captcha names them): none is ever stored as data. Nothing a request
// sends can set recipients, webhooks or templates: `_cc`, `_webhook`, `_template` and any other
// `_`-name the schema does not define are dropped.
import { CAPTCHA_FIELDS } from '../captcha/index.ts';
import type { FieldDefinition } from '../forms/field-schema.ts';
import { originOf } from '../forms/origins.ts';
import type { FormRecord } from '../forms/store.ts';

export const SPECIAL_FIELDS = ['_next', '_subject', '_replyto', '_gotcha', '_language'] as const;

/** Languages Intake's own pages speak (pages.ts). */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

const SUBJECT_MAX = 200;
const SINGLE_ADDRESS = /^[^\s@,;<>"()]{1,64}@[^\s@,;<>"()]{1,255}$/;

export interface SpecialFields {
  next: string | null;
  subject: string | null;
  replyTo: string | null;
  honeypot: boolean;
  language: PageLanguage | null;
}

export interface SplitBody {
  /** The data to validate: every name the schema defines or that is no special one (the validator refuses strangers). */
  data: Record<string, string | string[]>;
  special: SpecialFields;
  /** CAPTCHA tokens by member name, handed to the submissions service, which checks them (src/captcha). */
  captcha: Record<string, string>;
}

const last = (values: string[] | undefined): string | null => (values && values.length > 0 ? values[values.length - 1]! : null);

/** A language tag as `_language` or Accept-Language gives it, if Intake's pages speak it. */
export function pageLanguage(tag: string | null | undefined): PageLanguage | null {
  const primary = tag?.trim().slice(0, 2).toLowerCase();
  return (PAGE_LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as PageLanguage) : null;
}

/** The first language of an Accept-Language header that Intake's pages speak. */
export function acceptedLanguage(header: string | undefined): PageLanguage | null {
  for (const part of (header ?? '').slice(0, 256).split(',')) {
    const language = pageLanguage(part.split(';')[0]);
    if (language) return language;
  }
  return null;
}

/**
 * Splits what the browser sent. Repeated names stay lists, except for a boolean field, where the last
 * wins (the hidden "off" before a checkbox); a list for any other field is refused by the validator.
 */
export function splitBody(values: Map<string, string[]>, fields: readonly FieldDefinition[]): SplitBody {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const data: Record<string, string | string[]> = Object.create(null);
  const captcha: Record<string, string> = Object.create(null);
  for (const [name, list] of values) {
    if ((SPECIAL_FIELDS as readonly string[]).includes(name)) continue;
    // A CAPTCHA token is not data, unless the form declares a field of that name (src/captcha checks it).
    if (CAPTCHA_FIELDS.includes(name) && !byName.has(name)) {
      captcha[name] = last(list) ?? '';
      continue;
    }
    const field = byName.get(name);
    if (!field && name.startsWith('_')) continue;
    data[name] = list.length === 1 || field?.type === 'boolean' ? last(list)! : list;
  }
  const subject = last(values.get('_subject'))?.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim().slice(0, SUBJECT_MAX) || null;
  const replyTo = last(values.get('_replyto'))?.trim() ?? '';
  return {
    data: { ...data },
    captcha: { ...captcha },
    special: {
      next: last(values.get('_next'))?.trim() || null,
      subject,
      replyTo: SINGLE_ADDRESS.test(replyTo) ? replyTo : null,
      honeypot: (last(values.get('_gotcha')) ?? '').trim() !== '',
      language: pageLanguage(last(values.get('_language'))),
    },
  };
}

/**
 * Where `_next` may send the browser: a path on the posting page's own site, or an absolute URL on a
 * site the owner named (allowed_origins, or redirect_url's). Anything else is ignored: Intake is no
 * open redirect.
 */
export function safeNext(next: string | null, form: Pick<FormRecord, 'settings'>, postingOrigin: string | null): string | null {
  if (!next || next.length > 2048) return null;
  if (next.startsWith('/')) {
    // `//host` and `/\host` are other sites to a browser.
    if (next.startsWith('//') || next.startsWith('/\\') || !postingOrigin) return null;
    try {
      const url = new URL(next, postingOrigin);
      return url.origin === postingOrigin ? url.href : null;
    } catch {
      return null;
    }
  }
  const origin = originOf(next);
  if (!origin) return null;
  const { allowed_origins: allowed, redirect_url: redirect } = form.settings;
  return allowed.includes(origin) || (redirect !== null && originOf(redirect) === origin) ? new URL(next).href : null;
}
