// Sending mail over SMTP with nodemailer, and the two messages Intake sends: a submission for the
// form's owner, and the alert that a destination was turned off. Every submitted value is
// HTML-escaped in the HTML part; the text part is plain text and needs no escaping.
import type { Transporter } from 'nodemailer';
import escapeHtml from 'escape-html';
import type { FieldDefinition } from '../forms/field-schema.ts';
import type { SubmissionEvent } from './event.ts';
import { providerFailed, providerSucceeded } from '../health/providers.ts';
import { fileLabel } from './file-links.ts';
import { contextLine, submissionContent, titleMarks, translationHeading, type ContentEntry } from './formats/content.ts';

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Display name of the sender, before INTAKE_MAIL_FROM's address. */
  fromName?: string;
  /** A Message-ID of our own: sending the same message again then carries the same one. */
  messageId?: string;
  /** RFC 3834: `auto-replied` for replies to a message, else `auto-generated`. */
  autoSubmitted?: 'auto-generated' | 'auto-replied';
}

export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

export interface Mailer {
  /** Resolves when the server took the message for at least one recipient; throws MailError otherwise. */
  send(message: OutgoingMail): Promise<SentMail>;
  close(): void;
}

/** `transient`: worth sending again later (connection trouble, 4xx replies); not for 5xx replies or bad input. */
export class MailError extends Error {
  readonly transient: boolean;
  /** The SMTP reply code, when the server gave one. */
  readonly responseCode: number | null;

  constructor(message: string, options: { transient: boolean; responseCode?: number | null; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'MailError';
    this.transient = options.transient;
    this.responseCode = options.responseCode ?? null;
  }
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'EPROXY', 'ETLS']);
// nodemailer waits two minutes for a connection and ten for a quiet socket; a delivery job
// should learn sooner that the server is not answering and try again later.
const CONNECTION_TIMEOUT_MS = 15_000;
const GREETING_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;
/** One message, from connecting to the server's last answer. */
const DEFAULT_SEND_TIMEOUT_MS = 60_000;

interface SmtpFailure { code?: string; responseCode?: number; permanent?: boolean; response?: string; message?: string }

function toMailError(error: unknown): MailError {
  const failure: SmtpFailure = typeof error === 'object' && error !== null ? error : {};
  const responseCode = typeof failure.responseCode === 'number' ? failure.responseCode : null;
  // nodemailer sets `permanent` from the reply class (5xx but 503); without a reply, only a
  // connection that failed is worth another try: bad credentials or addresses stay bad.
  const transient = responseCode !== null
    ? failure.permanent !== undefined ? !failure.permanent : responseCode < 500
    : CONNECTION_CODES.has(failure.code ?? '');
  const message = failure.response ?? failure.message ?? String(error);
  return new MailError(`SMTP: ${message}`, { transient, responseCode, cause: error });
}

/** The address of INTAKE_MAIL_FROM, which may be given as `Name <address>`. */
export function senderAddress(from: string): string {
  return /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/**
 * `sendTimeoutMs`: the longest one message may take, whatever the server does (nodemailer's own
 * timeouts restart with every byte, so a server that trickles its answers could hold a worker's
 * slot for ever). Past it the send fails for now (transient) and the slot is free again; the
 * connection is left to nodemailer's socket timeout.
 */
export function createMailer(smtp: { url: string; from: string }, sendTimeoutMs = DEFAULT_SEND_TIMEOUT_MS): Mailer {
  // nodemailer (about 30 MB once loaded) comes with the first message: an API process that sends
  // none, or sends them from its workers only, never holds it.
  let transport: Promise<Transporter> | null = null;
  const transportFor = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtp.url,
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        greetingTimeout: GREETING_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
        // Messages are built from text we made; nothing in them may make nodemailer read files or URLs.
        disableFileAccess: true,
        disableUrlAccess: true,
      })));
  return {
    async send(message) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new MailError(`SMTP: no answer within ${sendTimeoutMs} ms`, { transient: true })), sendTimeoutMs);
      });
      try {
        const sent = await Promise.race([sendNow(message), deadline]);
        providerSucceeded('smtp');
        return sent;
      } catch (error) {
        // A refusal for good (a 550 for an unknown mailbox) is an answer: the server works.
        if (error instanceof MailError && !error.transient) providerSucceeded('smtp');
        else providerFailed('smtp', error instanceof Error ? error.message : String(error));
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };

  async function sendNow(message: OutgoingMail): Promise<SentMail> {
    try {
      const info = await (await transportFor()).sendMail({
        from: message.fromName ? { name: headerText(message.fromName, 100), address: senderAddress(smtp.from) } : smtp.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        ...(message.messageId ? { messageId: message.messageId } : {}),
        // RFC 3834: tells auto-responders (vacation replies) not to answer these.
        headers: { 'Auto-Submitted': message.autoSubmitted ?? 'auto-generated' },
      });
      return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    } catch (error) {
      throw toMailError(error);
    }
  }
}

function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => (typeof item === 'string' ? item : typeof item === 'object' && item !== null && 'address' in item ? String(item.address) : String(item)));
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Header text on one line, so a name with a line break cannot end the Subject header early. */
export function headerText(text: string, max = 150): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

// One address and nothing else: the validator checked the format, but an address list or a
// display name here would send the owner's replies somewhere the submitter did not type.
const SINGLE_ADDRESS = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+$/;

