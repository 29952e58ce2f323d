import { readFileSync } from 'node:fs';

/**
 * CPU time the hypervisor gave to other guests ("steal"), as a share of all CPU time,
 * between start() and the returned function's call. On a shared virtual machine a run with
 * a high share measures the neighbours more than the code: the benches print it beside
 * their figures. Null where /proc/stat is not readable (not Linux).
 */
export function stealMeter(): () => number | null {
  const read = () => {
    try {
      const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
      return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
    } catch {
      return null;
    }
  };
  const before = read();
  return () => {
    const after = read();
    if (!before || !after || after.total === before.total) return null;
    return (after.steal - before.steal) / (after.total - before.total);
  };
}

export const stealText = (share: number | null) => (share === null ? '' : `; CPU steal ${(share * 100).toFixed(0)} %`);
