// A data subject's requests as tools: find what is held about a person, and erase it.
import { Type } from 'typebox';
import { defineTool, DELETE, READ } from '../tool.ts';
import { erasureDetail } from '../../data-subjects/service.ts';

const Email = Type.String({ minLength: 3, maxLength: 320, description: "The person's email address" });
const complete = Type.Boolean({ description: 'False when submissions still waiting for the pipeline were too many to read: call again in a moment' });

export const dataSubjectTools = [
  defineTool({
    name: 'search_data_subject',
    title: "Find a person's submissions",
    description: "Finds every submission across the owner's forms that holds this email address (in an email field or as any value), for an access or erasure request: form, submission id and time. Use get_submission to read one. Free.",
    input: Type.Object({ email: Email }, { additionalProperties: false }),
    output: Type.Object({
      email: Type.String({ description: 'The address as normalised for matching' }),
      submissions: Type.Array(Type.Object({ form_id: Type.String(), form_name: Type.String(), id: Type.String(), created_at: Type.String({ format: 'date-time' }) })),
      complete,
    }),
    annotations: READ,
    async run({ email }, { owner, services }) {
      return services.subjects.search(owner.account.id, email);
    },
  }),

  defineTool({
    name: 'erase_data_subject',
    title: 'Erase everything held about a person',
    description: "Deletes for good every submission across the owner's forms that holds this email address, with its translations, replies, deliveries' payloads and logs, analyses and fingerprints (a right-to-erasure request). Cannot be undone: confirm with the owner first, naming how many submissions search_data_subject found. The audit log records only the counts. Free.",
    input: Type.Object({ email: Email }, { additionalProperties: false }),
    output: Type.Object({
      erased: Type.Integer({ description: 'Submissions deleted' }),
      forms: Type.Array(Type.Object({ form_id: Type.String(), erased: Type.Integer() })),
      complete,
    }),
    annotations: DELETE,
    async run({ email }, { owner, services }) {
      return services.subjects.erase(owner.account.id, email);
    },
    target: () => null,
    detail: erasureDetail,
  }),
];
