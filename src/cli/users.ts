// `intake users set-plan|set-language|show|create|password-link`: an account's plan, language and
// credits, and its dashboard password links.
import { parseArgs } from 'node:util';
import { InputError } from '../accounts/input-error.ts';
import type { Config } from '../config.ts';
import { withAccounts } from './accounts.ts';
import { option, UsageError } from './usage.ts';

export async function usersCommand(config: Config, sub: string | undefined, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, plan: { type: 'string' }, language: { type: 'string' } } });
  if (sub === 'create' || sub === 'password-link') {
    const email = option(values, 'email');
    // The dashboard's services only for its links: the other users commands need none of them.
    return (await import('./dashboard.ts')).passwordLink(config, email, sub === 'create');
  }
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
