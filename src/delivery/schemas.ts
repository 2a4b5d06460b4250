// Route schemas for destinations and their delivery log.
import { Type } from 'typebox';
import { HTTP_URL } from '../forms/schemas.ts';

const nullable = (type: string, options: object = {}) => Type.Unsafe({ type: [type, 'null'], ...options });
/** "an email destination", "a webhook destination". */
export const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const DESTINATION_TYPES: ['webhook', 'slack', 'discord', 'teams', 'google_chat', 'telegram', 'email'] = ['webhook', 'slack', 'discord', 'teams', 'google_chat', 'telegram', 'email'];

const RECIPIENT = Type.String({ format: 'email', 'x-message': 'must be an email address' });
const writable = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  url: Type.String({
    maxLength: 2048, ...HTTP_URL,
    description: 'webhook, slack, discord, teams, google_chat: the HTTPS URL to POST to (plain HTTP only to a host the operator allows), of a public address',
  }),
  // The same checks as destinations/service.ts (BOT_TOKEN, CHAT_ID).
  bot_token: Type.String({ maxLength: 200, pattern: '^\\d{3,20}:[A-Za-z0-9_-]{20,100}$', 'x-message': 'must be a Telegram bot token such as 123456:ABC-DEF…', description: 'telegram: the bot token from @BotFather' }),
  chat_id: Type.Union([
    Type.String({ maxLength: 64, pattern: '^(-?\\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,62})$', 'x-message': 'must be a numeric chat id or an @channel name' }),
    Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
  ], { description: 'telegram: the chat id or @channel name' }),
  recipients: Type.Array(RECIPIENT, { minItems: 1, maxItems: 20, description: 'email: who is notified' }),
  recipients_role: Type.Unsafe<'viewer' | 'editor' | 'admin' | 'owner' | null>({
    type: ['string', 'null'],
    enum: ['viewer', 'editor', 'admin', 'owner', null],
    'x-message': 'must be viewer, editor, admin, owner or null',
    description: 'email: also every active member of the workspace with this role or above (editor: editors, admins and owners), looked up at each send, so members who join or leave are followed. '
      + 'An email destination needs recipients, recipients_role or both; null removes it',
  }),
  deliver_spam: Type.Boolean({ description: 'Deliver submissions flagged as spam too (default false)' }),
  enabled: Type.Boolean(),
};
const optional = Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof typeof writable]: ReturnType<typeof Type.Optional<(typeof writable)[K]>>;
};

/** The members each type takes (destinations/service.ts, KEYS_BY_TYPE). */
const TARGETS: Record<(typeof DESTINATION_TYPES)[number], string[]> = {
  webhook: ['url'], slack: ['url'], discord: ['url'], teams: ['url'], google_chat: ['url'], telegram: ['bot_token', 'chat_id'], email: ['recipients', 'recipients_role'],
};
const TARGET_MEMBERS = ['url', 'bot_token', 'chat_id', 'recipients', 'recipients_role'];
/** What a create of each type must give; an email destination: recipients or recipients_role (ONE_OF_RECIPIENTS). */
const REQUIRED: Record<(typeof DESTINATION_TYPES)[number], string[]> = { ...TARGETS, email: [] };
const EITHER = 'an email destination needs recipients, recipients_role or both';
/** An email destination's create: fixed addresses, a role (not null), or both, as the document shows it. */
const ONE_OF_RECIPIENTS = {
  anyOf: [
    { required: ['recipients'], properties: { recipients: {} }, 'x-message': EITHER },
    { required: ['recipients_role'], properties: { recipients_role: { type: 'string' } }, 'x-message': EITHER },
  ],
};
/**
 * Said in the schema so that the document tells clients (the service checks the same): on create what
 * each type needs; on both, that the members of other types do not apply. A change leaves out the
 * type (it cannot change), so what applies to it is the stored destination's: its description says so.
 */
