import type { Manager } from 'socket.io-client';

/**
 * When the widget tries again after its link drops. Most drops are short: a server restart
 * or a deploy, a node of a cluster dying while the others take over. Those should cost the
 * visitor about a second, so while an outage is young the retries stay at most
 * RECENT_OUTAGE_MAX_MS apart. The first delays are drawn from 0 to twice a doubling step
 * (0-1 s, 0-2 s, then mostly the cap), so widgets dropped together by a crash spread over
 * the cap's width instead of all knocking in the same instant, and each keeps its own phase
 * after. An outage that goes on is a real one: after RECENT_OUTAGE_ATTEMPTS retries the gap
 * grows to LONG_OUTAGE_MAX_MS, so many idle pages do not keep knocking every two seconds.
 * socket.io's default (0.5-1.5 s, doubling to 5 s) left a widget up to 5 s behind a server
 * that was back.
 */
export const RECONNECT_OPTIONS = {
  /** The doubling step's start: the first retry comes after 0-1 s. */
  reconnectionDelay: 500,
  /** 1: each delay is drawn from 0 to twice the step (socket.io's jitter at its largest). */
  randomizationFactor: 1,
  reconnectionDelayMax: 2000,
} as const;
export const RECENT_OUTAGE_MAX_MS = RECONNECT_OPTIONS.reconnectionDelayMax;
/**
 * About a minute of retries at most 2 s apart: a restart on a busy host, or two in a row, can
 * take 20-30 s, and a widget that has gone over to 15 s gaps by then comes back long after it.
 */
export const RECENT_OUTAGE_ATTEMPTS = 30;
export const LONG_OUTAGE_MAX_MS = 15_000;

/** Widens the gap between retries once an outage has lasted, and narrows it again once the link is back. */
export function followReconnectPolicy(manager: Manager): void {
  // The attempt number counts retries since the link dropped; the gap before the next one is drawn after this one fails.
  manager.on('reconnect_attempt', (attempt) => {
    if (attempt >= RECENT_OUTAGE_ATTEMPTS) manager.reconnectionDelayMax(LONG_OUTAGE_MAX_MS);
  });
  manager.on('reconnect', () => manager.reconnectionDelayMax(RECENT_OUTAGE_MAX_MS));
}
