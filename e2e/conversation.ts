import type { Locator, Page } from 'playwright-core';

export interface ConversationOptions {
  /** The log's name in the widget's language ("Conversation" in English). */
  readonly name?: string;
  /** Also while the panel is closed (hidden from screen readers then too): what the widget holds, not what is on screen. */
  readonly includeHidden?: boolean;
}

/** The widget's conversation, found as a screen-reader user finds it: the log region by its (localised) name. */
export function conversation(
  page: Page,
  { name = 'Conversation', includeHidden = false }: ConversationOptions = {},
): Locator {
  return page.getByRole('log', { name, includeHidden });
}

/** Every message in the conversation: the items of its lists, in order. */
export function messageItems(page: Page, options: ConversationOptions = {}): Locator {
  return conversation(page, options).getByRole('listitem', { includeHidden: options.includeHidden });
}

/**
 * The messages in order, each as a screen reader reads it: who spoke, then what, whitespace
 * collapsed ("Bot: What's your name?", "You: Ada", "You: two (sending)" while on its way).
 */
export async function messages(page: Page, options: ConversationOptions = {}): Promise<string[]> {
  const texts = await messageItems(page, options).allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}
