// Signed, expiring download links for places outside the dashboard (webhooks, chat, email,
// exports): HMAC-SHA256 over the file id and the expiry, with a key derived from the server's
// secret key (src/secrets/box.ts), so a link cannot be made or stretched without it. A link holds
// no other right: serving it looks the file up, so the link of a deleted file answers 404.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../http/errors.ts';

export const LINK_PURPOSE = 'file-links';

function signature(key: Buffer, fileId: string, expires: number): string {
  return createHmac('sha256', key).update(`${fileId}\n${expires}`).digest('base64url');
}

export function signedFileUrl(key: Buffer, baseUrl: string, fileId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${baseUrl}/files/${fileId}?expires=${expires}&sig=${signature(key, fileId, expires)}`;
}

/** Throws 403 for a link that was altered or has expired. */
export function checkSignedLink(key: Buffer, fileId: string, expires: string, sig: string, now: Date): void {
  const seconds = /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
  const expected = Buffer.from(Number.isNaN(seconds) ? '' : signature(key, fileId, seconds));
  const given = Buffer.from(sig);
  if (Number.isNaN(seconds) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('forbidden', 403, 'This download link is not valid: it was changed, or is not one Intake made.');
  }
  if (seconds * 1000 <= now.getTime()) throw new AppError('forbidden', 403, 'This download link has expired: ask for a new one.');
}

/** RFC 6266 with RFC 5987's filename*: an ASCII fallback for old clients, the UTF-8 name for the rest. */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Never shown as a page from Intake's origin: an uploaded HTML or SVG cannot run as Intake. */
export const DOWNLOAD_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'cache-control': 'private, no-store',
  'cross-origin-resource-policy': 'same-origin',
} as const;
