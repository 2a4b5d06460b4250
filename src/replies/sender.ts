// Emailing a drafted reply to the submitter, at most once. A send first claims the reply (keyed by
// who sends: a job or a request), then hands it to the SMTP server with a Message-ID fixed at the
// first claim, then records `sent`. A job that dies mid-send is run again under the same claim and
// sends with the same Message-ID, so the one case a crash can still double (the server took the
// message, the worker died before recording it) reaches the mailbox as a duplicate that mail
// systems drop by that ID.
import escapeHtml from 'escape-html';
import { htmlDocument, MailError, senderAddress, submitterAddress, type Mailer } from '../delivery/email.ts';
import { defaultSubject } from './compose.ts';
import type { OutgoingReply, ReplyStore } from './store.ts';

export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'already_sent' }
  | { kind: 'busy' }
  /** Nothing to send: no draft, or the submission is gone. */
  | { kind: 'no_draft' }
  /** Stays a draft, with the reason recorded. */
  | { kind: 'kept'; reason: string };

export interface ReplySenderDeps {
  store: ReplyStore;
  mailer: Mailer | null;
  /** INTAKE_MAIL_FROM; its domain names our Message-IDs. */
  mailFrom: string | null;
  /** A claim older than this is someone's crashed send and may be taken over. */
  claimTimeoutMs: number;
  clock?: () => Date;
}

export const NO_RECIPIENT = 'no_recipient: the submission has no email address to reply to';
export const MAIL_NOT_CONFIGURED = 'email_not_configured: set INTAKE_SMTP_URL and INTAKE_MAIL_FROM to send replies';

function replyMessage(reply: OutgoingReply, to: string, messageId: string) {
  const subject = reply.subject ?? defaultSubject(reply.form.name);
  const text = `${reply.content ?? ''}\n`;
  const paragraphs = (reply.content ?? '').split(/\n\s*\n/).map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p.trim())}</p>`);
  return {
    to: [to],
    subject,
    text,
    html: htmlDocument(subject, paragraphs.join('\n')),
    fromName: reply.form.name,
    replyTo: reply.owner.replyTo ?? reply.owner.email,
    messageId,
    autoSubmitted: 'auto-replied' as const,
  };
}

export function replySender(deps: ReplySenderDeps) {
  const clock = deps.clock ?? (() => new Date());
  const domain = deps.mailFrom ? senderAddress(deps.mailFrom).split('@')[1] ?? 'intake.invalid' : 'intake.invalid';

  return {
    /**
     * Throws MailError when the server refused or could not be reached; the claim is then given up,
     * and the reply is `failed` when the error is permanent or this was the last attempt.
     */
    async send(submissionId: string, claimant: string, options: { lastAttempt: boolean } = { lastAttempt: true }): Promise<SendOutcome> {
      const reply = await deps.store.load(submissionId);
      if (!reply) return { kind: 'no_draft' };
      if (reply.status === 'sent') return { kind: 'already_sent' };
      if (reply.content === null || reply.status === 'pending') return { kind: 'no_draft' };
      const to = submitterAddress(reply.data, reply.fields, reply.form.replyEmailField);
      const kept = async (reason: string): Promise<SendOutcome> => {
        await deps.store.note(submissionId, reason);
        return { kind: 'kept', reason };
      };
      if (!to) return kept(NO_RECIPIENT);
      if (!deps.mailer) return kept(MAIL_NOT_CONFIGURED);

      const now = clock();
      const staleBefore = new Date(now.getTime() - deps.claimTimeoutMs).toISOString();
      const messageId = await deps.store.claim(submissionId, claimant, now.toISOString(), staleBefore, `<reply.${submissionId}@${domain}>`);
      if (!messageId) {
        const current = await deps.store.load(submissionId);
        return current?.status === 'sent' ? { kind: 'already_sent' } : { kind: 'busy' };
      }
      try {
        await deps.mailer.send(replyMessage(reply, to, messageId));
      } catch (error) {
        const failure = error instanceof MailError ? error : new MailError(String(error), { transient: false, cause: error });
        const final = !failure.transient || options.lastAttempt;
        await deps.store.release(submissionId, claimant, final ? `send_failed: ${failure.message}` : undefined);
        throw failure;
      }
      await deps.store.markSent(submissionId, claimant, clock().toISOString());
      return { kind: 'sent' };
    },
  };
}

export type ReplySender = ReturnType<typeof replySender>;
