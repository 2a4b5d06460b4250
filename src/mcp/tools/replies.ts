// Smart-reply tools: the reply service behind /api/forms/{id}/submissions/{id}/reply. Drafting
// keeps what is stored unless asked to draft again, and is charged once per submission, like the
// pipeline; sending emails the reply once, ever.
import { Type } from 'typebox';
import { fail } from '../../http/errors.ts';
import { SubmissionPatchBody } from '../../submissions/schemas.ts';
import { defineTool, UNTRUSTED_NOTE, UPDATE } from '../tool.ts';
import { AgentSubmission, forAgent } from './agent-submission.ts';
import { KNOWLEDGE_BASE_ID_LENGTH } from './knowledge-bases.ts';
import { formOfRef, REF_NOTE, SubmissionRef } from './submissions.ts';

export const replyTools = [
  defineTool({
    name: 'draft_reply',
    title: 'Draft a reply',
    description: `The smart reply to a submission, drafted from the form's knowledge base, or from knowledge_base_id when you name another of the owner's. When the submission already has a reply (drafted on arrival, edited by the owner, or made by an earlier call) that one is returned as it is: drafted is false and nothing is charged. Pass redraft: true to replace a stored draft (the owner's edits to it are lost). A new draft costs the smart-reply credits (2 by default) the first time a reply is made for the submission, and nothing after that, however often it is redrafted; credits_charged says what this call spent. It may call the server's language model or translation service. Refused for spam, while the submission is being processed, without a knowledge base, or once the reply was sent. It never sends: use send_reply. The hosted service's draft_reply(submission_id, knowledge_base_id?) works as it stands: ${REF_NOTE} ${UNTRUSTED_NOTE}`,
    input: Type.Object({
      ...SubmissionRef,
      knowledge_base_id: Type.Optional(Type.String({ ...KNOWLEDGE_BASE_ID_LENGTH, description: "Draft from this knowledge base of the owner's instead of the form's" })),
      redraft: Type.Optional(Type.Boolean({ description: 'Replace a stored draft with a new one (default false)' })),
    }, { additionalProperties: false }),
    output: Type.Object({
      ...AgentSubmission.properties,
      drafted: Type.Boolean({ description: 'True when this call made a new draft; false when the stored reply was returned' }),
      knowledge_base_id: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'The knowledge base a new draft was made from; null when none was made' }),
      credits_charged: Type.Integer(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run(args, context) {
      const { owner, services } = context;
      const { submission_id, knowledge_base_id, redraft } = args;
      const outcome = await services.replies.draft(owner.account.id, await formOfRef(args, context), submission_id, { knowledgeBaseId: knowledge_base_id, redraft });
      return {
        ...forAgent(outcome.submission), drafted: outcome.drafted, knowledge_base_id: outcome.knowledgeBaseId, credits_charged: outcome.creditsCharged,
      };
    },
  }),

  defineTool({
    name: 'update_reply_draft',
    title: 'Edit a reply draft',
    description: `Changes the subject or the text of a submission's reply draft before it is sent, as the owner would in the dashboard; what is not given stays. Giving reply_content to a submission without a draft makes one (no credits). Refused once the reply was sent (cannot_update). Show the owner the result and let them confirm before send_reply. ${REF_NOTE} Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object({
      ...SubmissionRef,
      reply_subject: SubmissionPatchBody.properties.reply_subject,
      reply_content: SubmissionPatchBody.properties.reply_content,
    }, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: UPDATE,
    async run(args, context) {
      const { owner, services } = context;
      const { submission_id, reply_subject, reply_content } = args;
      const form_id = await formOfRef(args, context);
      if (reply_subject === undefined && reply_content === undefined) {
        await services.submissions.get(owner.account.id, form_id, submission_id); // an unknown one is named as such first
        throw fail.validation({ reply_content: ['give reply_content, reply_subject or both'] }, 'Nothing to change: give reply_subject, reply_content or both.');
      }
      return forAgent(await services.replies.edit(owner.account.id, form_id, submission_id, { reply_subject, reply_content }, owner.memberEmail ?? null));
    },
  }),

  defineTool({
    name: 'send_reply',
    title: 'Send a reply',
    description: `Emails a submission's drafted reply (see draft_reply and get_submission) to the submitter's address (the form's reply_email_field, else its first email field), from the form's name with the owner as Reply-To. A reply is sent once: when it was already sent, this fails with cannot_update and sends nothing. It cannot be taken back: show the owner the draft and confirm first. Fails without a draft, without an address, when the server has no mail settings, or when the mail server refuses (reply_failed). ${REF_NOTE} Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object(SubmissionRef, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(args, context) {
      return forAgent(await context.services.replies.send(context.owner.account.id, await formOfRef(args, context), args.submission_id, context.owner.memberEmail ?? null));
    },
  }),
];
