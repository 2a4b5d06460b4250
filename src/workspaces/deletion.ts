// Deleting a workspace (owners only: permissions.ts, `workspace_delete`), the same from the REST API,
// MCP and the dashboard: its name typed back (`confirm`, the workspace's email, as the Team page and
// the workspace menu name it) so that a stray call cannot do it; every row in one transaction
// (deletion-store.ts); then the uploaded bytes through the file storage, the forms dropped from this
// process's cache, and an entry in the operator's audit log, the one that outlives the workspace.
import type { Owner } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import { identityEmail } from '../forms/email-address.ts';
import { fail } from '../http/errors.ts';
import type { WorkspaceDeletionStore } from './deletion-store.ts';

export interface WorkspaceDeletion {
  workspace: string;
  forms: number;
  submissions: number;
  files: number;
  knowledge_bases: number;
  members: number;
}

/** The operator's log's words: counts, whose workspace and who asked, never anything submitted. */
export const deletionDetail = (d: WorkspaceDeletion) =>
  `deleted workspace ${d.workspace}: ${d.forms} forms, ${d.submissions} submissions, ${d.files} files, ${d.knowledge_bases} knowledge bases, ${d.members} members`;

export function workspaceDeletionService(deps: {
  store: WorkspaceDeletionStore;
  forms: { forget(ids: string[]): void };
  files: { processDeletions(): Promise<number> };
  audit: AuditService;
  operatorAccountId(): Promise<string | null>;
}) {
  const { store, forms, files, audit } = deps;

  return {
    /**
     * `surface`: where it was asked (the operator's log says so). The bytes that cannot be deleted now
     * stay queued in file_deletions, which every process's files worker retries within a minute.
     */
    async delete(owner: Owner, confirm: unknown, surface: 'api' | 'mcp' | 'dashboard'): Promise<WorkspaceDeletion> {
      const name = owner.account.email;
      const typed = typeof confirm === 'string' && confirm.length <= 320 ? identityEmail(confirm) : null;
      if (typed !== name) {
        throw fail.cannotDelete(`Nothing was deleted. To delete this workspace and everything in it, give its name as confirm: "${name}".`);
      }
      const operator = await deps.operatorAccountId();
      const deleted = await store.delete(owner.account.id, operator === owner.account.id);
      forms.forget(deleted.formIds);
      // A failure here leaves the jobs queued: the files worker retries them and logs its own failures.
      await files.processDeletions().catch(() => 0);
      const result: WorkspaceDeletion = {
        workspace: name, forms: deleted.formIds.length, submissions: deleted.submissions, files: deleted.files,
        knowledge_bases: deleted.knowledgeBases, members: deleted.members,
      };
      // Without an operator (a server only ever set up with `intake keys create`) there is no log that
      // outlives the workspace: the REST, MCP or dashboard entry of the request itself is all there is.
      if (operator) {
        await audit.recordKeyless({
          accountId: operator, surface: 'system', actor: `workspace deletion (${surface})`, member: owner.memberEmail ?? owner.keyName,
          operation: 'delete workspace', targetId: owner.account.id, detail: deletionDetail(result),
        });
      }
      return result;
    },
  };
}

export type WorkspaceDeletionService = ReturnType<typeof workspaceDeletionService>;
