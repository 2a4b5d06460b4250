// One-time notices across a redirect (post, redirect, get): what a change has to say, or a
// secret to show once, left for the session's next page and deleted as that page reads it. Kept
// in the database, so the next request may reach another process; sealed with AES-256-GCM under a
// key derived from the session's cookie, which the database never holds (only its hash), so the
// table alone reveals no key or secret.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardDeps } from './deps.ts';
import { html, type Html } from './html.ts';
import { notice, shownOnce } from './layout.ts';
import { SESSION_COOKIE } from './session-cookies.ts';

export interface Flash {
  kind: 'ok' | 'warn' | 'error';
  text: string;
  /** Shown once with a copy button (a new API key, a signing secret). */
  secret?: { label: string; value: string };
  /** Anything else the next page needs and must not travel in its URL (an email address searched for). */
  value?: string;
}

function keyOf(token: string): Buffer {
  return Buffer.from(hkdfSync('sha256', token, 'intake', 'dashboard flash', 32));
}

export function sealFlash(token: string, flash: Flash): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export function openFlash(token: string, payload: string): Flash | null {
  try {
    const bytes = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as Flash;
  } catch {
    return null;
  }
}

/** Answers a POST with 303 to `location`, leaving `flash` for the page found there. */
export async function redirectWith(request: FastifyRequest, reply: FastifyReply, deps: DashboardDeps, location: string, flash: Flash): Promise<FastifyReply> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await deps.services.dashboard.leaveFlash(token, sealFlash(token, flash));
  return reply.redirect(location, 303);
}

/** The notice left for this page, if any (read once). */
export async function takeFlash(request: FastifyRequest, deps: DashboardDeps): Promise<Flash | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const payload = await deps.services.dashboard.takeFlash(token);
  return payload === null ? null : openFlash(token, payload);
}

export function flashNotice(flash: Flash | null): Html {
  if (!flash) return html``;
  if (flash.secret) return shownOnce(flash.secret.label, flash.secret.value);
  return notice(flash.kind, flash.text);
}
