import type { Manager } from 'socket.io-client';

/**
 * When the widget tries again after its link drops. Most drops are short: a server restart
 * or a deploy, a node of a cluster dying while the others take over. Those should cost the
 * visitor about a second, so while an outage is young the retries stay at most
 * RECENT_OUTAGE_MAX_MS apart. The delays are drawn from 0 to twice a doubling step, capped
 * (0-1 s, then half of them the cap, half less), so widgets dropped together by a crash
 * spread over the cap's width instead of all knocking in the same instant, and each keeps
 * its own phase after. With a 1 s cap a widget is back about half a second after its server
 * (at a 2 s cap, 200 widgets took p50 1.4 s after a restart to be back); a refused retry
 * costs the server next to nothing. An outage that goes on is a real one: after RECENT_OUTAGE_ATTEMPTS retries the gap
 * grows to LONG_OUTAGE_MAX_MS, so many idle pages do not keep knocking every second.
 * socket.io's default (0.5-1.5 s, doubling to 5 s) left a widget up to 5 s behind a server
 * that was back.
 */
export const RECONNECT_OPTIONS = {
  /** The doubling step's start: the first retry comes after 0-1 s. */
  reconnectionDelay: 500,
  /** 1: each delay is drawn from 0 to twice the step (socket.io's jitter at its largest). */
  randomizationFactor: 1,
  reconnectionDelayMax: 1000,
} as const;
export const RECENT_OUTAGE_MAX_MS = RECONNECT_OPTIONS.reconnectionDelayMax;
/**
 * About 35 s of retries at most 1 s apart (0.75 s on average): a restart on a busy host, or two
 * in a row, can take 20-30 s, and a widget that has gone over to 15 s gaps by then comes back
 * long after it.
 */
export const RECENT_OUTAGE_ATTEMPTS = 45;
export const LONG_OUTAGE_MAX_MS = 15_000;

/** Widens the gap between retries once an outage has lasted, and narrows it again once the link is back. */
export function followReconnectPolicy(manager: Manager): void {
  // The attempt number counts retries since the link dropped; the gap before the next one is drawn after this one fails.
  manager.on('reconnect_attempt', (attempt) => {
    if (attempt >= RECENT_OUTAGE_ATTEMPTS) manager.reconnectionDelayMax(LONG_OUTAGE_MAX_MS);
  });
  manager.on('reconnect', () => manager.reconnectionDelayMax(RECENT_OUTAGE_MAX_MS));
}
