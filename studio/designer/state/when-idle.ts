/**
 * Resolves when the page is idle: after the frame that shows the last key and every task already queued,
 * so that work started then (a request of the whole definition, say) is in the way of neither. At most
 * `atMost` ms later when the page never idles (a hidden tab); where the browser has no idle callbacks
 * (Safari), after the next frame is painted; at once where there are no frames (the unit tests).
 */
export function whenIdle(atMost = 200): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => resolve(), { timeout: atMost });
    } else if (typeof requestAnimationFrame === 'function') {
      const fallback = setTimeout(resolve, atMost);
      requestAnimationFrame(() =>
        setTimeout(() => {
          clearTimeout(fallback);
          resolve();
        }, 0),
      );
    } else setTimeout(resolve, 0);
  });
}
