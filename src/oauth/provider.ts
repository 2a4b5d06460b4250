// The OAuth 2.1 authorization server MCP clients sign in with: oidc-provider (OpenID Certified,
// MIT), configured for what the MCP authorization specification asks and nothing more:
// - dynamic client registration (RFC 7591), public clients, redirect URIs matched exactly (a
//   native client's loopback redirect may change its port, as RFC 8252 allows);
// - the authorization code grant only, PKCE with S256 required of every client;
// - resource indicators (RFC 8707): the one resource is this server's /mcp, and its access tokens
//   name it as their audience, so a token for anything else is refused at /mcp and here;
// - access tokens of 10 minutes, opaque (looked up in the database, so revoking is immediate);
//   refresh tokens of 30 days, replaced by a new one at every use;
// - scopes `read` and `full`, the scopes of API keys.
// Its records live in oauth_records (store.ts; credentials by hash); its signing and cookie keys are
// made on first start and kept there. The consent step is a dashboard page (dashboard/pages/consent.ts),
// and the provider's own browser session never outlives the dashboard's log-in (service.ts,
// bindBrowserSession). Registration metadata is bounded (client-metadata.ts).
import { randomBytes } from 'node:crypto';
import type { default as Provider, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import escapeHtml from 'escape-html';
import { clientMetadataLimits } from './client-metadata.ts';
import type { OauthStore } from './store.ts';

export const OAUTH_SCOPES = ['full', 'read'] as const;
export const ACCESS_TOKEN_SECONDS = 10 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 86_400;
export const CONSENT_PATH = '/oauth/consent';
/** The provider's browser session cookie (its signature cookie is `<name>.sig`); named here so log-out can clear it. */
export const PROVIDER_SESSION_COOKIE = '_session';
export const PROVIDER_SESSION_COOKIES = [PROVIDER_SESSION_COOKIE, `${PROVIDER_SESSION_COOKIE}.sig`];

/** The resource every token is for: this server's MCP endpoint at `origin`. */
export const mcpResource = (origin: string) => `${origin}/mcp`;

export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
};

interface ServerKeys {
  jwks: Array<Record<string, unknown>>;
  cookieKeys: string[];
}

async function newServerKeys(): Promise<ServerKeys> {
  const { generateKeyPair, exportJWK } = await import('jose');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };
  return { jwks: [jwk], cookieKeys: [randomBytes(32).toString('base64url')] };
}

function errorPage(ctx: KoaContextWithOIDC, out: Record<string, string>) {
  ctx.type = 'html';
  const rows = Object.entries(out).map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`).join('');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed · Intake</title></head><body><h1>Sign-in failed</h1>${rows}<p>Go back to the app and try again.</p></body></html>`;
}

export interface ProviderOptions {
  store: OauthStore;
  /** Trust X-Forwarded-Proto and -Host, as the app does (INTAKE_TRUST_PROXY). */
  proxy: boolean;
}

/**
 * One provider per issuer origin. The issuer is INTAKE_PUBLIC_URL's origin when it is set, which is
 * then the only one; without it, the origin the client reached (as for the API's links).
 */
export function providers({ store, proxy }: ProviderOptions) {
  const cache = new Map<string, Promise<Provider>>();
  let keys: Promise<ServerKeys> | undefined;

  async function build(origin: string): Promise<Provider> {
    // Loaded by the first OAuth request: a process that never sees one never holds Koa and the provider.
    const { default: Provider, errors } = await import('oidc-provider');
    const { jwks, cookieKeys } = await (keys ??= store.serverKeys(newServerKeys));
    const resource = mcpResource(origin);
    const configuration: Configuration = {
      adapter: class {
        constructor(name: string) {
          return store.adapterFor(name);
        }
      } as unknown as Configuration['adapter'],
      jwks: { keys: jwks as never },
      cookies: { keys: cookieKeys, names: { session: PROVIDER_SESSION_COOKIE }, long: { signed: true }, short: { signed: true } },
      routes: ROUTES,
      // Known to the server too (clients register with them), and scopes of the resource (getResourceServerInfo).
      scopes: [...OAUTH_SCOPES],
      claims: { openid: ['sub'] },
      responseTypes: ['code'],
      // Size limits on what a stranger may register (client-metadata.ts).
      extraClientMetadata: clientMetadataLimits((description) => new errors.InvalidClientMetadata(description)),
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      // Every client, public or confidential, proves possession of its code with S256.
      pkce: { required: () => true },
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
      interactions: { url: async (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        revocation: { enabled: true },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => resource,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
            return { scope: OAUTH_SCOPES.join(' '), audience: resource, accessTokenTTL: ACCESS_TOKEN_SECONDS, accessTokenFormat: 'opaque' };
          },
        },
      },
      ttl: {
        AccessToken: ACCESS_TOKEN_SECONDS,
        AuthorizationCode: 60,
        RefreshToken: REFRESH_TOKEN_SECONDS,
        // A grant outlives its refresh tokens' rotation; revoking it (Integrations page) ends them all.
        Grant: 365 * 86_400,
        Interaction: 30 * 60,
        Session: 86_400,
      },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      expiresWithSession: async () => false,
      // Browser-based MCP clients (an inspector) call the token and registration endpoints from their page.
      clientBasedCORS: () => true,
      renderError: async (ctx, out) => errorPage(ctx, out as unknown as Record<string, string>),
    };
    const provider = new Provider(origin, configuration);
    provider.proxy = proxy;
    return provider;
  }

  return {
    /** The provider for an issuer origin; built once. A server without a public URL answers at most a few origins. */
    for(origin: string): Promise<Provider> {
      let provider = cache.get(origin);
      if (!provider) {
        if (cache.size >= 16) cache.delete(cache.keys().next().value as string);
        provider = build(origin);
        provider.catch(() => cache.delete(origin));
        cache.set(origin, provider);
      }
      return provider;
    },
  };
}

export type Providers = ReturnType<typeof providers>;
