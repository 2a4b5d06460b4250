// `intake keys create|list|revoke`: a new key is the only line on stdout, so that
// `npm run -s intake -- keys create …` can be captured.
import { parseArgs } from 'node:util';
import { InputError } from '../accounts/input-error.ts';
import { publicBaseUrl, type Config } from '../config.ts';
import { withAccounts } from './accounts.ts';
import { readPassword } from './password.ts';
import { option, UsageError } from './usage.ts';

export async function keysCommand(config: Config, sub: string | undefined, args: string[]): Promise<void> {
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
      // The dashboard's services only with --password: a plain key needs none of them.
      const { setPassword } = await import('./dashboard.ts');
      await setPassword(config, created.account.email, password);
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
