/**
 * Runs `task` when the page is idle: after the frame that shows the last key and every task already
 * queued, so that work started then (a request of the whole definition, say) is in the way of neither.
 * At most `atMost` ms later when the page never idles (a hidden tab); where the browser has no idle
 * callbacks (Safari), after the next frame is painted; at once where there are no frames (the unit
 * tests). Returns a function that cancels the task if it has not run yet.
 */
export function onIdle(task: () => void, atMost = 200): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => task(), { timeout: atMost });
    return () => cancelIdleCallback(id);
  }
  if (typeof requestAnimationFrame === 'function') {
    let after: ReturnType<typeof setTimeout> | undefined;
    const fallback = setTimeout(() => {
      cancelAnimationFrame(frame);
      task();
    }, atMost);
    const frame = requestAnimationFrame(() => {
      after = setTimeout(() => {
        clearTimeout(fallback);
        task();
      }, 0);
    });
    return () => {
      clearTimeout(fallback);
      clearTimeout(after);
      cancelAnimationFrame(frame);
    };
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}

/** Resolves when the page is idle (see onIdle). */
export function whenIdle(atMost = 200): Promise<void> {
  return new Promise((resolve) => onIdle(resolve, atMost));
}
