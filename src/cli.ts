// `npm run intake -- <command>`. Results go to stdout (a new key is the only line there, so
// `npm run -s intake -- keys create …` can be captured); everything else goes to stderr.
import { parseArgs } from 'node:util';
import { accountService, InputError } from './accounts/service.ts';
import { accountStore } from './accounts/store.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { StorageError } from './files/storage.ts';
import { openDatabase } from './db/database.ts';
import { SecretKeyError } from './secrets/box.ts';
import { migrateToLatest } from './db/migrate.ts';
import { DashboardError, dashboardService } from './dashboard/service.ts';
import { dashboardStore } from './dashboard/store.ts';
import { publicBaseUrl } from './services.ts';
import { setupUrl } from './setup/link.ts';
import { setupService } from './setup/service.ts';
import { setupStore } from './setup/store.ts';
import { readPassword } from './cli-password.ts';
import { subjectsCommand } from './data-subjects/cli.ts';
import { backupCommand } from './backup/cli.ts';
import { purgeCommand } from './retention/cli.ts';

const USAGE = `Usage: intake <command>
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

class UsageError extends Error {}

function option(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function withAccounts<T>(config: Config, run: (accounts: ReturnType<typeof accountService>) => Promise<T>): Promise<T> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    return await run(accountService(accountStore(database.db), config));
  } finally {
    await database.close();
  }
}

type DashboardCli = { dashboard: ReturnType<typeof dashboardService>; setup: ReturnType<typeof setupService> };

async function withDashboard<T>(config: Config, run: (services: DashboardCli) => Promise<T>): Promise<T> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const setup = setupService({ store: setupStore(database.db) });
    const dashboard = dashboardService({ store: dashboardStore(database.db), accounts: accountStore(database.db), setup });
    return await run({ dashboard, setup }).catch((error: unknown) => {
      throw error instanceof DashboardError ? new InputError(error.message) : error;
    });
  } finally {
    await database.close();
  }
}

async function keysCommand(config: Config, sub: string | undefined, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string' },
      password: { type: 'boolean' },
      'new-account': { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (sub === 'create') {
    // Asked before anything is written, so a refused password leaves no key behind.
    const password = values.password ? await readPassword() : null;
    const secondAccount = values['new-account'] ? 'allow' : 'refuse';
    const created = await withAccounts(config, (a) => a.createKey({ email: option(values, 'email'), name: option(values, 'name'), scope: values.scope, secondAccount }));
    const whose = created.accountCreated ? `the new account ${created.account.email}` : `the account ${created.account.email}`;
    process.stderr.write(`Created ${created.scope}-scope API key ${created.id} for ${whose}. It is shown only now:\n`);
    process.stdout.write(`${created.key}\n`);
    if (password !== null) {
      await withDashboard(config, ({ dashboard }) => dashboard.setPasswordOf(created.account.email, password));
      process.stderr.write(`${created.account.email} can now log in to the dashboard at ${publicBaseUrl(config)}/login.\n`);
    }
  } else if (sub === 'list') {
    const keys = await withAccounts(config, (a) => a.listKeys(values.email));
    for (const k of keys) {
      const state = k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`;
      process.stdout.write(`${k.id}  ${k.prefix}…  ${k.email}  "${k.name}"  ${k.scope}  created ${k.createdAt}  ${state}\n`);
    }
    if (keys.length === 0) process.stderr.write('No API keys.\n');
  } else if (sub === 'revoke') {
    const id = positionals[0];
    if (!id) throw new UsageError('keys revoke needs the key id (see keys list)');
    if (!(await withAccounts(config, (a) => a.revokeKey(id)))) throw new InputError(`no active key with id ${id}`);
    process.stderr.write(`Revoked ${id}.\n`);
  } else {
    throw new UsageError(`unknown keys command "${sub ?? ''}"`);
  }
}

/** `users create` and `users password-link`: the link is the only line on stdout. */
async function passwordLink(config: Config, email: string, create: boolean): Promise<void> {
  const link = await withDashboard(config, ({ dashboard }) => dashboard.passwordLink(email, create));
  process.stderr.write(`${create ? 'Account' : 'Set-password link for'} ${link.account.email}. This link works once, within ${link.hours} hours:\n`);
  process.stdout.write(`${publicBaseUrl(config)}/set-password?token=${link.token}\n`);
}

