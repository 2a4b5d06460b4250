// A real SMTP server on 127.0.0.1 for the tests, keeping every message it accepts, parsed.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface Received { mail: ParsedMail; recipients: string[] }

/** A real SMTP server on 127.0.0.1 that refuses RCPT TO with the code `refuse` gives for an address. */
export async function startSmtpServer(refuse: (address: string) => number | null = () => null) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const code = refuse(address.address);
      if (code === null) return callback();
      callback(Object.assign(new Error(code >= 500 ? 'No such mailbox' : 'Mailbox busy, try later'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ mail, recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
