// Every command of `intake`, each importing its own code when it runs: a CLI process loads what its
// command needs and no more (`keys list` neither the server nor the dashboard, `backup` not even
// Kysely), where importing every command up front cost each process about a second of CPU.
import type { Config } from '../config.ts';
import { usageError } from './usage.ts';

/** `args`: the words after the command's name. */
export type Command = (config: Config, args: string[]) => Promise<void>;

export const COMMANDS: Readonly<Record<string, Command>> = {
  // The server and workers load the pipeline's language and spam models, which take a moment.
  serve: async (config) => (await import('../server.ts')).serve(config),
  worker: async (config) => (await import('../server.ts')).work(config),
  migrate: async (config) => (await import('./migrate.ts')).migrateCommand(config),
  'setup-link': async (config) => (await import('./dashboard.ts')).setupLink(config),
  keys: async (config, [sub, ...rest]) => (await import('./keys.ts')).keysCommand(config, sub, rest),
  users: async (config, [sub, ...rest]) => (await import('./users.ts')).usersCommand(config, sub, rest),
  subjects: async (config, [sub, ...rest]) => (await import('../data-subjects/cli.ts')).subjectsCommand(config, sub, rest, usageError),
  backup: async (config, args) => (await import('../backup/cli.ts')).backupCommand(config, 'backup', args, usageError),
  restore: async (config, args) => (await import('../backup/cli.ts')).backupCommand(config, 'restore', args, usageError),
  purge: async (config, args) => (await import('../retention/cli.ts')).purgeCommand(config, args),
};

/** The command of that name; none for a name that is not one (`toString`, say, is no command). */
export function commandNamed(name: string | undefined): Command | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
