import type { Locator, Page } from 'playwright-core';

/** The widget's conversation, found as a screen-reader user finds it: the log region by its (localised) name. */
export function conversation(page: Page, name = 'Conversation'): Locator {
  return page.getByRole('log', { name });
}

/** Every message in the conversation: the items of its lists, in order. */
export function messageItems(page: Page, name?: string): Locator {
  return conversation(page, name).getByRole('listitem');
}

/**
 * The messages in order, each as a screen reader reads it: who spoke, then what, whitespace
 * collapsed ("Bot: What's your name?", "You: Ada", "You: two (sending)" while on its way).
 */
export async function messages(page: Page, name?: string): Promise<string[]> {
  const texts = await messageItems(page, name).allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}
