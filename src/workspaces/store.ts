// The only code that reads and writes workspace members (migration 0041) and who consented to an
// OAuth grant. A workspace is an accounts row; a person is the accounts row they log in with.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Role } from '../db/tables.ts';
import { toIso, toIsoOrNull } from '../db/values.ts';
import { ROLES } from './permissions.ts';

export interface Member {
  id: string;
  workspaceId: string;
  personId: string | null;
  email: string;
  role: Role;
  status: 'invited' | 'active';
  inviteExpiresAt: string | null;
  invitedBy: string | null;
  createdAt: string;
  acceptedAt: string | null;
}

export interface Membership {
  memberId: string;
  workspaceId: string;
  /** The workspace's own account email: how a menu names it. */
  workspaceEmail: string;
  role: Role;
}

type MemberRow = {
  id: string; workspace_id: string; person_id: string | null; email: string; role: Role; status: 'invited' | 'active';
  invite_expires_at: string | Date | null; invited_by: string | null; created_at: string | Date; accepted_at: string | Date | null;
};

const MEMBER_COLUMNS = ['id', 'workspace_id', 'person_id', 'email', 'role', 'status', 'invite_expires_at', 'invited_by', 'created_at', 'accepted_at'] as const;

function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    personId: row.person_id,
    email: row.email,
    role: row.role,
    status: row.status,
    inviteExpiresAt: toIsoOrNull(row.invite_expires_at),
    invitedBy: row.invited_by,
    createdAt: toIso(row.created_at),
    acceptedAt: toIsoOrNull(row.accepted_at),
  };
}

