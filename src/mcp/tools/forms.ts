// Form tools: the same form service as /api/forms, the same output shapes, plus spam counts.
import { Type } from 'typebox';
import { presentForm, presentFormSummary } from '../../forms/present.ts';
import { CreatedFormOutput, CreateFormBody, FormOutput, FormSummary, UpdateFormBody } from '../../forms/schemas.ts';
import { bodyWithIds, CREATE, defineTool, DELETE, READ, UPDATE } from '../tool.ts';

export const FormId = Type.String({ minLength: 1, maxLength: 100, description: 'The form id (from list_forms)' });
const spamCount = { spam_count: Type.Integer({ description: 'Submissions caught as spam' }) };
const FormDetail = Type.Object({ ...FormOutput.properties, ...spamCount });

export const formTools = [
  defineTool({
    name: 'list_forms',
    title: 'List forms',
    description: "Lists the owner's forms, newest first, with their ids, endpoints and submission and spam counts. Start here: most other tools take a form id from this list. Free.",
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ forms: Type.Array(Type.Object({ ...FormSummary.properties, ...spamCount })) }),
    annotations: READ,
    async run(_args, { owner, services, baseUrl }) {
      const forms = await services.forms.list(owner.account.id);
      return { forms: forms.map((form) => ({ ...presentFormSummary(form, baseUrl), spam_count: form.spamCount })) };
    },
  }),

  defineTool({
    name: 'get_form',
    title: 'Get a form',
    description: "One form in full: its fields schema (names, types, rules), settings (spam protection, localisation, smart replies, webhook), current endpoint and schema version, and its submission and spam counts. Use it before submit_to_form or update_form. Free.",
    input: Type.Object({ form_id: FormId }, { additionalProperties: false }),
    output: FormDetail,
    annotations: READ,
    async run({ form_id }, { owner, services, baseUrl }) {
      const form = await services.forms.get(owner.account.id, form_id);
      return { ...presentForm(form, baseUrl), spam_count: form.spamCount };
    },
  }),

  defineTool({
    name: 'create_form',
    title: 'Create a form',
    description: 'Creates a form with a name, a slug (lowercase words joined by hyphens, unique among your forms), a visibility and a fields schema { fields: [{ name, type: string|email|number|boolean|date, required, rules }] }. The result holds its endpoint URL; a private form also gets a submission token, shown only in this result: hand it to the owner. Free.',
    input: CreateFormBody,
    output: Type.Object({ ...CreatedFormOutput.properties, ...spamCount }),
    annotations: CREATE,
    async run(args, { owner, services, baseUrl }) {
      const { form, submissionToken } = await services.forms.create(owner.account.id, args);
      return { ...presentForm(form, baseUrl), spam_count: form.spamCount, submission_token: submissionToken };
    },
  }),

  defineTool({
    name: 'update_form',
    title: 'Update a form',
    description: "Changes any of a form's name, slug, visibility, fields schema or settings; what is not given stays. A new fields schema or slug mints a new endpoint (endpoint_changed is then true and previous_endpoint names the old one, which keeps accepting submissions for the old schema): tell the owner to point their site at the new endpoint. Making a public form private returns its new submission token, shown once. Free.",
    input: bodyWithIds({ form_id: FormId }, UpdateFormBody),
    output: Type.Object({
      ...FormDetail.properties,
      endpoint_changed: Type.Boolean({ description: 'True when this update minted a new endpoint' }),
      previous_endpoint: Type.String({ description: 'The endpoint before this update' }),
      submission_token: Type.Optional(Type.String({ description: 'Only when this update made the form private: its token, shown once' })),
    }),
    annotations: UPDATE,
    async run({ form_id, ...changes }, { owner, services, baseUrl }) {
      const before = presentFormSummary(await services.forms.get(owner.account.id, form_id), baseUrl).endpoint;
      const { form, submissionToken } = await services.forms.update(owner.account.id, form_id, changes);
      const shown = presentForm(form, baseUrl);
      return {
        ...shown,
        spam_count: form.spamCount,
        endpoint_changed: shown.endpoint !== before,
        previous_endpoint: before,
        ...(submissionToken && { submission_token: submissionToken }),
      };
    },
  }),

  defineTool({
    name: 'delete_form',
    title: 'Delete a form',
    description: 'Deletes a form with all its submissions, destinations and delivery logs, for good; its endpoints stop accepting submissions. Confirm with the owner first. Free.',
    input: Type.Object({ form_id: FormId }, { additionalProperties: false }),
    output: FormDetail,
    annotations: DELETE,
    async run({ form_id }, { owner, services, baseUrl }) {
      const form = await services.forms.delete(owner.account.id, form_id);
      return { ...presentForm(form, baseUrl), spam_count: form.spamCount };
    },
  }),
];