/** The submitter's address: the first email field with a value, or the one named by `only`. */
export function submitterAddress(data: Record<string, unknown>, fields: FieldDefinition[], only?: string | null): string | undefined {
  for (const field of fields) {
    if (field.type !== 'email' || (only && field.name !== only)) continue;
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return SINGLE_ADDRESS.test(value.trim()) ? value.trim() : undefined;
  }
  return undefined;
}

function textEntries(entries: ContentEntry[]): string {
  // Continuation lines are indented so a multi-line answer stays under its name.
  return entries.map((entry) => `${entry.name}: ${entry.value.replace(/\n/g, '\n  ')}`).join('\n');
}

function htmlEntries(entries: ContentEntry[]): string {
  const rows = entries.map((entry) =>
    `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(entry.name)}</th>`
    + `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(entry.value)}</td></tr>`);
  return `<table cellspacing="0" cellpadding="0" style="border-collapse:collapse">${rows.join('')}</table>`;
}

export function htmlDocument(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`
    + `<body style="font-family:sans-serif;line-height:1.4">${body}</body></html>`;
}

/** The owner's copy of a submission. `fields` (the form's schema) name the submitter's address for Reply-To. */
export function notificationEmail(event: SubmissionEvent, fields: FieldDefinition[], link: string): RenderedMail & { replyTo?: string } {
  const content = submissionContent(event, link);
  const heading = `New submission to ${content.formName}`;
  const firstLine = content.test ? `Test: a sample submission to ${content.formName}` : heading;
  // A plain HTML form may name the subject (`_subject`) and the address to reply to (`_replyto`).
  const { subject: asked, reply_to: askedReplyTo } = event.data.submission.metadata;
  const subject = headerText(`${titleMarks(content)}${asked ? `${asked} (${content.formName})` : heading}`);
  const spamLine = content.spam ? `Flagged as spam${content.spam.reason ? `: ${content.spam.reason}` : ''}` : null;

  const text = [firstLine, spamLine, content.quarantine ?? null, textEntries(content.entries)];
  const html = [`<h2>${escapeHtml(firstLine)}</h2>`];
  if (spamLine) html.push(`<p style="color:#b3261e"><strong>${escapeHtml(spamLine)}</strong></p>`);
  if (content.quarantine) html.push(`<p style="color:#b3261e"><strong>${escapeHtml(content.quarantine)}</strong></p>`);
  html.push(htmlEntries(content.entries));
  // Links, never attachments: mail servers refuse or bury messages with attachments.
  const files = event.data.files ?? [];
  if (files.length > 0) {
    const items = files.map((file) => (file.url === null
      ? `<li>${escapeHtml(fileLabel(file))}: <strong style="color:#b3261e">quarantined, malware found (${escapeHtml(String(file.quarantine))})</strong>; no download link</li>`
      : `<li><a href="${escapeHtml(file.url)}">${escapeHtml(fileLabel(file))}</a></li>`));
    const until = files.find((file) => file.expires_at !== null)?.expires_at;
    html.push(`<h3>Files</h3><ul>${items.join('')}</ul>${until ? `<p style="color:#5f6368">Download links work until ${escapeHtml(until)}.</p>` : ''}`);
  }
  if (content.translated) {
    const title = translationHeading(content.language);
    text.push(`${title}:\n${textEntries(content.translated)}`);
    html.push(`<h3>${escapeHtml(title)}</h3>`, htmlEntries(content.translated));
  }
  text.push(contextLine(content), `${content.linkLabel}: ${link}`);
  html.push(`<p style="color:#5f6368">${escapeHtml(contextLine(content))}</p>`, `<p><a href="${escapeHtml(link)}">${escapeHtml(content.linkLabel)}</a></p>`);

  const replyTo = askedReplyTo && SINGLE_ADDRESS.test(askedReplyTo) ? askedReplyTo : submitterAddress(event.data.submission.data, fields);
  return {
    subject,
    text: `${text.filter((part) => part !== null).join('\n\n')}\n`,
    html: htmlDocument(subject, html.join('\n')),
    ...(replyTo ? { replyTo } : {}),
  };
}

export interface DisabledDestination {
  formName: string;
  destinationName: string;
  lastError: string;
  /** Where the owner can look at the destination and turn it back on. */
  link: string;
}

/** Tells the owner that a destination stopped receiving submissions after failing again and again. */
export function ownerAlertEmail(alert: DisabledDestination): RenderedMail {
  const subject = headerText(`Delivery to ${alert.destinationName} was turned off for ${alert.formName}`);
  const intro = `Intake could not deliver submissions of the form "${alert.formName}" to "${alert.destinationName}" `
    + 'after repeated attempts, so it stopped sending to it. New submissions are still stored and shown in the dashboard.';
  const advice = 'Check the destination\'s settings, then turn it back on to resume delivery.';
  const text = [intro, `Last error: ${alert.lastError}`, advice, `Open the destination: ${alert.link}`].join('\n\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<p><strong>Last error:</strong></p><pre style="white-space:pre-wrap">${escapeHtml(alert.lastError)}</pre>`,
    `<p>${escapeHtml(advice)}</p>`,
    `<p><a href="${escapeHtml(alert.link)}">Open the destination</a></p>`,
  ].join('\n');
  return { subject, text: `${text}\n`, html: htmlDocument(subject, html) };
}
