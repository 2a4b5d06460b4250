// The rules of teams (docs/teams.md): inviting, accepting, changing roles and removing members, at
// least one owner always left; and who acts through an OAuth grant, with which current role.
import type { Owner } from '../accounts/service.ts';
import type { Account, AccountStore } from '../accounts/store.ts';
import { hashSecret, newSecret } from '../accounts/secrets.ts';
import type { Role } from '../db/tables.ts';
import type { Mailer } from '../delivery/email.ts';
import { identityEmail } from '../forms/email-address.ts';
import { fail } from '../http/errors.ts';
import type { Member, WorkspaceStore } from './store.ts';
import { ROLES } from './permissions.ts';

export const INVITE_DAYS = 7;
const INVITE_PREFIX = 'inv_';

/** Why an invitation link is refused: the same words for a forged, used or expired link. */
export class InviteError extends Error {}
const INVITE_REFUSED = 'This invitation link has expired, was already used, or is not valid. Ask the workspace owner for a new one.';

export interface Invitation {
  member: Member;
  inviteUrl: string;
  emailed: boolean;
}

export function workspaceService(deps: {
  store: WorkspaceStore;
  accounts: AccountStore;
  mailer: Mailer | null;
  baseUrl: string;
  clock?: () => Date;
}) {
  const { store, accounts, mailer, baseUrl } = deps;
  const clock = deps.clock ?? (() => new Date());

  function parseRole(value: unknown): Role {
    const role = ROLES.find((r) => r === value);
    if (!role) throw fail.validation({ role: [`must be one of ${ROLES.join(', ')}`] });
    return role;
  }

  async function memberOf(owner: Owner, id: string): Promise<Member> {
    const member = await store.find(owner.account.id, id);
    if (!member) throw fail.notFound('No such member in this workspace.');
    return member;
  }

  /** An owner who is the last active one cannot stop being one. */
  async function keepAnOwner(workspaceId: string, member: Member, message: string): Promise<void> {
    if (member.role === 'owner' && member.status === 'active' && (await store.countOwners(workspaceId)) <= 1) throw fail.cannotUpdate(message);
  }

  async function pendingInvite(token: string): Promise<Member> {
    if (!token.startsWith(INVITE_PREFIX) || token.length > 200) throw new InviteError(INVITE_REFUSED);
    const member = await store.findInvite(hashSecret(token));
    if (!member || !member.inviteExpiresAt || Date.parse(member.inviteExpiresAt) <= clock().getTime()) throw new InviteError(INVITE_REFUSED);
    return member;
  }

  return {
    parseRole,
    list: (owner: Owner) => store.list(owner.account.id),
    memberships: (personId: string) => store.memberships(personId),
    activeRole: (workspaceId: string, personId: string) => store.activeRole(workspaceId, personId),

    async invite(owner: Owner, input: { email: unknown; role: unknown }): Promise<Invitation> {
      const email = typeof input.email === 'string' ? identityEmail(input.email) : null;
      const role = parseRole(input.role);
      if (!email) throw fail.validation({ email: ['must be an email address'] });
      const token = newSecret(INVITE_PREFIX);
      const now = clock();
      const person = await accounts.findByEmail(email);
      const member = await store.invite({
        workspaceId: owner.account.id, email, role, personId: person?.id ?? null, inviteHash: hashSecret(token),
        expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString(), invitedBy: owner.personId, now: now.toISOString(),
      });
      if (!member) throw fail.validation({ email: ['is already a member of this workspace or invited to it'] }, `${email} is already a member of this workspace or invited to it.`);
      const inviteUrl = `${baseUrl}/invite?token=${token}`;
      let emailed = false;
      if (mailer) {
        try {
          await mailer.send({
            to: [email],
            subject: `You are invited to ${owner.account.email}'s forms on Intake`,
            text: `${owner.account.email} invited you as ${role}. Open this link within ${INVITE_DAYS} days to join:\n\n${inviteUrl}\n`,
            html: `<p>${owner.account.email.replace(/[<>&"]/g, '')} invited you as ${role}.</p><p><a href="${inviteUrl}">Join the workspace</a> (within ${INVITE_DAYS} days).</p>`,
            autoSubmitted: 'auto-generated',
          });
          emailed = true;
        } catch {
          // The link is in the answer: the owner can pass it on themselves.
        }
      }
      return { member, inviteUrl, emailed };
    },

    async changeRole(owner: Owner, id: string, roleInput: unknown): Promise<Member> {
      const role = parseRole(roleInput);
      const member = await memberOf(owner, id);
      if (role !== 'owner') await keepAnOwner(owner.account.id, member, 'This is the last owner of the workspace: make another member owner first.');
      await store.setRole(owner.account.id, id, role);
      return (await store.find(owner.account.id, id))!;
    },

    async remove(owner: Owner, id: string): Promise<void> {
      const member = await memberOf(owner, id);
      await keepAnOwner(owner.account.id, member, 'This is the last owner of the workspace: it cannot leave. Make another member owner first.');
      await store.remove(owner.account.id, member, clock().toISOString());
    },

    /** What the invitation page shows: which workspace, for which email, and whether that email can log in already. */
    async inviteDetails(token: string): Promise<{ member: Member; workspace: Account; hasAccount: boolean }> {
      const member = await pendingInvite(token);
      const workspace = await accounts.findById(member.workspaceId);
      if (!workspace) throw new InviteError(INVITE_REFUSED);
      return { member, workspace, hasAccount: (await accounts.findByEmail(member.email)) !== null };
    },

    /**
     * Accepts an invitation for `person` (the invitee logged in, or their login just created): once
     * only, before it expires, and only by the invited email's own login.
     */
    async accept(token: string, person: Account): Promise<Member> {
      const member = await pendingInvite(token);
      if (person.email !== member.email) throw new InviteError(`This invitation is for ${member.email}. Log in with that email to accept it.`);
      if (!(await store.accept(member.id, hashSecret(token), person.id, clock().toISOString()))) throw new InviteError(INVITE_REFUSED);
      return (await store.find(member.workspaceId, member.id))!;
    },

    /** The login row of an invitee new to the server: no workspace of its own. */
    personFor: (email: string) => accounts.ensurePerson(email, clock().toISOString()),

    /** For oauthService: the grant's person and their current role, or null once they left the workspace. */
    async grantMember(grantId: string, workspaceId: string): Promise<{ personId: string; role: Role; email: string } | null> {
      const personId = (await store.grantPerson(grantId)) ?? workspaceId;
      const member = await store.activeMember(workspaceId, personId);
      return member ? { personId, ...member } : null;
    },

    consented: (grantId: string, workspaceId: string, personId: string) => store.setGrantMember(grantId, workspaceId, personId),
  };
}

export type WorkspaceService = ReturnType<typeof workspaceService>;
