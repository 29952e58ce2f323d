import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

/** How the event loop fared between two readings: what a request arriving meanwhile waited for before its turn. */
export interface LoopReading {
  /** Event-loop delay (a 1 ms timer's lateness), ms. */
  readonly delayP50: number;
  readonly delayP99: number;
  readonly delayMax: number;
  /** Share of the time the loop was busy (event-loop utilisation). */
  readonly busy: number;
  /** Garbage-collection pauses: how many, their total and the longest, ms; and the full (mark-compact) ones among them. */
  readonly gcCount: number;
  readonly gcMs: number;
  readonly gcMaxMs: number;
  readonly gcMajorCount: number;
  readonly gcMajorMaxMs: number;
}

/** Starts measuring; each call of the returned function reads what happened since the previous call (or the start). */
export function loopMeter(): () => LoopReading {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gc = { count: 0, ms: 0, max: 0, majorCount: 0, majorMax: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.ms += entry.duration;
      gc.max = Math.max(gc.max, entry.duration);
      // A gc entry's detail says which collection it was (Node's PerformanceEntry; the DOM type has no detail).
      const detail = (entry as { detail?: { kind?: number } }).detail;
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.majorCount += 1;
        gc.majorMax = Math.max(gc.majorMax, entry.duration);
      }
    }
  }).observe({ entryTypes: ['gc'] });
  let utilisation = performance.eventLoopUtilization();
  return () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const reading: LoopReading = {
      delayP50: ms(delay.percentile(50)),
      delayP99: ms(delay.percentile(99)),
      delayMax: ms(delay.max),
      busy: performance.eventLoopUtilization(utilisation).utilization,
      gcCount: gc.count,
      gcMs: Math.round(gc.ms * 10) / 10,
      gcMaxMs: Math.round(gc.max * 10) / 10,
      gcMajorCount: gc.majorCount,
      gcMajorMaxMs: Math.round(gc.majorMax * 10) / 10,
    };
    delay.reset();
    gc = { count: 0, ms: 0, max: 0, majorCount: 0, majorMax: 0 };
    utilisation = performance.eventLoopUtilization();
    return reading;
  };
}

/** One line for a bench's output. */
export const loopText = (loop: LoopReading | undefined) =>
  loop === undefined
    ? ''
    : `; event-loop delay p50 ${loop.delayP50} ms, p99 ${loop.delayP99} ms, max ${loop.delayMax} ms, loop busy ${(loop.busy * 100).toFixed(0)} %, ` +
      `GC ${loop.gcCount} pauses ${loop.gcMs} ms (longest ${loop.gcMaxMs} ms; ${loop.gcMajorCount} full, longest ${loop.gcMajorMaxMs} ms)`;
