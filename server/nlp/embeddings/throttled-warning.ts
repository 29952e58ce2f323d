/**
 * A warning that may repeat every turn (an embeddings endpoint that is down) is told
 * once, then at most once a minute with how many times it happened meanwhile.
 */
export function throttledWarning(
  warn: (message: string) => void,
  intervalMs = 60_000,
  now: () => number = Date.now,
): (message: string) => void {
  let last = -Infinity;
  let quiet = 0;
  return (message) => {
    const t = now();
    if (t - last < intervalMs) {
      quiet++;
      return;
    }
    warn(quiet > 0 ? `${message} (and ${quiet} more times since the last warning)` : message);
    last = t;
    quiet = 0;
  };
}
