// The only code that deletes a whole workspace's rows (docs/teams.md#deleting-a-workspace), in one
// transaction: its submissions through the store function erasure and retention use (the deliveries,
// analyses, index rows and the file rows go with them, and the file rows' trigger writes the bytes'
// deletion jobs in the same transaction), then its forms (their versions, destinations and counts
// cascade), knowledge bases, API keys, OAuth grants with their codes and tokens, learned spam
// features, audit log and members. The accounts row stays: it is the login of whoever it was, and a
// row nobody is a member of is not a workspace. Plans, credit usage and charges stay with it (billing).
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import type { Tables } from '../db/tables.ts';
import { deleteSubmissions } from '../data-subjects/store.ts';

/** Submissions read and deleted per statement, in seq order. */
const CHUNK = 500;

export interface DeletedWorkspace {
  formIds: string[];
  submissions: number;
  files: number;
  knowledgeBases: number;
  members: number;
}

/** Every submission of the form, a chunk at a time in seq order, so that PostgreSQL locks them as the pipeline does. */
async function deleteFormSubmissions(tx: Transaction<Tables>, engine: Engine, formId: string): Promise<number> {
  let deleted = 0;
  let after = -1;
  for (;;) {
    const rows = await tx.selectFrom('submissions').select(['id', 'seq']).where('form_id', '=', formId).where('seq', '>', after).orderBy('seq').limit(CHUNK).execute();
    if (rows.length === 0) return deleted;
    deleted += await deleteSubmissions(tx, engine, formId, rows.map((row) => row.id));
    after = Number(rows.at(-1)!.seq);
  }
}

const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

export function workspaceDeletionStore(db: Db, engine: Engine) {
  return {
    /**
     * Deletes the workspace's rows. `keepAudit`: the workspace is the operator's account, whose audit
     * log is the server's (other workspaces' deletions are recorded there), so it stays.
     */
    async delete(workspaceId: string, keepAudit: boolean): Promise<DeletedWorkspace> {
      return db.transaction().execute(async (tx) => {
        const forms = await tx.selectFrom('forms').select('id').where('account_id', '=', workspaceId).orderBy('id').execute();
        const formIds = forms.map((form) => form.id);
        const files = await tx.selectFrom('submission_files').select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('account_id', '=', workspaceId).executeTakeFirstOrThrow();
        let submissions = 0;
        for (const formId of formIds) submissions += await deleteFormSubmissions(tx, engine, formId);
        // A submission that arrived since (PostgreSQL) goes with its form, by the foreign keys' cascade.
        await tx.deleteFrom('forms').where('account_id', '=', workspaceId).execute();
        const knowledgeBases = count(await tx.deleteFrom('knowledge_bases').where('account_id', '=', workspaceId).executeTakeFirst());
        await tx.deleteFrom('api_keys').where('account_id', '=', workspaceId).execute();
        const grants = tx.selectFrom('oauth_records').select('id').where('model', '=', 'Grant').where('account_id', '=', workspaceId);
        await tx.deleteFrom('oauth_records').where((eb) => eb.or([eb('grant_id', 'in', grants), eb('account_id', '=', workspaceId)])).execute();
        await tx.deleteFrom('oauth_grant_members').where('workspace_id', '=', workspaceId).execute();
        await tx.deleteFrom('spam_feedback').where('account_id', '=', workspaceId).execute();
        if (!keepAudit) await tx.deleteFrom('audit_log').where('account_id', '=', workspaceId).execute();
        const members = count(await tx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('status', '=', 'active').executeTakeFirst());
        await tx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).execute();
        // Sessions that were in it land in their person's next workspace (dashboard/service.ts, workspaceOf).
        await tx.updateTable('dashboard_sessions').set({ workspace_id: null }).where('workspace_id', '=', workspaceId).execute();
        return { formIds, submissions, files: Number(files.n), knowledgeBases, members };
      });
    },
  };
}

export type WorkspaceDeletionStore = ReturnType<typeof workspaceDeletionStore>;
