// `npm run intake -- <command>`. Results go to stdout (a new key is the only line there, so
// `npm run -s intake -- keys create …` can be captured); everything else goes to stderr.
// Each command imports its own code when it runs (cli/commands.ts); this file imports only what
// reads the configuration and tells the errors apart.
import { InputError } from './accounts/input-error.ts';
import { commandNamed } from './cli/commands.ts';
import { USAGE, UsageError } from './cli/usage.ts';
import { ConfigError, loadConfig } from './config.ts';
import { StorageError } from './files/storage.ts';
import { SecretKeyError } from './secrets/box.ts';

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const config = loadConfig();
  const run = commandNamed(command);
  if (!run) throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  return run(config, args);
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
