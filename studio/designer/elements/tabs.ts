/**
 * Keys of a tab list (WAI-ARIA tabs, automatic activation): Left/Right (Up/Down too) go to the
 * previous/next tab and select it, Home/End the first/last. Returns the tab to select, or
 * undefined when the key is not one of these.
 */
export function tabKey(event: KeyboardEvent, tabs: readonly string[], current: string): string | undefined {
  const at = tabs.indexOf(current);
  let next: number | undefined;
  if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (at + 1) % tabs.length;
  else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (at - 1 + tabs.length) % tabs.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = tabs.length - 1;
  if (next === undefined) return undefined;
  event.preventDefault();
  return tabs[next];
}
