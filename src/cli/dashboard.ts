// The CLI's dashboard and set-up commands (`setup-link`, `users create`, `users password-link`) and
// `keys create --password`'s password: each link or password goes through the dashboard's services.
import { InputError } from '../accounts/input-error.ts';
import { accountStore } from '../accounts/store.ts';
import { publicBaseUrl, type Config } from '../config.ts';
import { DashboardError, dashboardService } from '../dashboard/service.ts';
import { dashboardStore } from '../dashboard/store.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { setupUrl } from '../setup/link.ts';
import { setupService } from '../setup/service.ts';
import { setupStore } from '../setup/store.ts';

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

/** `keys create --password`: the account's dashboard password, checked as the dashboard checks it. */
export async function setPassword(config: Config, email: string, password: string): Promise<void> {
  await withDashboard(config, ({ dashboard }) => dashboard.setPasswordOf(email, password));
}

/** `users create` and `users password-link`: the link is the only line on stdout. */
export async function passwordLink(config: Config, email: string, create: boolean): Promise<void> {
  const link = await withDashboard(config, ({ dashboard }) => dashboard.passwordLink(email, create));
  process.stderr.write(`${create ? 'Account' : 'Set-password link for'} ${link.account.email}. This link works once, within ${link.hours} hours:\n`);
  process.stdout.write(`${publicBaseUrl(config)}/set-password?token=${link.token}\n`);
}

/**
 * `setup-link`: the link is the only line on stdout. Without INTAKE_PUBLIC_URL it leads where the
 * server last started listens, which this shell's PORT may not say.
 */
export async function setupLink(config: Config): Promise<void> {
  const { issued, base } = await withDashboard(config, async ({ setup }) => ({
    issued: await setup.newToken(),
    base: config.publicUrl ?? (await setup.servedUrl()) ?? publicBaseUrl(config),
  }));
  if (!issued) throw new InputError(`This server is already set up: log in at ${base}/login, or print a set-password link with users password-link.`);
  process.stderr.write(`Open this link to create the owner account. It works once, within ${issued.hours} hours:\n`);
  process.stdout.write(`${setupUrl(config, issued.token, base)}\n`);
}
