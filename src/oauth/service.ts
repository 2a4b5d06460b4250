// What Intake does with the authorization server: turns an access token presented at /mcp into the
// same Owner an API key gives (so scopes, rate limits and the audit log treat both alike), runs the
// consent step for the dashboard, and lists and revokes an owner's connected apps.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Owner } from '../accounts/service.ts';
import type { AccountStore } from '../accounts/store.ts';
import { fail } from '../http/errors.ts';
import type { Role } from '../db/tables.ts';
import { mcpResource, OAUTH_SCOPES, type Providers } from './provider.ts';
import type { ConnectedApp, OauthStore } from './store.ts';

/** Writing last_used_at on every call would make every read a write; a minute's precision is enough. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_TOKEN_LENGTH = 200;

export type OauthScope = (typeof OAUTH_SCOPES)[number];

export interface ConsentRequest {
  uid: string;
  clientName: string;
  clientId: string;
  redirectUri: string;
  redirectHost: string;
  /** `full` when the client asked for it (alone or with read), else `read`. */
  scope: OauthScope;
  /** The client asked for both: the owner may give read only. */
  narrowable: boolean;
}

/** Who acts through a grant, with which current role (src/workspaces); null: no longer a member. */
export interface GrantMembers {
  grantMember(grantId: string, workspaceId: string): Promise<{ personId: string; role: Role; email: string } | null>;
  consented(grantId: string, workspaceId: string, personId: string): Promise<void>;
}

