// The counts kept in shards as well as in their row (migration 0044): a form's submissions and an
// owner's lifetime total are the row's column plus the sum of its shard rows. PostgreSQL's
// one-statement batch adds to the shards, so that batches on other connections do not wait for
// each other; everything else (SQLite, deletes) moves the row's column.
import { sql, type RawBuilder } from 'kysely';

/** forms.submission_count with its shards, for the form row aliased `form`. */
export function formSubmissionCount(form: string): RawBuilder<number | string> {
  return sql<number | string>`(${sql.ref(`${form}.submission_count`)} + coalesce((select sum(fcs.submissions) from form_count_shards fcs where fcs.form_id = ${sql.ref(`${form}.id`)}), 0))`;
}

/** accounts.submissions_total with its shards, for the account row aliased `account`. */
export function accountSubmissionsTotal(account: string): RawBuilder<number | string> {
  return sql<number | string>`(${sql.ref(`${account}.submissions_total`)} + coalesce((select sum(acs.submissions) from account_count_shards acs where acs.account_id = ${sql.ref(`${account}.id`)}), 0))`;
}
