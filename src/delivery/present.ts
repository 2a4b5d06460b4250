// Shapes destinations and deliveries for the API. A webhook's signing secret is never part of
// these; a Telegram bot token is shown cut short.
import type { Role } from '../db/tables.ts';
import type { Destination } from './destinations/store.ts';
import type { LoggedDelivery } from './deliveries/service.ts';

export function presentDestination(d: Destination) {
  const target = d.target as { url?: string; bot_token?: string; chat_id?: string; recipients?: string[]; recipients_role?: Role };
  return {
    id: d.id,
    form_id: d.formId,
    type: d.type,
    name: d.name,
    source: d.source,
    ...(target.url !== undefined && { url: target.url }),
    ...(target.chat_id !== undefined && { chat_id: target.chat_id }),
    ...(target.bot_token !== undefined && { bot_token: `${target.bot_token.slice(0, 8)}…` }),
    ...(target.recipients !== undefined && { recipients: target.recipients }),
    ...(target.recipients_role !== undefined && { recipients_role: target.recipients_role }),
    deliver_spam: d.deliverSpam,
    enabled: d.enabled,
    failure_count: d.failureCount,
    last_delivered_at: d.lastDeliveredAt,
    last_error: d.lastError,
    disabled_at: d.disabledAt,
    disabled_reason: d.disabledReason,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

export function presentDelivery(d: LoggedDelivery) {
  return {
    id: d.id,
    submission_id: d.submissionId,
    event_id: d.eventId,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: d.createdAt,
    completed_at: d.completedAt,
    log: d.log.map((a) => ({
      attempt: a.attempt, attempted_at: a.attemptedAt, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error, response_body: a.responseBody,
    })),
  };
}
