/**
 * Routing by the History API under /studio/. A screen announces a move with `navigate`, the
 * shell listens for `studio-navigate` and popstate. Paths are the address bar's, so every
 * screen can be bookmarked and reloaded.
 */
export const BASE = '/studio/';

/** The route below /studio/, without slashes at either end: `settings/tokens`. */
export function routeOf(pathname: string): string {
  return pathname.startsWith(BASE) ? pathname.slice(BASE.length).replace(/\/+$/, '') : '';
}

export function navigate(route: string, replace = false): void {
  const url = `${BASE}${route}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event('studio-navigate'));
}

/** Lets plain links under /studio/ move without a page load (a modified click still opens a tab). */
export function followLink(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
  if (
    !anchor ||
    anchor.target ||
    anchor.origin !== location.origin ||
    !anchor.pathname.startsWith(BASE) ||
    anchor.dataset.reload !== undefined
  )
    return;
  event.preventDefault();
  navigate(routeOf(anchor.pathname));
}
