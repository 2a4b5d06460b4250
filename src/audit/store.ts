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
  /** The member who acted (their email when they did); null for entries from before teams. */
  member: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'member'> & { account_id: string; member_email?: string | null };

export function auditStore(db: Db) {
  return {
    async insert(entry: NewAuditEntry): Promise<void> {
      await db.insertInto('audit_log').values(entry).execute();
    },

    /** Newest first; `surface` narrows to entries made through one surface. */
    async list(accountId: string, limit: number, offset: number, surface?: AuditEntry['surface']): Promise<{ entries: AuditEntry[]; total: number }> {
      const of = () => {
        const query = db.selectFrom('audit_log').where('account_id', '=', accountId);
        return surface ? query.where('surface', '=', surface) : query;
      };
      const [rows, count] = await Promise.all([
        of()
          .select(['id', 'created_at', 'key_id', 'key_name', 'surface', 'operation', 'target_id', 'outcome', 'detail', 'member_email'])
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        of().select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        entries: rows.map(({ member_email: member, ...row }) => ({ ...row, member, id: String(row.id), created_at: toIso(row.created_at) })),
        total: toCount(count.n as number | string),
      };
    },
  };
}

export type AuditStore = ReturnType<typeof auditStore>;
