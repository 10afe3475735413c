/** CPU time of processes from /proc (Linux), for the benches that tell the server's, PostgreSQL's and their own CPU apart. */
import fs from 'node:fs';
import path from 'node:path';

export const CLOCK_TICKS = 100;

/** Fields of /proc/PID/stat after the command name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime (Linux). */
export function procStat(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function cpuSecondsOf(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const fields = procStat(pid);
    return sum + (fields ? (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS : 0);
  }, 0);
}

/** The postmaster, its live children (backends, WAL writer…) and the children it has reaped (fields [13], [14]). */
export function postgresCpuSeconds(postmaster: number): number {
  const pids = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const children = pids.filter((pid) => Number(procStat(pid)?.[1]) === postmaster);
  const reaped = procStat(postmaster)!;
  return cpuSecondsOf([postmaster, ...children]) + (Number(reaped[13]) + Number(reaped[14])) / CLOCK_TICKS;
}

/** The postmaster's PID, from the first line of postmaster.pid in its data folder. */
export function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}
