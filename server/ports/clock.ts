/** Time, injected so tests can move it and the engine never reads it itself. */
export interface Clock {
  /** UNIX epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
