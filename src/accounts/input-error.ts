// Input the accounts refuse (a bad email or scope, an unknown account): the CLI prints its message
// alone and exits 1. In a module of its own so that the CLI's error handler knows it without loading
// the accounts service, and Kysely with it, for commands that never touch an account (backup, serve).
export class InputError extends Error {}
