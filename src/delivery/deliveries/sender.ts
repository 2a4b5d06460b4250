// One attempt of one delivery: the destination's format, signed where it is a webhook, sent over
// the SSRF-checked client (or SMTP), and the answer classified for the retry policy.
import type { Role } from '../../db/tables.ts';
import type { Destination } from '../destinations/store.ts';
import { MailError, notificationEmail, type Mailer } from '../email.ts';
import { discordMessage } from '../formats/discord.ts';
import { googleChatMessage } from '../formats/google-chat.ts';
import { slackMessage } from '../formats/slack.ts';
import { teamsMessage } from '../formats/teams.ts';
import { telegramMessage, telegramUrl } from '../formats/telegram.ts';
import { OutboundError, send, type OutboundPolicy, type SendOptions } from '../outbound/index.ts';
import { signatureHeaders } from '../signing.ts';
import { retryAfterSeconds } from '../../pipeline/provider-http.ts';
import type { DeliveryPayload } from './store.ts';
import { eventWithFiles, type FileLinkDeps } from '../file-links.ts';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first KiB of the receiver's answer. */
  responseBody: string | null;
  /** 410 Gone: the receiver asks never to be called again. */
  gone: boolean;
  /** Retrying cannot help: a refused address, no SMTP server configured, a permanent SMTP refusal. */
  permanent: boolean;
  retryAfterSeconds: number | null;
}

export interface SenderDeps {
  policy: OutboundPolicy;
  timeoutMs: number;
  mailer: Mailer | null;
  /** Test seams of the outbound client: a resolver, a certificate authority. */
  outbound?: SendOptions;
  /** Signs the links to a submission's files; without it, messages name no files. */
  fileLinks?: FileLinkDeps;
  /** The emails of the active members of a form's workspace with a role or above: an email destination's recipients_role, looked up at each send. */
  membersAtLeast?: (formId: string, minimum: Role) => Promise<string[]>;
}

export const SMTP_NOT_CONFIGURED = 'email is not configured on this server: set INTAKE_SMTP_URL and INTAKE_MAIL_FROM';
const PERMANENT_OUTBOUND = new Set(['invalid_url', 'blocked_address']);

function failure(error: string, durationMs: number, options: Partial<AttemptResult> = {}): AttemptResult {
  return { ok: false, statusCode: null, durationMs, error, responseBody: null, gone: false, permanent: false, retryAfterSeconds: null, ...options };
}

/** The URL and JSON body of an HTTP destination. */
function httpRequest(destination: Destination, payload: DeliveryPayload, at: Date): { url: string; body: string; headers: Record<string, string> } {
  const { event, link } = payload;
  const target = destination.target as Record<string, string>;
  const json = (value: unknown) => JSON.stringify(value);
  switch (destination.type) {
    case 'webhook': {
      const body = json(event);
      return { url: target.url!, body, headers: signatureHeaders(destination.secret ?? '', event.id, at, body) };
    }
    case 'slack':
      return { url: target.url!, body: json(slackMessage(event, link)), headers: {} };
    case 'discord':
      return { url: target.url!, body: json(discordMessage(event, link)), headers: {} };
    case 'teams':
      return { url: target.url!, body: json(teamsMessage(event, link)), headers: {} };
    case 'google_chat':
      return { url: target.url!, body: json(googleChatMessage(event, link)), headers: {} };
    case 'telegram':
      return { url: telegramUrl(target.bot_token!), body: json(telegramMessage(event, link, target.chat_id!)), headers: {} };
    case 'email':
      throw new Error('email destinations are not sent over HTTP');
  }
}

async function sendHttp(destination: Destination, payload: DeliveryPayload, at: Date, deps: SenderDeps): Promise<AttemptResult> {
  const started = performance.now();
  const request = httpRequest(destination, payload, at);
  try {
    const response = await send(
      { url: request.url, headers: { 'content-type': 'application/json', ...request.headers }, body: request.body, timeoutMs: deps.timeoutMs },
      deps.policy,
      deps.outbound,
    );
    const ok = response.status >= 200 && response.status < 300;
    const redirect = response.status >= 300 && response.status < 400;
    return {
      ok,
      statusCode: response.status,
      durationMs: response.durationMs,
      error: ok ? null : redirect ? `redirected (${response.status}) to ${response.headers.location ?? 'nowhere'}; redirects are not followed` : `answered ${response.status}`,
      responseBody: response.bodyStart,
      gone: response.status === 410,
      permanent: false,
      retryAfterSeconds: response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers['retry-after'] ?? null) : null,
    };
  } catch (error) {
    const duration = Math.round(performance.now() - started);
    if (error instanceof OutboundError) return failure(error.message, duration, { permanent: PERMANENT_OUTBOUND.has(error.code) });
    throw error;
  }
}

async function sendEmail(destination: Destination, payload: DeliveryPayload, deps: SenderDeps): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (!deps.mailer) return failure(SMTP_NOT_CONFIGURED, 0, { permanent: true });
  const mail = notificationEmail(payload.event, payload.fields, payload.link);
  const target = destination.target as { recipients: string[]; recipients_role?: Role };
  // At send time, so that a member who joined since is notified and one who left is not.
  const members = target.recipients_role && deps.membersAtLeast ? await deps.membersAtLeast(destination.formId, target.recipients_role) : [];
  const recipients = [...new Set([...target.recipients, ...members.map((email) => email.toLowerCase())])];
  if (recipients.length === 0) return failure(`no member has the role ${target.recipients_role} or above`, elapsed(), { permanent: true });
  try {
    const sent = await deps.mailer.send({ to: recipients, ...mail });
    const note = sent.rejected.length > 0 ? `refused by the mail server: ${sent.rejected.join(', ')}` : null;
    return { ok: true, statusCode: null, durationMs: elapsed(), error: note, responseBody: `accepted: ${sent.accepted.join(', ')}`, gone: false, permanent: false, retryAfterSeconds: null };
  } catch (error) {
    if (error instanceof MailError) return failure(error.message, elapsed(), { permanent: !error.transient });
    throw error;
  }
}

export async function sendToDestination(destination: Destination, stored: DeliveryPayload, at: Date, deps: SenderDeps): Promise<AttemptResult> {
  // Fresh links at every attempt: the stored payload holds none, so none can have expired.
  const payload = { ...stored, event: await eventWithFiles(stored.event, stored.fields, deps.fileLinks, destination.type === 'email') };
  return destination.type === 'email' ? sendEmail(destination, payload, deps) : sendHttp(destination, payload, at, deps);
}
