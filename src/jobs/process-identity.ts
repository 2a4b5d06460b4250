// Who holds a SQLite job lease: a worker id that names the machine's process space and the process.
// A worker that starts after a crash can then tell, on the same machine, that the holder is gone
// (no process with that pid) and take its jobs at once instead of waiting for the lease to run out.
// Where the process space cannot be named for sure, no holder is ever judged gone: leases still expire.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/**
 * The kernel's boot id and this process's pid namespace (Linux): two containers, or one machine
 * before and after a reboot, never share it, so a pid read under it means one process. Null elsewhere.
 */
function processSpace(): string | null {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const namespace = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1];
    return boot && namespace ? `${boot.replace(/-/g, '')}.${namespace}` : null;
  } catch {
    return null;
  }
}

const SPACE = processSpace();
/** The worker ids this process holds now: a dead holder may have had this process's pid. */
const ownIds = new Set<string>();

export function newWorkerId(): string {
  const id = `${SPACE ?? 'unknown'}/${process.pid}/${randomBytes(6).toString('hex')}`;
  ownIds.add(id);
  return id;
}

export function retireWorkerId(id: string): void {
  ownIds.delete(id);
}

/** True only when the holder is known to be gone: it ran in this process space and its process no longer exists. */
export function holderIsGone(workerId: string): boolean {
  const [space, pidText] = workerId.split('/');
  if (!SPACE || space !== SPACE || !/^\d+$/.test(pidText ?? '')) return false;
  const pid = Number(pidText);
  if (pid === process.pid) return !ownIds.has(workerId);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
