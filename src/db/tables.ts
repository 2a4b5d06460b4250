// The database as Kysely sees it: every table by name. The row types live by responsibility in
// tables/; columns.ts says how the two engines return each kind of column.
import type { AccountsTable, ApiKeysTable, CreditUsageTable, CreditChargesTable, AccountPasswordsTable, DashboardSessionsTable, DashboardFlashesTable, PasswordLinksTable, AuditLogTable, ServerSettingsTable, SetupTokensTable, OauthRecordsTable } from './tables/accounts.ts';
import type { FormsTable, FormVersionsTable, SubmissionsTable, SubmissionAnalysesTable, SubmissionSummariesTable, SubmissionSummarySourcesTable, SpamFeedbackTable, SubmissionFingerprintsTable, FingerprintMarksTable, SubjectEmailsTable, DailyCountsTable, DailyLanguagesTable, CaptchaSolutionsTable, SubmissionFilesTable, FileDeletionsTable } from './tables/submissions.ts';
import type { DestinationsTable, DeliveriesTable, DeliveryAttemptsTable, DailyDeliveriesTable } from './tables/delivery.ts';
import type { JobsTable, WorkerLeasesTable, ScheduledRunsTable, RateLimitCountersTable, InFlightSlotsTable } from './tables/jobs.ts';
import type { KnowledgeBasesTable, KnowledgePassagesTable } from './tables/knowledge.ts';
import type { WorkspaceMembersTable, OauthGrantMembersTable } from './tables/workspaces.ts';

export type * from './tables/accounts.ts';
export type * from './tables/submissions.ts';
export type * from './tables/delivery.ts';
export type * from './tables/jobs.ts';
export type * from './tables/knowledge.ts';
export type * from './tables/workspaces.ts';

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
  submission_summaries: SubmissionSummariesTable;
  submission_summary_sources: SubmissionSummarySourcesTable;
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
  captcha_solutions: CaptchaSolutionsTable;
  submission_files: SubmissionFilesTable;
  file_deletions: FileDeletionsTable;
  workspace_members: WorkspaceMembersTable;
  oauth_grant_members: OauthGrantMembersTable;
}
