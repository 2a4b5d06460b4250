// A honeypot is a field hidden from people; anything in it was put there by a bot.

import { isHoneypot } from '../../../forms/field-schema.ts';
import type { SignalHit, SpamInput } from '../types.ts';

export const HONEYPOT_WEIGHT = 10;

export function honeypotSignal(input: SpamInput): SignalHit | null {
  // A plain HTML form's `_gotcha` (src/html-forms): never stored as data, remembered in the metadata.
  if (input.posted?.honeypot) return { id: 'honeypot', weight: HONEYPOT_WEIGHT, detail: 'hidden honeypot field filled (_gotcha)' };
  const filled = input.fields.filter((field) => isHoneypot(field) && isFilled(Object.hasOwn(input.data, field.name) ? input.data[field.name] : undefined));
  if (filled.length === 0) return null;
  const names = filled.map((field) => field.name).join(', ');
  return { id: 'honeypot', weight: HONEYPOT_WEIGHT, detail: `hidden honeypot field filled (${names})` };
}

function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** A post without Origin or Referer to a form that lists the sites allowed to post: weak alone, as privacy settings drop both. */
export function unknownOriginSignal(input: SpamInput): SignalHit | null {
  return input.posted?.unknownOrigin ? { id: 'unknown_origin', weight: 0.5, detail: 'posted without Origin or Referer to a form that lists its websites' } : null;
}
