/**
 * What loader.ts (the critical-path script) and embed.ts (the rest of the widget) agree on
 * when the rest takes over. Types and one constant only: the loader must stay small.
 */

/** A call the page made before the rest loaded; `settle` hands the caller the full widget's answer. */
export type QueuedCall = ArrayLike<unknown> & { settle?: (result: unknown) => void };

/** Dispatched on document by embed.ts the moment it takes over, so no second launcher is ever on screen. */
export const INSTALLED_EVENT = 'chat-widget-installed';
