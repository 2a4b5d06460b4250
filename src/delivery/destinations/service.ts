// The rules of destinations: what each type needs, that its URL may be called (SSRF policy), that
// another owner's destinations stay invisible, and that a webhook secret is shown only when made.
// The form's own webhook (webhook_* fields) is listed here too, but changed through the form.
import { randomUUID } from 'node:crypto';
import type { DestinationType, Role } from '../../db/tables.ts';
import { ROLES } from '../../workspaces/permissions.ts';
import type { FormService } from '../../forms/service.ts';
import { fail, type FieldErrors } from '../../http/errors.ts';
import { checkUrl, type OutboundPolicy } from '../outbound/index.ts';
import { article } from '../schemas.ts';
import { newWebhookSecret } from '../signing.ts';
import type { Destination, DestinationStore, Target } from './store.ts';

export interface DestinationInput {
  type?: DestinationType;
  name?: string;
  url?: string;
  bot_token?: string;
  chat_id?: string | number;
  /** email: the fixed addresses; on a change, null or [] removes them (the role must remain). */
  recipients?: string[] | null;
  /** email: also every active member with this role or above, looked up at each send (docs/teams.md); null removes it. */
  recipients_role?: Role | null;
  deliver_spam?: boolean;
  enabled?: boolean;
}

const URL_TYPES: readonly DestinationType[] = ['webhook', 'slack', 'discord', 'teams', 'google_chat'];
const TARGET_KEYS = ['url', 'bot_token', 'chat_id', 'recipients', 'recipients_role'] as const;
const KEYS_BY_TYPE: Record<DestinationType, ReadonlyArray<(typeof TARGET_KEYS)[number]>> = {
  webhook: ['url'], slack: ['url'], discord: ['url'], teams: ['url'], google_chat: ['url'],
  telegram: ['bot_token', 'chat_id'],
  email: ['recipients', 'recipients_role'],
};
const DEFAULT_NAMES: Record<DestinationType, string> = {
  webhook: 'Webhook', slack: 'Slack', discord: 'Discord', teams: 'Microsoft Teams', google_chat: 'Google Chat', telegram: 'Telegram', email: 'Email',
};
const BOT_TOKEN = /^\d{3,20}:[A-Za-z0-9_-]{20,100}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,62})$/;

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** The target of a destination of `type` from the input merged over the current target. */
function buildTarget(type: DestinationType, input: DestinationInput, current: Target | null, policy: OutboundPolicy, errors: FieldErrors): Target | null {
  const allowed = KEYS_BY_TYPE[type];
  for (const key of TARGET_KEYS) {
    if (input[key] !== undefined && !allowed.includes(key)) add(errors, key, `does not apply to ${article(type)} ${type} destination`);
  }
  const merged = { ...(current ?? {}), ...Object.fromEntries(allowed.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) } as Record<string, unknown>;
  if (URL_TYPES.includes(type)) {
    const url = merged.url;
    const problem = typeof url === 'string' ? checkUrl(url, policy)?.message : 'is required';
    if (problem) add(errors, 'url', problem);
    return problem ? null : { url: url as string };
  }
  if (type === 'telegram') {
    const token = merged.bot_token;
    const chatId = merged.chat_id === undefined ? undefined : String(merged.chat_id);
    if (typeof token !== 'string') add(errors, 'bot_token', 'is required');
    else if (!BOT_TOKEN.test(token)) add(errors, 'bot_token', 'must be a Telegram bot token such as 123456:ABC-DEF…');
    if (chatId === undefined) add(errors, 'chat_id', 'is required');
    else if (!CHAT_ID.test(chatId)) add(errors, 'chat_id', 'must be a numeric chat id or an @channel name');
    return typeof token === 'string' && chatId !== undefined ? { bot_token: token, chat_id: chatId } : null;
  }
  // Fixed addresses, the members of a role and above, or both: at least one of them.
  const recipients = Array.isArray(merged.recipients) ? [...new Set(merged.recipients.map((r) => String(r).trim().toLowerCase()))] : [];
  const role = merged.recipients_role ?? null;
  if (role !== null && !ROLES.includes(role as Role)) {
    add(errors, 'recipients_role', `must be one of ${ROLES.join(', ')}`);
    return null;
  }
  if (recipients.length === 0 && role === null) {
    add(errors, 'recipients', 'needs at least one email address, or recipients_role');
    return null;
  }
  return { recipients, ...(role !== null && { recipients_role: role as Role }) };
}

