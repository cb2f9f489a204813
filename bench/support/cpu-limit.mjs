// Gives each process its own CPU budget (a cgroup's CFS quota), so that a benchmark can ask
// "does a second instance add what its own CPU adds?" on a machine where the load generator,
// nginx, PostgreSQL and the instances would otherwise share every core. Linux only, as root;
// cgroup v2 (cpu.max) or v1 (cpu.cfs_quota_us), whichever the machine mounts.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PERIOD_US = 100_000;

function cpuHierarchy() {
  const v2 = '/sys/fs/cgroup';
  if (existsSync(path.join(v2, 'cgroup.controllers'))) {
    const controllers = readFileSync(path.join(v2, 'cgroup.controllers'), 'utf8');
    if (/\bcpu\b/.test(controllers)) return { root: v2, version: 2 };
  }
  const v1 = '/sys/fs/cgroup/cpu';
  if (existsSync(path.join(v1, 'cpu.cfs_quota_us'))) return { root: v1, version: 1 };
  throw new Error('no cgroup cpu controller is mounted here: --cpus-per-instance needs one (and root)');
}

/**
 * Puts each pid (and every thread it has or starts) in a cgroup of its own capped at `cpus`
 * cores. Returns a function that removes the cgroups once the processes have exited.
 */
export function limitCpu(pids, cpus) {
  const { root, version } = cpuHierarchy();
  if (version === 2) {
    writeFileSync(path.join(root, 'cgroup.subtree_control'), '+cpu');
  }
  const quota = Math.round(cpus * PERIOD_US);
  const groups = pids.map((pid, i) => {
    const dir = path.join(root, `gem-bench-${process.pid}-${i + 1}`);
    mkdirSync(dir, { recursive: true });
    if (version === 2) writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    else {
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
    }
    writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    return dir;
  });
  return {
    throttled: () =>
      groups.map((dir) => {
        const m = /nr_throttled (\d+)/.exec(readFileSync(path.join(dir, 'cpu.stat'), 'utf8'));
        return m ? Number(m[1]) : NaN;
      }),
    remove: () => {
      for (const dir of groups) {
        const procs = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim();
        if (procs) continue; // still in use: leave it rather than fail
        rmdirSync(dir);
      }
    },
  };
}

/** Leftover groups of earlier runs whose processes have all gone. */
export function removeStaleGroups() {
  const { root } = cpuHierarchy();
  for (const name of readdirSync(root)) {
    if (!name.startsWith('gem-bench-')) continue;
    const dir = path.join(root, name);
    if (readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim() === '') rmdirSync(dir);
  }
}
