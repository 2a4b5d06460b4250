// The rules of dashboard accounts: first-run set-up, sign-up (only when open), log in, sessions
// that expire, password changes that end other sessions, one-time set-password links.
import { randomBytes } from 'node:crypto';
import type { Account, AccountStore } from '../accounts/store.ts';
import { hashSecret, newSecret } from '../accounts/secrets.ts';
import { identityEmail } from '../forms/email-address.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import type { DashboardStore } from './store.ts';
import type { SetupService } from '../setup/service.ts';
import type { Role } from '../db/tables.ts';

export const SESSION_DAYS = 14;
const LINK_HOURS = 24;
const FLASH_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = hashPassword('not a password of anyone');

export class DashboardError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/**
 * `account` is the workspace the session acts in (what every page lists and changes); `person` is who
 * logged in, with their current `role` there (docs/teams.md).
 */
export interface Session {
  account: Account;
  person: Account;
  role: Role;
  /** Every workspace the person is an active member of: the menu, when there are several. */
  workspaces: Array<{ id: string; email: string }>;
  csrfToken: string;
  tokenHash: string;
}

/** What the dashboard asks of teams (src/workspaces/store.ts). */
export interface SessionMembers {
  activeRole(workspaceId: string, personId: string): Promise<Role | null>;
  memberships(personId: string): Promise<Array<{ workspaceId: string; workspaceEmail: string; role: Role }>>;
}

function normaliseEmail(email: string): string {
  const normal = identityEmail(email);
  if (!normal) throw new DashboardError('email', 'Enter an email address such as you@example.com.');
  return normal;
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new DashboardError('password', problem);
}

// Says neither that the address has an account nor that it has none.
const SIGNUP_REFUSED = 'No account could be created with this email. If you have one, log in, or ask the owner of this server for a set-password link.';
const SETUP_LINK_REFUSED = 'This set-up link has expired or was used. Run `npm run intake -- setup-link` on the server for a new one.';

/** Without teams (a unit test's service): each person is the owner of their own account alone. */
const OWN_ACCOUNT_ONLY: SessionMembers = {
  activeRole: async (workspaceId, personId) => (workspaceId === personId ? 'owner' : null),
  memberships: async () => [],
};

