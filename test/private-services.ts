// A PostgreSQL cluster and a Redis server of a test's own, on free loopback ports, for chaos tests
// that stop, kill and restart them. Both use the machine's binaries (Debian's postgresql and
// redis-server packages); `missing` says what is absent so a test can skip saying so. The benchmark
// uses the Redis server too (bench/redis-outage.ts), so this module imports nothing of the tests'.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** The newest installed PostgreSQL's bin directory (Debian keeps pg_ctl off PATH), or one on PATH. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  const initdb = onPath('initdb');
  return initdb && onPath('pg_ctl') ? path.dirname(fs.realpathSync(initdb)) : null;
}

const PG_BIN = postgresBin();
const REDIS_SERVER = onPath('redis-server');
/** PostgreSQL refuses to run as root: as root the cluster runs as the postgres user. */
const AS_ROOT = process.getuid?.() === 0;

export const missing = {
  postgres: PG_BIN ? null : 'no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH',
  redis: REDIS_SERVER ? null : 'no redis-server on PATH',
};

async function asOwner(file: string, args: string[]): Promise<void> {
  if (AS_ROOT) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
  else await run(file, args);
}

export interface PrivatePostgres {
  url: string;
  /** Stops the server in immediate mode: every connection is cut at once, as in a crash (WAL replay on start). */
  crash(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error(missing.postgres!);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-pg-'));
  const data = path.join(dir, 'data');
  if (AS_ROOT) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freePort();
  await asOwner(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=32MB -c max_connections=60`;
  const pgCtl = path.join(PG_BIN, 'pg_ctl');
  const start = () => asOwner(pgCtl, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => asOwner(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    async remove() {
      await asOwner(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  kill(): Promise<void>;
  /** SIGSTOP: the server keeps its connections and port but answers nothing, as a hung host. */
  freeze(): void;
  thaw(): void;
  start(): Promise<void>;
  remove(): Promise<void>;
}

/** Whether a Redis server answers PING on `port` (inline command, RESP reply). */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => socket.destroy());
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  if (!REDIS_SERVER) throw new Error(missing.redis!);
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const server = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = server;
    for (let i = 0; i < 200; i++) {
      if (await pong(port)) return;
      if (server.exitCode !== null) throw new Error(`redis-server exited with ${server.exitCode}`);
      await sleep(25);
    }
    throw new Error('redis-server did not start');
  };
  const kill = async () => {
    const server = child;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    start,
    remove: kill,
  };
}
