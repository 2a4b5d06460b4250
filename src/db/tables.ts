// Row shapes as the two engines return them. SQLite gives 0/1 for booleans, text for JSON and
// timestamps; PostgreSQL gives booleans, parsed jsonb and Date. The read models normalise with values.ts.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<string | Date, string, string>;
type NullableTimestamp = ColumnType<string | Date | null, string | null, string | null>;
type Bool = ColumnType<boolean | number, boolean, boolean>;
/** Written as JSON text; read back as text (SQLite) or a parsed value (PostgreSQL jsonb). */
type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null, string | null>;
/** PostgreSQL returns bigint columns as strings. */
type Count = ColumnType<number | string, number, number | string>;

export interface AccountsTable {
  id: string;
  email: string;
  plan: 'free' | 'pro';
  /** ISO 639-1: submissions are translated into it. */
  language: Generated<string>;
  /** Where answers to smart replies go; null: the account's email. */
  reply_to_email: string | null;
  submissions_total: Count;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** `full`, or `read`: no writes through any surface. */
  scope: Generated<'full' | 'read'>;
}

export interface CreditUsageTable {
  account_id: string;
  /** `lifetime` for the free plan's one-time allowance, `YYYY-MM` for a pro month. */
  period: string;
  used: Count;
}

export interface FormsTable {
  id: string;
  account_id: string;
  name: string;
  slug: string;
  visibility: 'public' | 'private';
  submission_token_hash: string | null;
  current_version_id: string;
  spam_protection_enabled: Bool;
  spam_protection_strategy: 'standard' | 'intelligent';
  localisation_enabled: Bool;
  smart_reply_enabled: Bool;
  smart_replies_mode: 'draft' | 'auto';
  knowledge_base_id: string | null;
  reply_email_field: string | null;
  webhook_enabled: Bool;
  webhook_url: string | null;
  webhook_secret: string | null;
  intent: string | null;
  /** Days a submission is kept (1 to 3,650); null: for ever. */
  retention_days: number | null;
  /** Days a spam submission is kept; null: as long as any other. */
  spam_retention_days: number | null;
  submission_count: Count;
  spam_count: Count;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FormVersionsTable {
  id: string;
  form_id: string;
  version: number;
  /** The unguessable path segment of this version's endpoint. */
  segment: string;
  slug: string;
  fields_schema: Json;
  created_at: Timestamp;
}

export interface SubmissionsTable {
  /** Insertion order: newest-first listing and stable paging. */
  seq: Generated<number | string>;
  id: string;
  form_id: string;
  version_id: string;
  data: Json;
  metadata: Json;
  idempotency_key: string | null;
  /** Hash of the request that stored idempotency_key (null for rows from before migration 0013). */
  idempotency_hash: string | null;
  processing_status: 'pending' | 'processing' | 'completed' | 'skipped' | 'failed';
  processing_reason: string | null;
  spam_flag: Bool;
  spam_confidence: number | null;
  spam_reason: string | null;
  original_language: string | null;
  translated_data: NullableJson;
  reply_status: 'pending' | 'completed' | 'sent' | 'failed';
  reply_content: string | null;
  reply_reason: string | null;
  replied_at: NullableTimestamp;
  created_at: Timestamp;
  /** Names of the pipeline steps already finished, as a JSON array; null before the first. */
  pipeline_steps: NullableJson;
  fingerprint: string | null;
  processed_at: NullableTimestamp;
  spam_corrected_at: NullableTimestamp;
  /** The API key that corrected the verdict. */
  spam_corrected_by: string | null;
  reply_subject: string | null;
  reply_passages: NullableJson;
  reply_sending_at: NullableTimestamp;
  reply_sending_by: string | null;
  reply_message_id: string | null;
  /** The owner's archive, beside spam (migration 0023). */
  done: ColumnType<boolean | number, boolean | undefined, boolean>;
  done_at: NullableTimestamp;
  /** When the owner first opened it or marked it read; null: unread. */
  read_at: NullableTimestamp;
}

export interface CreditChargesTable {
  submission_id: string;
  step: string;
  account_id: string;
  period: string;
  cost: number;
  created_at: Timestamp;
}

/** SQLite's job queue; PostgreSQL uses graphile-worker's. */
export interface JobsTable {
  id: Generated<number>;
  task: string;
  payload: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  failed_at: string | null;
  created_at: string;
}

export interface WorkerLeasesTable {
  worker_id: string;
  renewed_at: Timestamp;
  /** The session of the process that renews the lease (PostgreSQL's pid and start of that backend). */
  backend_pid: number | null;
  backend_start: Timestamp | null;
}

/** PostgreSQL only: rate-limit windows shared by every process when there is no Redis. */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  expires_at: Timestamp;
}