export function dashboardService(deps: { store: DashboardStore; accounts: AccountStore; setup: SetupService; members?: SessionMembers; clock?: () => Date }) {
  const { store, accounts, setup } = deps;
  const members = deps.members ?? OWN_ACCOUNT_ONLY;
  const clock = deps.clock ?? (() => new Date());

  /** The workspace a person acts in: the one chosen if still a member there, else their own, else their first. */
  async function workspaceOf(person: Account, chosen: string | null): Promise<{ workspace: Account; role: Role } | null> {
    for (const id of chosen ? [chosen, person.id] : [person.id]) {
      const role = await members.activeRole(id, person.id);
      const workspace = role ? (id === person.id ? person : await accounts.findById(id)) : null;
      if (role && workspace) return { workspace, role };
    }
    const first = (await members.memberships(person.id))[0];
    const workspace = first ? await accounts.findById(first.workspaceId) : null;
    return first && workspace ? { workspace, role: first.role } : null;
  }

  async function startSession(account: Account, workspaceId: string | null = null): Promise<{ token: string; session: Session }> {
    const token = newSecret('', 32);
    const now = clock();
    const place = await workspaceOf(account, workspaceId);
    if (!place) throw new DashboardError('email', 'This login is a member of no workspace any more. Ask a workspace owner for a new invitation.');
    const session = { account: place.workspace, person: account, role: place.role, workspaces: [], csrfToken: randomBytes(24).toString('base64url'), tokenHash: hashSecret(token) };
    await store.insertSession({
      tokenHash: session.tokenHash,
      accountId: account.id,
      csrfToken: session.csrfToken,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_DAYS * DAY_MS).toISOString(),
    });
    return { token, session };
  }

  async function setPassword(account: Account, password: string): Promise<void> {
    await store.setPassword(account.id, await hashPassword(password), clock().toISOString());
    await setup.close(account.id);
  }

  return {
    /** True until set-up is closed: then `/` leads to the log-in page. */
    needsSetup: async () => !(await setup.isClosed()),

    /** Set-up is closed but nobody has a password yet (a set-password link was printed and not used). */
    nobodyCanLogIn: async () => !(await store.anyPassword()),

    /**
     * The operator's account, through the one-time token of a printed set-up link. An account that
     * `intake keys create` made with this email gets its password now.
     */
    async setUp(token: string, email: string, password: string) {
      if (await setup.isClosed()) throw new DashboardError('form', 'This server is already set up. Log in instead.');
      const normal = normaliseEmail(email);
      checkPassword(password);
      const claimed = await setup.claim(token, async () => (await accounts.ensure(normal, clock().toISOString())).id);
      const account = claimed ? await accounts.findByEmail(normal) : null;
      if (!account) throw new DashboardError('token', SETUP_LINK_REFUSED);
      await store.setPassword(account.id, await hashPassword(password), clock().toISOString());
      return startSession(account);
    },

    /** Only once the operator has set the server up, and only for a new email. */
    async signUp(email: string, password: string) {
      if (!(await setup.isClosed())) throw new DashboardError('form', 'This server is not set up yet.');
      const normal = normaliseEmail(email);
      checkPassword(password);
      if (await accounts.findByEmail(normal)) throw new DashboardError('email', SIGNUP_REFUSED);
      const account = await accounts.ensure(normal, clock().toISOString());
      await setPassword(account, password);
      return startSession(account);
    },

    /**
     * An invitee's login for the invitation page (src/dashboard/pages/team.ts): an account with a
     * password must give it; one without (new to the server, or made by the CLI) sets it here, the
     * invitation link to that email standing for a set-password link.
     */
    async inviteeLogin(person: Account, password: string): Promise<void> {
      const hash = await store.passwordHash(person.id);
      if (hash) {
        if (!(await verifyPassword(password, hash))) throw new DashboardError('password', 'That is not the password of this account.');
        return;
      }
      checkPassword(password);
      await setPassword(person, password);
    },

    async hasPassword(person: Account): Promise<boolean> {
      return (await store.passwordHash(person.id)) !== null;
    },

    /** `intake keys create --password`: the account's password set from the CLI. */
    async setPasswordOf(email: string, password: string): Promise<Account> {
      const normal = normaliseEmail(email);
      checkPassword(password);
      const account = await accounts.findByEmail(normal);
      if (!account) throw new DashboardError('email', `No account with email ${normal}.`);
      await setPassword(account, password);
      return account;
    },

    async logIn(email: string, password: string) {
      const normal = identityEmail(email);
      const account = normal ? await accounts.findByEmail(normal) : null;
      const hash = account ? await store.passwordHash(account.id) : null;
      const ok = await verifyPassword(password, hash ?? (await DUMMY_HASH));
      if (!account || !hash || !ok) throw new DashboardError('password', 'That email and password do not match an account.');
      return startSession(account);
    },

    /** Leaves a sealed notice (flash.ts) for the session's next page, for five minutes at most. */
    async leaveFlash(token: string, sealed: string): Promise<void> {
      const now = clock();
      await store.putFlash(hashSecret(token), sealed, new Date(now.getTime() + FLASH_MS).toISOString(), now.toISOString());
    },

    async takeFlash(token: string): Promise<string | null> {
      return store.takeFlash(hashSecret(token), clock().toISOString());
    },

    async session(token: string): Promise<Session | null> {
      if (token.length > 200) return null;
      const tokenHash = hashSecret(token);
      const row = await store.findSession(tokenHash, clock().toISOString());
      if (!row) return null;
      const person = await accounts.findById(row.accountId);
      const place = person ? await workspaceOf(person, row.workspaceId) : null;
      if (!person || !place) return null;
      const workspaces = (await members.memberships(person.id)).map((m) => ({ id: m.workspaceId, email: m.workspaceEmail }));
      return { account: place.workspace, person, role: place.role, workspaces, csrfToken: row.csrfToken, tokenHash };
    },

    /** The workspace menu: the session acts in another workspace the person is an active member of. */
    async switchWorkspace(session: Session, workspaceId: string): Promise<boolean> {
      if (!(await members.activeRole(workspaceId, session.person.id))) return false;
      await store.setSessionWorkspace(session.tokenHash, workspaceId);
      return true;
    },

    /** A session for a person who just accepted an invitation, in the workspace they joined. */
    startSessionIn: (person: Account, workspaceId: string) => startSession(person, workspaceId),

    logOut: (session: Session) => store.deleteSession(session.tokenHash),

    async changePassword(session: Session, current: string, next: string): Promise<void> {
      const hash = await store.passwordHash(session.person.id);
      if (!hash || !(await verifyPassword(current, hash))) throw new DashboardError('current_password', 'That is not your current password.');
      checkPassword(next);
      await setPassword(session.person, next);
      await store.deleteOtherSessions(session.person.id, session.tokenHash, clock().toISOString());
    },

    /** A one-time link token for the account of `email` (created when `create` and missing). */
    async passwordLink(email: string, create: boolean): Promise<{ token: string; account: Account; hours: number }> {
      const normal = normaliseEmail(email);
      const now = clock();
      const account = create ? await accounts.ensure(normal, now.toISOString()) : await accounts.findByEmail(normal);
      if (!account) throw new DashboardError('email', `No account with email ${normal}.`);
      const token = newSecret('', 32);
      await store.insertLink({
        tokenHash: hashSecret(token),
        accountId: account.id,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + LINK_HOURS * 3_600_000).toISOString(),
      });
      await setup.close(account.id);
      return { token, account, hours: LINK_HOURS };
    },

    async linkIsValid(token: string): Promise<boolean> {
      return token.length <= 200 && (await store.linkAccount(hashSecret(token), clock().toISOString())) !== null;
    },

    /** Sets the password through a link and logs in; the link works once. */
    async usePasswordLink(token: string, password: string) {
      checkPassword(password);
      const tokenHash = hashSecret(token);
      const now = clock().toISOString();
      const accountId = await store.linkAccount(tokenHash, now);
      if (!accountId || !(await store.useLink(tokenHash, now))) throw new DashboardError('token', 'This link has expired or was used. Ask for a new one.');
      const account = await accounts.findById(accountId);
      if (!account) throw new DashboardError('token', 'This link has expired or was used. Ask for a new one.');
      await setPassword(account, password);
      await store.deleteOtherSessions(account.id, null, now);
      return startSession(account);
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