export function destinationService(deps: { store: DestinationStore; forms: FormService; policy: OutboundPolicy; clock?: () => Date }) {
  const { store, forms, policy } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function owned(accountId: string, formId: string, id: string): Promise<Destination> {
    const form = await forms.get(accountId, formId);
    const destination = await store.get(form.id, id);
    if (!destination) throw fail.notFound('Destination not found');
    return destination;
  }

  function ownedByApi(destination: Destination): void {
    if (destination.source === 'form') {
      throw fail.validation({ source: ["this is the form's own webhook: change it with PUT /api/forms/{id} (webhook_enabled, webhook_url, webhook_secret)"] });
    }
  }

  return {
    async list(accountId: string, formId: string): Promise<Destination[]> {
      const form = await forms.get(accountId, formId);
      return store.list(form.id);
    },

    get: owned,

    async create(accountId: string, formId: string, input: DestinationInput): Promise<{ destination: Destination; secret: string | null }> {
      const form = await forms.get(accountId, formId);
      const type = input.type as DestinationType;
      const errors: FieldErrors = {};
      const target = buildTarget(type, input, null, policy, errors);
      if (!target || Object.keys(errors).length > 0) throw fail.validation(errors);
      const now = clock().toISOString();
      const secret = type === 'webhook' ? newWebhookSecret() : null;
      const destination: Destination = {
        id: randomUUID(), formId: form.id, type, name: input.name ?? DEFAULT_NAMES[type], target, secret,
        deliverSpam: input.deliver_spam ?? false, enabled: input.enabled ?? true, source: 'api', failureCount: 0,
        lastDeliveredAt: null, lastError: null, disabledAt: null, disabledReason: null, createdAt: now, updatedAt: now,
      };
      await store.insert(destination);
      return { destination, secret };
    },

    async update(accountId: string, formId: string, id: string, input: DestinationInput): Promise<Destination> {
      const current = await owned(accountId, formId, id);
      ownedByApi(current);
      const errors: FieldErrors = {};
      if (input.type !== undefined && input.type !== current.type) add(errors, 'type', 'cannot change; create a new destination instead');
      const touchesTarget = TARGET_KEYS.some((key) => input[key] !== undefined);
      const target = touchesTarget ? buildTarget(current.type, input, current.target, policy, errors) : undefined;
      if (Object.keys(errors).length > 0 || target === null) throw fail.validation(errors);
      await store.update(current.formId, id, { name: input.name, target, deliverSpam: input.deliver_spam, enabled: input.enabled }, clock().toISOString());
      return owned(accountId, formId, id);
    },

    async delete(accountId: string, formId: string, id: string): Promise<Destination> {
      const current = await owned(accountId, formId, id);
      ownedByApi(current);
      await store.delete(current.formId, id);
      return current;
    },

    async regenerateSecret(accountId: string, formId: string, id: string): Promise<{ destination: Destination; secret: string }> {
      const current = await owned(accountId, formId, id);
      ownedByApi(current);
      if (current.type !== 'webhook') throw fail.validation({ type: ['only webhook destinations have a signing secret'] });
      const secret = newWebhookSecret();
      await store.update(current.formId, id, { secret }, clock().toISOString());
      return { destination: await owned(accountId, formId, id), secret };
    },
  };
}

export type DestinationService = ReturnType<typeof destinationService>;
