// The CLI's usage text and the error that prints it (exit 2): a bad command line, told apart from a
// refused input (InputError, exit 1).
export const USAGE = `Usage: intake <command>
  serve                                   run the API server with its workers (migrates first)
  worker                                  run the workers alone (processing and deliveries)
  migrate                                 apply pending database migrations
  setup-link                              print a new one-time link to the set-up page (new server only)
  keys create --email E --name N [--scope full|read] [--password] [--new-account]
                                          create an API key for the account of that email; the
                                          account is created if the server has none, or with
                                          --new-account as a second, separate account;
                                          a read key can read everything and change nothing;
                                          --password reads the account's dashboard password from
                                          standard input (asked for on a terminal)
  keys list [--email E]                   list API keys
  keys revoke <key-id>                    revoke an API key
  users set-plan --email E --plan free|pro
  users set-language --email E --language LL   translate submissions into LL (ISO 639-1)
  users show --email E                    plan, language and AI credits
  users create --email E                  create a dashboard account; prints a one-time set-password link
  users password-link --email E           print a one-time set-password link for an existing account
  subjects search|export|erase --owner E --email P
                                          a person's access or erasure request: their submissions
                                          across the owner's forms (search), all of it as JSON
                                          (export), or deleted for good (erase)
  backup --out FILE                       SQLite: a consistent copy of the database while it serves
  restore --from FILE                     SQLite: put a backup back (stop every server and worker first)
  purge [--dry-run]                       delete what is past its form's retention now (the workers
                                          do it every hour); --dry-run shows what it would delete`;

export class UsageError extends Error {}

/** For the commands kept beside their feature (backup, subjects), which do not import the CLI's modules. */
export const usageError = (message: string): Error => new UsageError(message);

/** A required string option of parseArgs' values. */
export function option(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}
