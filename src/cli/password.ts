// A password for the CLI, from standard input: typed without echo on a terminal, or the first line
// piped in (`printf '%s\n' "$PASSWORD" | intake keys create … --password`), never an argument, which
// any user of the machine could read in the process list.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export async function readPassword(): Promise<string> {
  const onTerminal = process.stdin.isTTY === true;
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output: onTerminal ? output : undefined, terminal: onTerminal });
  try {
    if (onTerminal) {
      process.stderr.write('Dashboard password (at least 10 characters): ');
      muted = true;
    }
    for await (const line of lines) return line;
    return '';
  } finally {
    if (onTerminal) process.stderr.write('\n');
    lines.close();
  }
}
