import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * CPU time (user + system, all threads) a process has used so far, in seconds, from
 * /proc/<pid>/stat; NaN once the process has gone. Linux only.
 */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
