// The only code that reads and writes the audit log.
import type { Db } from '../db/database.ts';
import type { AuditLogTable } from '../db/tables.ts';
import { toCount, toIso } from '../db/values.ts';

export interface AuditEntry {
  id: string;
  created_at: string;
  key_id: string;
  key_name: string;
  surface: AuditLogTable['surface'];
  operation: string;
  target_id: string | null;
  outcome: AuditLogTable['outcome'];
  detail: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'> & { account_id: string };

export function auditStore(db: Db) {
  return {
    async insert(entry: NewAuditEntry): Promise<void> {
      await db.insertInto('audit_log').values(entry).execute();
    },

    /** Newest first. */
    async list(accountId: string, limit: number, offset: number): Promise<{ entries: AuditEntry[]; total: number }> {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('audit_log')
          .select(['id', 'created_at', 'key_id', 'key_name', 'surface', 'operation', 'target_id', 'outcome', 'detail'])
          .where('account_id', '=', accountId)
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow(),
      ]);
      return {
        entries: rows.map((row) => ({ ...row, id: String(row.id), created_at: toIso(row.created_at) })),
        total: toCount(count.n as number | string),
      };
    },
  };
}

export type AuditStore = ReturnType<typeof auditStore>;
