import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

/**
 * CPU profiles of named phases of a bench child: `profile(name)` starts one, `profile(undefined)` stops it and
 * writes `<dir>/<name>.cpuprofile` (open it in Chrome's DevTools). A phase's profile holds that phase alone, where
 * node --cpu-prof's holds the whole run, set-up and warm-up included.
 */
export function phaseProfiler(dir: string): (phase: string | undefined) => Promise<void> {
  const session = new Session();
  session.connect();
  let current: string | undefined;
  return async (phase) => {
    if (current) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(path.join(dir, `${current.replace(/[^\w-]+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      current = undefined;
    }
    if (!phase) return;
    await session.post('Profiler.enable');
    // 100 µs, as node --cpu-prof-interval's default under 1 ms would: a turn takes under a millisecond.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    current = phase;
  };
}
