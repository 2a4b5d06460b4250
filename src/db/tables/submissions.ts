// Forms, their versions and submissions, what the pipeline records of them, and the daily counts
// kept by triggers.
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, NullableTimestamp, Bool, Json, NullableJson, Count } from './columns.ts';

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
  spam_sensitivity: 'low' | 'balanced' | 'high';
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
  captcha_provider: 'none' | 'altcha' | 'turnstile' | 'hcaptcha' | 'recaptcha';
  captcha_site_key: string | null;
  captcha_secret: string | null;
  /** Where a browser goes after a plain HTML post; null: Intake's thank-you page. */
  redirect_url: string | null;
  /** JSON array of the origins that may post; empty: any. */
  allowed_origins: ColumnType<unknown, string | undefined, string>;
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
  /** replies/evidence.ts: how sure the reply is and what it quotes. */
  reply_confidence: NullableJson;
  reply_sending_at: NullableTimestamp;
  reply_sending_by: string | null;
  reply_message_id: string | null;
  /** The owner's archive, beside spam (migration 0023). */
  done: ColumnType<boolean | number, boolean | undefined, boolean>;
  done_at: NullableTimestamp;
  /** When the owner first opened it or marked it read; null: unread. */
  read_at: NullableTimestamp;
  /** Who (the member's email) last marked it read, done, spam or not spam; edited and sent its reply (0043). */
  read_by: string | null;
  done_by: string | null;
  spam_marked_by: string | null;
  reply_edited_by: string | null;
  reply_sent_by: string | null;
}

export interface SubmissionAnalysesTable {
  submission_id: string;
  kind: string;
  result: Json;
  created_at: Timestamp;
}

/** A model's summary of a form's submissions, kept apart from any one of them (0028). */
export interface SubmissionSummariesTable {
  /** A hash of the form, the submissions read and the figures: the same question is answered once. */
  id: string;
  form_id: string;
  summary: string;
  created_at: Timestamp;
}

/** Every submission a summary was made from: deleting one deletes the summary (0028's trigger). */
export interface SubmissionSummarySourcesTable {
  submission_id: string;
  summary_id: string;
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

/** The data-subject index: a stored submission's normalised email addresses, hashed (0014). */
export interface SubjectEmailsTable {
  email_hash: string;
  submission_id: string;
  form_id: string;
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

/** ALTCHA solutions once accepted, kept until their challenge expires (migration 0031). */
export interface CaptchaSolutionsTable {
  challenge_id: string;
  expires_at: Timestamp;
}

/** A stored upload's facts; its bytes are in the file storage under storage_key (migration 0034). */
export interface SubmissionFilesTable {
  id: string;
  submission_id: string;
  form_id: string;
  account_id: string;
  field: string;
  filename: string;
  content_type: string;
  size: Count;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
  /** Migration 0039: when clamd gave its verdict; null when never scanned (no INTAKE_CLAMAV_URL then). */
  scanned_at: NullableTimestamp;
  /** Migration 0039: the signature clamd found; a file with one is quarantined (never served). */
  quarantine: string | null;
}

/** Bytes to delete: written by a trigger when a submission_files row goes, removed once the bytes are (migration 0034). */
export interface FileDeletionsTable {
  storage_key: string;
  deleted_at: Timestamp;
}