/** PostgreSQL only: a slot taken for work in flight (a delivery to one destination) until released or expired. */
export interface InFlightSlotsTable {
  key: string;
  token: string;
  expires_at: Timestamp;
}

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

export interface AccountPasswordsTable {
  account_id: string;
  password_hash: string;
  updated_at: Timestamp;
}

export interface DashboardSessionsTable {
  token_hash: string;
  account_id: string;
  csrf_token: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A one-time notice for a session's next page, encrypted with a key only its cookie gives (0024). */
export interface DashboardFlashesTable {
  token_hash: string;
  payload: string;
  expires_at: Timestamp;
}

export interface PasswordLinksTable {
  token_hash: string;
  account_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<number | string>;
  account_id: string;
  key_id: string;
  key_name: string;
  /** dashboard, cli and system (the retention purge) record reads and erasures made without a key. */
  surface: 'api' | 'mcp' | 'dashboard' | 'cli' | 'system';
  operation: string;
  target_id: string | null;
  outcome: 'succeeded' | 'failed';
  created_at: Timestamp;
  /** What the entry counted (an export's rows, an erasure's submissions); never personal data. */
  detail: string | null;
}

export interface SubmissionAnalysesTable {
  submission_id: string;
  kind: string;
  result: Json;
  created_at: Timestamp;
}

export interface KnowledgeBasesTable {
  id: string;
  account_id: string;
  name: string;
  content: string;
  signature: string | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KnowledgePassagesTable {
  knowledge_base_id: string;
  position: number;
  heading: string | null;
  body: string;
}

/** Per account and hashed text feature, how many of its spam corrections had it (feature -1: the corrections). */
export interface SpamFeedbackTable {
  account_id: string;
  feature: number;
  spam: number;
  ham: number;
}

/** What the pipeline has recorded of each submission's fingerprint, to count earlier copies (0011). */
export interface SubmissionFingerprintsTable {
  form_id: string;
  fingerprint: string;
  seq: number | string;
}

/** Per form, the seq through which every submission's fingerprint is recorded. */
export interface FingerprintMarksTable {
  form_id: string;
  through_seq: number | string;
}

export interface ServerSettingsTable {
  name: 'setup_closed_at' | 'operator_account_id';
  value: string;
  updated_at: Timestamp;
}

export interface SetupTokensTable {
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** The data-subject index: a stored submission's normalised email addresses, hashed (0014). */
export interface SubjectEmailsTable {
  email_hash: string;
  submission_id: string;
  form_id: string;
}

/** When a periodic job is next due; the process that moves it forward enqueues the run. */
export interface ScheduledRunsTable {
  name: string;
  next_run_at: Timestamp;
}

/** Everything the OAuth authorization server keeps: one row per oidc-provider record (see 0021_oauth). */
export interface OauthRecordsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

/** Per form and UTC day of arrival, the counts of its submissions as they are now (0023; kept by triggers). */
export interface DailyCountsTable {
  form_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  received: number;
  spam: number;
  replies_drafted: number;
  replies_sent: number;
  replies_declined: number;
}

/** Per form, UTC day of arrival and detected language, how many submissions (0023). */
export interface DailyLanguagesTable {
  form_id: string;
  day: string;
  language: string;
  submissions: number;
}

/** Per destination and UTC day a delivery was created, deliveries of submissions that succeeded or failed (0023). */
export interface DailyDeliveriesTable {
  destination_id: string;
  day: string;
  delivered: number;
  failed: number;
}

export interface Tables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_usage: CreditUsageTable;
  forms: FormsTable;
  form_versions: FormVersionsTable;
  submissions: SubmissionsTable;
  credit_charges: CreditChargesTable;
  jobs: JobsTable;
  worker_leases: WorkerLeasesTable;
  rate_limit_counters: RateLimitCountersTable;
  in_flight_slots: InFlightSlotsTable;
  destinations: DestinationsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  account_passwords: AccountPasswordsTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_flashes: DashboardFlashesTable;
  password_links: PasswordLinksTable;
  audit_log: AuditLogTable;
  submission_analyses: SubmissionAnalysesTable;
  knowledge_bases: KnowledgeBasesTable;
  knowledge_passages: KnowledgePassagesTable;
  spam_feedback: SpamFeedbackTable;
  submission_fingerprints: SubmissionFingerprintsTable;
  fingerprint_marks: FingerprintMarksTable;
  server_settings: ServerSettingsTable;
  setup_tokens: SetupTokensTable;
  subject_emails: SubjectEmailsTable;
  scheduled_runs: ScheduledRunsTable;
  oauth_records: OauthRecordsTable;
  daily_counts: DailyCountsTable;
  daily_languages: DailyLanguagesTable;
  daily_deliveries: DailyDeliveriesTable;
}
