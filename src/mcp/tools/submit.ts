// An agent as a submitter: submit_to_form goes through the public endpoint's own path (the same
// validation, idempotency, plan limit and processing), at the form's current endpoint.
import { Type } from 'typebox';
import { presentFormSummary } from '../../forms/present.ts';
import { fail } from '../../http/errors.ts';
import { CREATE, defineTool } from '../tool.ts';
import { FormId } from './forms.ts';

export const submitTools = [
  defineTool({
    name: 'submit_to_form',
    title: 'Submit to a form',
    description: "Submits data to one of the owner's forms exactly as its public endpoint would receive it: validated against the form's current fields schema, stored, then processed (spam check, translation) and notified like any submission. Call get_form first to learn the field names, types and rules. On success returns the stored submission (status 201, or 200 when idempotency_key repeats an earlier request with the same data within 24 hours; the same key with other data is refused with idempotency_key_reused); on invalid data, an error whose details name each field's problems. Works on private forms too. Counts towards the plan's submission limit; processing may spend AI credits as for any submission.",
    input: Type.Object({
      form_id: FormId,
      data: Type.Object({}, { additionalProperties: true, description: 'Field name → value' }),
      idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Repeating a call with the same key and data (within 24 hours) returns the first submission instead of storing another; the same key with other data is refused' })),
    }, { additionalProperties: false }),
    output: Type.Object({
      status: Type.Enum([200, 201]),
      endpoint: Type.String({ description: 'The endpoint it was submitted to' }),
      submission: Type.Object({
        id: Type.String({ format: 'uuid' }),
        data: Type.Object({}, { additionalProperties: true }),
        created_at: Type.String({ format: 'date-time' }),
      }),
    }),
    annotations: CREATE,
    async run({ form_id, data, idempotency_key }, { owner, services, baseUrl, ip, maxSubmissionBytes }) {
      if (Buffer.byteLength(JSON.stringify(data), 'utf8') > maxSubmissionBytes) throw fail.payloadTooLarge(maxSubmissionBytes);
      const form = await services.forms.get(owner.account.id, form_id);
      const accepted = await services.submissions.submit({
        segment: form.version.segment,
        slug: form.version.slug,
        body: data,
        bearerToken: null,
        ownerAccountId: owner.account.id,
        idempotencyKey: idempotency_key ?? null,
        metadata: { ip, user_agent: `Intake MCP (key ${owner.keyName})`.slice(0, 2048), referer: null, origin: null, utm: {} },
      });
      return { status: accepted.status, endpoint: presentFormSummary(form, baseUrl).endpoint, submission: accepted.submission };
    },
    target: (_args, result) => result?.submission.id ?? null,
  }),
];