export function oauthService(deps: { store: OauthStore; providers: Providers; accounts: AccountStore; members: GrantMembers; clock?: () => Date }) {
  const { store, providers, accounts } = deps;
  const clock = deps.clock ?? (() => new Date());

  return {
    providers,

    /** The owner behind an access token issued for `origin`'s /mcp, or null (unknown, expired, revoked, or for another resource). */
    async authenticate(token: string, origin: string): Promise<Owner | null> {
      if (token.length > MAX_TOKEN_LENGTH) return null;
      const provider = await providers.for(origin);
      const accessToken = await provider.AccessToken.find(token);
      if (!accessToken || accessToken.isExpired) return null;
      if (accessToken.aud !== mcpResource(origin) || !accessToken.grantId || !accessToken.accountId) return null;
      const grant = await provider.Grant.find(accessToken.grantId);
      if (!grant || grant.accountId !== accessToken.accountId) return null;
      const account = await accounts.findById(accessToken.accountId);
      if (!account) return null;
      const member = await deps.members.grantMember(accessToken.grantId, account.id);
      if (!member) return null;
      const client = accessToken.clientId ? await provider.Client.find(accessToken.clientId) : undefined;
      const scopes = new Set((accessToken.scope ?? '').split(' '));
      if (!scopes.has('full') && !scopes.has('read')) return null;
      const now = clock();
      const lastUsed = await store.grantLastUsed(accessToken.grantId);
      if (!lastUsed || now.getTime() - Date.parse(lastUsed) > TOUCH_INTERVAL_MS) await store.touchGrant(accessToken.grantId, now.toISOString());
      return {
        account,
        keyId: `oauth:${accessToken.grantId}`,
        keyName: `OAuth app: ${client?.clientName ?? accessToken.clientId}`.slice(0, 100),
        scope: scopes.has('full') ? 'full' : 'read',
        personId: member.personId,
        role: member.role,
        memberEmail: member.email,
      };
    },

    /** What the consent page shows: which app, where it sends the owner back, what it asks for. */
    async consentRequest(origin: string, req: IncomingMessage, res: ServerResponse): Promise<ConsentRequest> {
      const provider = await providers.for(origin);
      const details = await provider.interactionDetails(req, res);
      const clientId = String(details.params.client_id);
      const client = await provider.Client.find(clientId);
      if (!client) throw fail.notFound('The app that asked is not registered here.');
      const redirectUri = String(details.params.redirect_uri);
      const requested = new Set(String(details.params.scope ?? '').split(' '));
      return {
        uid: details.uid,
        clientName: client.clientName ?? clientId,
        clientId,
        redirectUri,
        redirectHost: new URL(redirectUri).host,
        scope: requested.has('full') || !requested.has('read') ? 'full' : 'read',
        narrowable: requested.has('full') && requested.has('read'),
      };
    },

    /**
     * The owner's answer. Allowing grants `scope` (at most what was asked) on /mcp to the app for
     * the signed-in account; denying answers the app access_denied. Returns where to send the browser.
     */
    async answerConsent(origin: string, req: IncomingMessage, res: ServerResponse, accountId: string, answer: { allow: boolean; scope: OauthScope }, personId = accountId): Promise<string> {
      const provider = await providers.for(origin);
      const details = await provider.interactionDetails(req, res);
      // Expired codes, tokens and interactions are useless to the provider: cleared at each consent
      // (rare, and an index range on expires_at), so the table never grows without bound.
      await store.removeExpired();
      if (!answer.allow) {
        return provider.interactionResult(req, res, { error: 'access_denied', error_description: 'The owner did not allow access.' }, { mergeWithLastSubmission: false });
      }
      const asked = await this.consentRequest(origin, req, res);
      const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
      const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId: asked.clientId });
      const resource = mcpResource(origin);
      // The scopes are the server's and the resource's: both are granted (or refused) alike.
      const give = (scope: string) => {
        grant.addOIDCScope(scope);
        grant.addResourceScope(resource, scope);
      };
      if (asked.scope === 'read') {
        give('read');
      } else if (answer.scope === 'read' && asked.narrowable) {
        // Less than was asked: the refusal of `full` is recorded, so the provider does not ask again.
        give('read');
        grant.rejectOIDCScope('full');
        grant.rejectResourceScope(resource, 'full');
      } else {
        give(OAUTH_SCOPES.join(' '));
      }
      const grantId = await grant.save();
      await store.setGrantRedirect(grantId, asked.redirectUri);
      await deps.members.consented(grantId, accountId, personId);
      return provider.interactionResult(req, res, { login: { accountId, remember: false }, consent: { grantId } }, { mergeWithLastSubmission: false });
    },

    /**
     * The dashboard's log-in is the only one: the provider's own browser session (its `_session`
     * cookie, kept so an app allowed before gets a code without a page) must belong to the account
     * logged in to the dashboard in the same browser. Called before the provider sees an
     * authorization request (and its resume): a provider session of another account, or any
     * provider session when nobody is logged in to the dashboard, is destroyed, so the provider
     * starts a new one, finds no login, and sends the browser to the consent page, which asks for
     * the dashboard's log-in and then the owner's answer. Checking here rather than relying on
     * log-out alone also covers a dashboard session that expired or was ended elsewhere (a
     * password change in another browser). It cannot be done in the provider's prompt policy: a
     * login result for another account than its session's makes the provider ask for its own
     * log-out page, which is not enabled here.
     */
    async bindBrowserSession(origin: string, req: IncomingMessage, res: ServerResponse, dashboardAccountId: string | null): Promise<void> {
      const provider = await providers.for(origin);
      // The library's own reading of its signed cookie: a forged or unsigned one is no session.
      const session = await provider.Session.get({ req, res } as never);
      if (session.accountId && session.accountId !== dashboardAccountId) await session.destroy();
    },

    /** Dashboard log-out: the provider's session in this browser ends too (the caller clears its cookies). */
    async endBrowserSession(origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
      const provider = await providers.for(origin);
      const session = await provider.Session.get({ req, res } as never);
      if (session.accountId) await session.destroy();
    },

    /** A password change: the account's provider sessions in every browser end. */
    endSessionsOf(accountId: string): Promise<void> {
      return store.removeSessionsOf(accountId);
    },

    /** Expired records and clients never allowed, removed by the retention run; how many went. */
    removeExpired(): Promise<number> {
      return store.removeExpired();
    },

    connectedApps(accountId: string): Promise<ConnectedApp[]> {
      return store.connectedApps(accountId);
    },

    /** Revokes one of the owner's apps at once: its next call to /mcp is refused with 401. */
    async revoke(accountId: string, grantId: string): Promise<void> {
      if ((await store.grantOwner(grantId)) !== accountId) throw fail.notFound('No such connected app.');
      await store.revokeGrant(grantId);
    },
  };
}

export type OauthService = ReturnType<typeof oauthService>;
