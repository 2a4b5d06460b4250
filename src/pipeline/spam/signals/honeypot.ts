// A honeypot is a field hidden from people; anything in it was put there by a bot.

import { isHoneypot } from '../../../forms/field-schema.ts';
import type { SignalHit, SpamInput } from '../types.ts';

export const HONEYPOT_WEIGHT = 10;

export function honeypotSignal(input: SpamInput): SignalHit | null {
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
