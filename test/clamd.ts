// A clamd of the test's own (Debian's clamav-daemon): TCP on a free loopback port, and a database
// directory holding only a signature the test writes for the EICAR test string (an .hdb line,
// md5:size:name). Nothing is downloaded; freshclam never runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CLAMD = '/usr/sbin/clamd';
export const clamdMissing = fs.existsSync(CLAMD) ? false : `${CLAMD} is absent (apt-get install clamav-daemon)`;
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*');
export const SIGNATURE = 'Intake-Test-EICAR';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Clamd {
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function startClamd(): Promise<Clamd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-clamd-'));
  fs.mkdirSync(path.join(dir, 'db'));
  fs.writeFileSync(path.join(dir, 'db', 'intake-test.hdb'), `${createHash('md5').update(EICAR).digest('hex')}:${EICAR.length}:${SIGNATURE}\n`);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'clamd.conf'), [
    'Foreground yes', `TCPSocket ${port}`, 'TCPAddr 127.0.0.1', `DatabaseDirectory ${path.join(dir, 'db')}`,
    `PidFile ${path.join(dir, 'clamd.pid')}`, `LogFile ${path.join(dir, 'clamd.log')}`, 'ScanArchive yes',
  ].join('\n'));
  let child: ChildProcess | null = null;
  const clamd: Clamd = {
    port,
    async start() {
      child = spawn(CLAMD, ['-c', path.join(dir, 'clamd.conf')], { stdio: 'ignore' });
      // Ready once it accepts connections (it loads the one signature in a second or two).
      for (;;) {
        if (child.exitCode !== null) throw new Error(`clamd exited: ${fs.readFileSync(path.join(dir, 'clamd.log'), 'utf8').slice(-500)}`);
        const up = await new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
          socket.on('error', () => resolve(false));
        });
        if (up) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async cleanup() {
      await clamd.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await clamd.start();
  return clamd;
}
