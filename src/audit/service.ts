// The audit trail: every write an owner's key makes, through the REST API or MCP, with who (the
// account and the key, by id and by the name it had then), where, what and on which object.
import type { Owner } from '../accounts/service.ts';
import type { AuditEntry, AuditStore } from './store.ts';

export interface AuditPage {
  data: AuditEntry[];
  meta: { current_page: number; total_pages: number; total_count: number; page_size: number };
}

export interface WriteEvent {
  owner: Owner;
  surface: 'api' | 'mcp';
  operation: string;
  targetId: string | null;
  outcome: 'succeeded' | 'failed';
  /** Counts only (rows exported, submissions erased): the audit log never holds a data subject's data. */
  detail?: string;
}

/** An entry made without an API key: the dashboard, the CLI, or the server itself (the retention purge). */
export interface KeylessEvent {
  accountId: string;
  surface: 'dashboard' | 'cli' | 'system';
  /** Who acted, as key_id and key_name show it: the session's account, `cli`, `retention`. */
  actor: string;
  operation: string;
  targetId: string | null;
  detail?: string;
  /** The member who acted (the dashboard's person). */
  member?: string;
  /** Succeeded unless said (a dashboard form that was refused). */
  outcome?: 'succeeded' | 'failed';
}

export function auditService(store: AuditStore, clock: () => Date = () => new Date()) {
  return {
    record({ owner, surface, operation, targetId, outcome, detail }: WriteEvent): Promise<void> {
      return store.insert({
        detail: detail ?? null,
        account_id: owner.account.id,
        member_email: owner.memberEmail ?? null,
        key_id: owner.keyId,
        key_name: owner.keyName,
        surface,
        operation: operation.slice(0, 200),
        target_id: targetId?.slice(0, 200) ?? null,
        outcome,
        created_at: clock().toISOString(),
      });
    },

    recordKeyless({ accountId, surface, actor, operation, targetId, detail, member, outcome = 'succeeded' }: KeylessEvent): Promise<void> {
      return store.insert({
        account_id: accountId,
        member_email: member ?? null,
        key_id: actor,
        key_name: actor,
        surface,
        operation: operation.slice(0, 200),
        target_id: targetId?.slice(0, 200) ?? null,
        outcome,
        created_at: clock().toISOString(),
        detail: detail ?? null,
      });
    },

    async list(accountId: string, page: number, pageSize: number, surface?: AuditEntry['surface']): Promise<AuditPage> {
      const { entries, total } = await store.list(accountId, pageSize, (page - 1) * pageSize, surface);
      return { data: entries, meta: { current_page: page, total_pages: Math.ceil(total / pageSize), total_count: total, page_size: pageSize } };
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
