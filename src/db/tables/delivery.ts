// Destinations, their deliveries and attempts, and the daily delivery counts.
import type { Generated } from 'kysely';
import type { Timestamp, NullableTimestamp, Bool, Json } from './columns.ts';

export type DestinationType = 'webhook' | 'slack' | 'discord' | 'teams' | 'google_chat' | 'telegram' | 'email';

export interface DestinationsTable {
  id: string;
  form_id: string;
  type: DestinationType;
  name: string;
  target: Json;
  secret: string | null;
  deliver_spam: Bool;
  enabled: Bool;
  source: 'api' | 'form';
  failure_count: number;
  last_delivered_at: NullableTimestamp;
  last_error: string | null;
  disabled_at: NullableTimestamp;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DeliveriesTable {
  id: string;
  destination_id: string;
  submission_id: string | null;
  event_id: string;
  payload: Json;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

/** Per destination and UTC day a delivery was created, deliveries of submissions that succeeded or failed (0023). */
export interface DailyDeliveriesTable {
  destination_id: string;
  day: string;
  delivered: number;
  failed: number;
}