export function workspaceStore(db: Db) {
  return {
    /** The active member's role in the workspace, or null. */
    async activeRole(workspaceId: string, personId: string): Promise<Role | null> {
      return (await this.activeMember(workspaceId, personId))?.role ?? null;
    },

    async activeMember(workspaceId: string, personId: string): Promise<{ role: Role; email: string } | null> {
      const row = await db
        .selectFrom('workspace_members')
        .select(['role', 'email'])
        .where('workspace_id', '=', workspaceId)
        .where('person_id', '=', personId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return row ?? null;
    },

    /** Every workspace the person is an active member of, their own first. */
    async memberships(personId: string): Promise<Membership[]> {
      const rows = await db
        .selectFrom('workspace_members as m')
        .innerJoin('accounts as w', 'w.id', 'm.workspace_id')
        .select(['m.id', 'm.workspace_id', 'w.email', 'm.role'])
        .where('m.person_id', '=', personId)
        .where('m.status', '=', 'active')
        .orderBy('w.created_at')
        .execute();
      const list = rows.map((r) => ({ memberId: r.id, workspaceId: r.workspace_id, workspaceEmail: r.email, role: r.role }));
      return [...list.filter((m) => m.workspaceId === personId), ...list.filter((m) => m.workspaceId !== personId)];
    },

    async list(workspaceId: string): Promise<Member[]> {
      const rows = await db.selectFrom('workspace_members').select(MEMBER_COLUMNS).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('email').execute();
      return rows.map(toMember);
    },

    async find(workspaceId: string, memberId: string): Promise<Member | null> {
      const row = await db.selectFrom('workspace_members').select(MEMBER_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', memberId).executeTakeFirst();
      return row ? toMember(row) : null;
    },

    async findByEmail(workspaceId: string, email: string): Promise<Member | null> {
      const row = await db.selectFrom('workspace_members').select(MEMBER_COLUMNS).where('workspace_id', '=', workspaceId).where('email', '=', email).executeTakeFirst();
      return row ? toMember(row) : null;
    },

    /** A pending invitation by its token's hash, expired or not. */
    async findInvite(inviteHash: string): Promise<Member | null> {
      const row = await db.selectFrom('workspace_members').select(MEMBER_COLUMNS).where('invite_hash', '=', inviteHash).where('status', '=', 'invited').executeTakeFirst();
      return row ? toMember(row) : null;
    },

    /** A new invitation; null when the email is already a member or invited (the unique pair). */
    async invite(input: { workspaceId: string; email: string; role: Role; personId: string | null; inviteHash: string; expiresAt: string; invitedBy: string; now: string }): Promise<Member | null> {
      const id = randomUUID();
      const result = await db
        .insertInto('workspace_members')
        .values({
          id, workspace_id: input.workspaceId, person_id: input.personId, email: input.email, role: input.role, status: 'invited',
          invite_hash: input.inviteHash, invite_expires_at: input.expiresAt, invited_by: input.invitedBy, created_at: input.now,
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'email']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      return this.find(input.workspaceId, id);
    },

    /** Accepts an invitation once: only the row still holding that hash, unexpired, changes. */
    async accept(memberId: string, inviteHash: string, personId: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('workspace_members')
        .set({ status: 'active', person_id: personId, invite_hash: null, invite_expires_at: null, accepted_at: now })
        .where('id', '=', memberId)
        .where('invite_hash', '=', inviteHash)
        .where('status', '=', 'invited')
        .where('invite_expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setRole(workspaceId: string, memberId: string, role: Role): Promise<void> {
      await db.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('id', '=', memberId).execute();
    },

    async countOwners(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('workspace_members')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('role', '=', 'owner')
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /**
     * Removes a member and, in the same transaction, what they could still act through on this
     * workspace: their keys (revoked) and their OAuth grants (every record of the grant deleted).
     */
    async remove(workspaceId: string, member: Member, now: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('id', '=', member.id).execute();
        if (!member.personId) return;
        const own = member.personId === workspaceId;
        let keys = tx.updateTable('api_keys').set({ revoked_at: now }).where('account_id', '=', workspaceId).where('revoked_at', 'is', null);
        keys = own ? keys.where((eb) => eb.or([eb('person_id', '=', member.personId), eb('person_id', 'is', null)])) : keys.where('person_id', '=', member.personId);
        await keys.execute();
        const grants = await tx.selectFrom('oauth_grant_members').select('grant_id').where('workspace_id', '=', workspaceId).where('person_id', '=', member.personId!).execute();
        const grantIds = grants.map((g) => g.grant_id);
        if (own) {
          // Grants made before 0041 (or by the workspace's own account) have no row: they are its own.
          const all = await tx.selectFrom('oauth_records').select('id').where('model', '=', 'Grant').where('account_id', '=', workspaceId).execute();
          const others = new Set((await tx.selectFrom('oauth_grant_members').select('grant_id').where('workspace_id', '=', workspaceId).where('person_id', '!=', member.personId!).execute()).map((g) => g.grant_id));
          for (const g of all) if (!others.has(g.id)) grantIds.push(g.id);
        }
        if (grantIds.length > 0) {
          await tx.deleteFrom('oauth_records').where('grant_id', 'in', grantIds).execute();
          await tx.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', grantIds).execute();
          // The grant's member row stays: were any record of the grant left, it would still name the
          // removed person (no role), never fall back to the workspace's own account.
        }
      });
    },

    /** The emails of the active members of the workspace that owns `formId` whose role is `minimum` or above: an email destination's recipients_role. */
    async addressesAtLeast(formId: string, minimum: Role): Promise<string[]> {
      const roles = ROLES.slice(ROLES.indexOf(minimum));
      const rows = await db
        .selectFrom('workspace_members as m')
        .innerJoin('forms as f', 'f.account_id', 'm.workspace_id')
        .select('m.email')
        .where('f.id', '=', formId)
        .where('m.status', '=', 'active')
        .where('m.role', 'in', roles)
        .orderBy('m.email')
        .execute();
      return rows.map((row) => row.email);
    },

    async setGrantMember(grantId: string, workspaceId: string, personId: string): Promise<void> {
      await db
        .insertInto('oauth_grant_members')
        .values({ grant_id: grantId, workspace_id: workspaceId, person_id: personId })
        .onConflict((oc) => oc.column('grant_id').doUpdateSet({ workspace_id: workspaceId, person_id: personId }))
        .execute();
    },

    /** Who consented to the grant; null: the workspace's own account (grants made before 0041). */
    async grantPerson(grantId: string): Promise<string | null> {
      const row = await db.selectFrom('oauth_grant_members').select('person_id').where('grant_id', '=', grantId).executeTakeFirst();
      return row?.person_id ?? null;
    },
  };
}

export type WorkspaceStore = ReturnType<typeof workspaceStore>;
