// Destination tools: the destination service behind /api/forms/{form_id}/destinations, the same
// rules (types, SSRF policy, the form's own webhook changed only through the form) and shapes. A
// webhook's signing secret is shown once, in the result of the call that made it.
import { Type } from 'typebox';
import { presentDestination } from '../../delivery/present.ts';
import { CreateDestinationBody, DestinationOutput, DestinationWithSecret, UpdateDestinationBody } from '../../delivery/schemas.ts';
import type { DestinationInput } from '../../delivery/destinations/service.ts';
import { bodyWithIds, CREATE, defineTool, DELETE, READ, UPDATE } from '../tool.ts';
import { FormId } from './forms.ts';
import { AgentDelivery, forAgent as deliveryForAgent, DestinationId, RECEIVER_NOTE } from './notifications.ts';

const DestinationRef = { form_id: FormId, destination_id: DestinationId };
const TYPES_NOTE = 'type is webhook, slack, discord, teams or google_chat (give url, HTTPS, public), telegram (bot_token and chat_id) or email (recipients, 1 to 20 addresses, and/or recipients_role: editor notifies every active editor, admin and owner of the workspace, looked up at each send).';
const SECRET_NOTE = 'A webhook\'s signing secret (Standard Webhooks) is in `secret`, shown only in this result: hand it to the owner to verify deliveries.';

const enabling = (enabled: boolean) =>
  defineTool({
    name: enabled ? 'enable_destination' : 'disable_destination',
    title: enabled ? 'Enable a destination' : 'Disable a destination',
    description: enabled
      ? 'Turns a destination back on (for instance after it was disabled for failing): its failure count starts afresh and new submissions are delivered to it again. Free.'
      : 'Turns a destination off: nothing is delivered to it until it is enabled again; its settings and delivery log stay. Free.',
    input: Type.Object(DestinationRef, { additionalProperties: false }),
    output: DestinationOutput,
    annotations: { ...UPDATE, destructiveHint: false },
    async run({ form_id, destination_id }, { owner, services }) {
      return presentDestination(await services.destinations.update(owner.account.id, form_id, destination_id, { enabled }));
    },
  });

export const destinationTools = [
  defineTool({
    name: 'list_destinations',
    title: 'List destinations',
    description: "Where a form's processed submissions are sent: webhooks, Slack, Discord, Teams, Google Chat, Telegram and email, each with whether it is enabled, its failures in a row, its last error and why it was disabled. Secrets are never shown. Free.",
    input: Type.Object({ form_id: FormId }, { additionalProperties: false }),
    output: Type.Object({ destinations: Type.Array(DestinationOutput) }),
    annotations: READ,
    async run({ form_id }, { owner, services }) {
      return { destinations: (await services.destinations.list(owner.account.id, form_id)).map(presentDestination) };
    },
  }),

  defineTool({
    name: 'get_destination',
    title: 'Get a destination',
    description: 'One destination of a form: its type, target (a Telegram bot token shortened), whether it is enabled and delivers spam, its failures in a row, last error and last delivery. Free.',
    input: Type.Object(DestinationRef, { additionalProperties: false }),
    output: DestinationOutput,
    annotations: READ,
    async run({ form_id, destination_id }, { owner, services }) {
      return presentDestination(await services.destinations.get(owner.account.id, form_id, destination_id));
    },
  }),

  defineTool({
    name: 'create_destination',
    title: 'Create a destination',
    description: `Adds a destination to a form: every processed submission (not spam, unless deliver_spam) is sent there. ${TYPES_NOTE} name is optional. ${SECRET_NOTE} Try it with test_destination. Free.`,
    input: bodyWithIds({ form_id: FormId }, CreateDestinationBody),
    output: DestinationWithSecret,
    annotations: CREATE,
    async run({ form_id, ...input }, { owner, services }) {
      const { destination, secret } = await services.destinations.create(owner.account.id, form_id, input as DestinationInput);
      return { ...presentDestination(destination), ...(secret && { secret }) };
    },
  }),

  defineTool({
    name: 'update_destination',
    title: 'Update a destination',
    description: "Changes a destination's name, target (url, bot_token, chat_id, recipients or recipients_role (null removes it), as its type takes), deliver_spam or enabled; what is not given stays. The type cannot change. The form's own webhook (source form) is changed through update_form instead. Free.",
    input: bodyWithIds(DestinationRef, UpdateDestinationBody),
    output: DestinationOutput,
    annotations: UPDATE,
    async run({ form_id, destination_id, ...input }, { owner, services }) {
      return presentDestination(await services.destinations.update(owner.account.id, form_id, destination_id, input as DestinationInput));
    },
  }),

  enabling(true),
  enabling(false),

  defineTool({
    name: 'delete_destination',
    title: 'Delete a destination',
    description: 'Deletes a destination and its delivery log for good; nothing more is sent there. Confirm with the owner first. Free.',
    input: Type.Object(DestinationRef, { additionalProperties: false }),
    output: DestinationOutput,
    annotations: DELETE,
    async run({ form_id, destination_id }, { owner, services }) {
      return presentDestination(await services.destinations.delete(owner.account.id, form_id, destination_id));
    },
  }),

  defineTool({
    name: 'test_destination',
    title: 'Send a test event',
    description: `Sends a sample submission (made-up values for the form's fields) to a destination now and waits for the answer: delivered says whether it was accepted, and the delivery holds the attempt (status code, error). It is logged with the destination's deliveries. Free. ${RECEIVER_NOTE}`,
    input: Type.Object(DestinationRef, { additionalProperties: false }),
    output: Type.Object({ delivered: Type.Boolean(), delivery: AgentDelivery }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ form_id, destination_id }, { owner, services }) {
      const { delivered, delivery } = await services.deliveries.test(owner.account.id, form_id, destination_id);
      return { delivered, delivery: deliveryForAgent(delivery) };
    },
    target: (args) => args.destination_id,
  }),

  defineTool({
    name: 'regenerate_destination_secret',
    title: "Replace a webhook's secret",
    description: `Replaces a webhook destination's signing secret; the old one stops verifying at once. ${SECRET_NOTE} Free.`,
    input: Type.Object(DestinationRef, { additionalProperties: false }),
    output: Type.Object({ ...DestinationOutput.properties, secret: Type.String({ description: 'The new signing secret, shown only now' }) }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run({ form_id, destination_id }, { owner, services }) {
      const { destination, secret } = await services.destinations.regenerateSecret(owner.account.id, form_id, destination_id);
      return { ...presentDestination(destination), secret };
    },
  }),
];

