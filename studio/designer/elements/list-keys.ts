/** What a key asks of a list: focus the item at an index, or move the focused item up (-1) or down (1). */
export type ListKey = { readonly focus: number } | { readonly move: -1 | 1 };

/**
 * Keys of a list a person can reorder (the dialogs, a dialog's steps): Up/Down go to the
 * previous/next item, Home/End to the first/last, Alt+Up/Down move the item itself. Returns what
 * the key asks for, or undefined when it is not one of these.
 */
export function listKey(event: KeyboardEvent, at: number, count: number): ListKey | undefined {
  const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : undefined;
  let key: ListKey | undefined;
  if (step !== undefined) key = event.altKey ? { move: step } : { focus: Math.max(0, Math.min(count - 1, at + step)) };
  else if (event.key === 'Home') key = { focus: 0 };
  else if (event.key === 'End') key = { focus: count - 1 };
  if (key) event.preventDefault();
  return key;
}
