// OAuth records whose id is a bearer credential (access and refresh tokens, authorization codes,
// the provider's session and interaction cookies) are keyed from now on by the SHA-256 of the id
// (oauth/store.ts), so the database file or a backup holds nothing a caller could present. Rows
// written before kept the credential itself: they are deleted (apps connected before sign in
// again; their grants, and so the Integrations list, stay). redirect_uri is the redirect URI a
// grant was consented through, shown on the Integrations page.
import type { Kysely } from 'kysely';

/** The models 0021's rows held in clear that are credentials; Client, Grant and the server's keys stay. */
const CREDENTIAL_MODELS = [
  'AccessToken', 'AuthorizationCode', 'RefreshToken', 'Session', 'Interaction', 'DeviceCode', 'ClientCredentials',
  'InitialAccessToken', 'RegistrationAccessToken', 'PushedAuthorizationRequest', 'BackchannelAuthenticationRequest', 'ReplayDetection',
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('oauth_records').where('model', 'in', CREDENTIAL_MODELS).execute();
  await db.schema.alterTable('oauth_records').addColumn('redirect_uri', 'text').execute();
}