const byType = (whole: boolean) => Object.entries(TARGETS).map(([type, members]) => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: {
    ...(whole && REQUIRED[type as keyof typeof REQUIRED].length > 0 && { required: REQUIRED[type as keyof typeof REQUIRED] }),
    ...(whole && type === 'email' && ONE_OF_RECIPIENTS),
    properties: {
      // The members required here, named as well (`{}`: their checks are the body's own), so that a
      // linter finds what `required` lists (Redocly's no-required-schema-properties-undefined).
      ...(whole && Object.fromEntries(REQUIRED[type as keyof typeof REQUIRED].map((member) => [member, {}]))),
      ...Object.fromEntries(TARGET_MEMBERS.filter((member) => !members.includes(member))
        .map((member) => [member, { not: {}, 'x-message': `does not apply to ${article(type)} ${type} destination` }])),
    },
  },
}));
export const CreateDestinationBody = Type.Object({ type: Type.Enum(DESTINATION_TYPES), ...optional }, { additionalProperties: false, allOf: byType(true) });
export const UpdateDestinationBody = Type.Object({
  type: Type.Optional(Type.Enum(DESTINATION_TYPES)),
  ...optional,
  // A change may drop the fixed addresses (null, or []) when the destination keeps recipients_role: role-only.
  recipients: Type.Optional(Type.Unsafe<string[] | null>({
    type: ['array', 'null'], items: RECIPIENT, maxItems: 20,
    description: 'email: who is notified; null or [] removes the fixed addresses, leaving the members of recipients_role (refused, 422, when it has none)',
  })),
}, { additionalProperties: false, allOf: byType(false) });

export const DestinationOutput = Type.Object({
  id: Type.String({ format: 'uuid' }),
  form_id: Type.String({ format: 'uuid' }),
  type: Type.Enum(DESTINATION_TYPES),
  name: Type.String(),
  source: Type.Enum(['api', 'form'], { description: "`form`: the form's own webhook_* settings, changed through the form" }),
  url: Type.Optional(Type.String()),
  chat_id: Type.Optional(Type.String()),
  bot_token: Type.Optional(Type.String({ description: 'Shortened: the full token is never shown again' })),
  recipients: Type.Optional(Type.Array(Type.String())),
  recipients_role: Type.Optional(Type.Enum(['viewer', 'editor', 'admin', 'owner'], { description: 'email: every active member with this role or above is notified too' })),
  deliver_spam: Type.Boolean(),
  enabled: Type.Boolean(),
  failure_count: Type.Integer({ description: 'Failed attempts in a row' }),
  last_delivered_at: nullable('string', { format: 'date-time' }),
  last_error: nullable('string'),
  disabled_at: nullable('string', { format: 'date-time' }),
  disabled_reason: nullable('string'),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const DestinationWithSecret = Type.Object({
  ...DestinationOutput.properties,
  secret: Type.Optional(Type.String({ description: 'Webhooks only: the signing secret, shown only now' })),
});

const Attempt = Type.Object({
  attempt: Type.Integer(),
  attempted_at: Type.String({ format: 'date-time' }),
  status_code: nullable('integer'),
  duration_ms: Type.Integer(),
  error: nullable('string'),
  response_body: nullable('string', { description: 'The first KiB of the answer' }),
});

export const DeliveryOutput = Type.Object({
  id: Type.String({ format: 'uuid' }),
  submission_id: nullable('string', { description: 'null for a test event' }),
  event_id: Type.String(),
  status: Type.Enum(['pending', 'succeeded', 'failed']),
  attempts: Type.Integer(),
  next_attempt_at: nullable('string', { format: 'date-time' }),
  last_status_code: nullable('integer'),
  last_error: nullable('string'),
  created_at: Type.String({ format: 'date-time' }),
  completed_at: nullable('string', { format: 'date-time' }),
  log: Type.Array(Attempt),
});

export const DeliveryPage = Type.Object({
  data: Type.Array(DeliveryOutput),
  meta: Type.Object({ current_page: Type.Integer(), total_pages: Type.Integer(), total_count: Type.Integer(), page_size: Type.Integer() }),
});

export const TestOutput = Type.Object({ delivered: Type.Boolean(), delivery: DeliveryOutput });

export const DestinationParams = Type.Object({ form_id: Type.String(), id: Type.String() });
export const DeliveryParams = Type.Object({ form_id: Type.String(), id: Type.String(), delivery_id: Type.String() });
export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
}, { additionalProperties: true });
