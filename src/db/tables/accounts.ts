// Owners and what they sign in with: accounts, API keys, passwords, dashboard sessions, set-up,
// OAuth, credits and the audit log.
import type { Generated } from 'kysely';
import type { Timestamp, NullableTimestamp, Count } from './columns.ts';

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
  /** The member whose role the key acts with (0041); null: the workspace's own account. */
  person_id: string | null;
}

export interface CreditUsageTable {
  account_id: string;
  /** `lifetime` for the free plan's one-time allowance, `YYYY-MM` for a pro month. */
  period: string;
  used: Count;
}

export interface CreditChargesTable {
  submission_id: string;
  step: string;
  account_id: string;
  period: string;
  cost: number;
  created_at: Timestamp;
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
  /** The workspace the session acts in (0041); null: the session's own account. */
  workspace_id: Generated<string | null>;
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
  /** The member who acted, by their email then (0042); null before teams. */
  member_email: string | null;
}

export interface ServerSettingsTable {
  /** served_url: where the last `intake serve` listened, for `intake setup-link` run beside it. */
  name: 'setup_closed_at' | 'operator_account_id' | 'altcha_hmac_key' | 'secret_key_check' | 'served_url';
  value: string;
  updated_at: Timestamp;
}

export interface SetupTokensTable {
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
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
  /** The redirect URI a Grant was consented through (migration 0026). */
  redirect_uri: string | null;
}