/**
 * `setup-link`: the link is the only line on stdout. Without INTAKE_PUBLIC_URL it leads where the
 * server last started listens, which this shell's PORT may not say.
 */
async function setupLink(config: Config): Promise<void> {
  const { issued, base } = await withDashboard(config, async ({ setup }) => ({
    issued: await setup.newToken(),
    base: config.publicUrl ?? (await setup.servedUrl()) ?? publicBaseUrl(config),
  }));
  if (!issued) throw new InputError(`This server is already set up: log in at ${base}/login, or print a set-password link with users password-link.`);
  process.stderr.write(`Open this link to create the owner account. It works once, within ${issued.hours} hours:\n`);
  process.stdout.write(`${setupUrl(config, issued.token, base)}\n`);
}

async function usersCommand(config: Config, sub: string | undefined, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, plan: { type: 'string' }, language: { type: 'string' } } });
  if (sub === 'create' || sub === 'password-link') return passwordLink(config, option(values, 'email'), sub === 'create');
  if (sub === 'set-language') {
    const language = option(values, 'language');
    if (!(await withAccounts(config, (a) => a.setLanguage(option(values, 'email'), language)))) {
      throw new InputError(`no account with email ${values.email}`);
    }
    process.stderr.write(`Submissions of ${values.email} are now translated into "${language}".\n`);
    return;
  }
  if (sub === 'show') {
    const email = option(values, 'email');
    const shown = await withAccounts(config, async (a) => {
      const account = await a.find(email);
      return account ? { account, credits: await a.credits(account) } : null;
    });
    if (!shown) throw new InputError(`no account with email ${email}`);
    const { account, credits } = shown;
    process.stdout.write(
      `${account.email}  plan ${account.plan}  language ${account.language}  submissions ${account.submissionsTotal}\n` +
        `credits ${credits.period}: ${credits.used} used of ${credits.allowance}, ${credits.remaining} remaining` +
        `${credits.plan === 'pro' ? `, metered ${credits.meteredUsage}` : ''}\n`,
    );
    return;
  }
  if (sub !== 'set-plan') throw new UsageError(`unknown users command "${sub ?? ''}"`);
  const plan = option(values, 'plan');
  if (plan !== 'free' && plan !== 'pro') throw new UsageError('--plan must be free or pro');
  if (!(await withAccounts(config, (a) => a.setPlan(option(values, 'email'), plan)))) {
    throw new InputError(`no account with email ${values.email}`);
  }
  process.stderr.write(`${values.email} is now on the ${plan} plan.\n`);
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    // Loaded only here: the pipeline's language and spam models take a moment to load.
    case 'serve':
      return (await import('./server.ts')).serve(config);
    case 'worker':
      return (await import('./server.ts')).work(config);
    case 'migrate': {
      const database = openDatabase(config);
      try {
        const applied = await migrateToLatest(database);
        process.stderr.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'Database is up to date.\n');
      } finally {
        await database.close();
      }
      return;
    }
    case 'setup-link':
      return setupLink(config);
    case 'keys':
      return keysCommand(config, sub, rest);
    case 'users':
      return usersCommand(config, sub, rest);
    case 'backup':
    case 'restore':
      return backupCommand(config, command, [sub, ...rest].filter((a): a is string => a !== undefined), (message) => new UsageError(message));
    case 'purge':
      return purgeCommand(config, [sub, ...rest].filter((a): a is string => a !== undefined));
    case 'subjects':
      return subjectsCommand(config, sub, rest, (message) => new UsageError(message));
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

function isArgumentError(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (isArgumentError(error)) error = new UsageError((error as Error).message);
  if (error instanceof ConfigError) process.stderr.write(`Configuration error: ${error.message}\n`);
  else if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  else if (error instanceof InputError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof SecretKeyError) process.stderr.write(`Secret key error: ${error.message}\n`);
  else if ((error as Error)?.name === 'PortInUseError') process.stderr.write(`${(error as Error).message}\n`);
  else if (error instanceof StorageError) process.stderr.write(`Storage error: ${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
