import type { WhatsAppTemplate } from '../../definition/whatsapp-template.ts';
import { renderTemplate } from '../../engine/turn/template.ts';
import type { UserRecord } from '../../ports/store.ts';
import { truncate } from '../connector/graphemes.ts';

/** WhatsApp's customer service window: messages the user did not ask for only this long after their last one. */
export const WHATSAPP_WINDOW_MS = 24 * 3_600_000;

/** Whether a message the user did not ask for may go now; a user who never wrote (null) is outside. */
export const insideWindow = (lastMessageAt: number | null, now: number) =>
  lastMessageAt !== null && now - lastMessageAt < WHATSAPP_WINDOW_MS;

/** Meta caps a template message's body at 1024 characters: no one parameter may be longer. */
const PARAMETER_MAX = 1024;

/**
 * A dialog's template with its parameters filled for one user, as both ways to WhatsApp send it
 * (Meta's Cloud API and Twilio's Content API).
 */
export interface FilledTemplate {
  readonly name: string;
  readonly language: string;
  readonly contentSid?: string;
  /** The body's {{1}}, {{2}}, … in order. */
  readonly parameters: readonly string[];
}

/**
 * Fills the template's parameters from the user's variables and user data, as a message step's text
 * is. Meta refuses a text parameter that is empty (error 131008) or holds a line break, a tab or more
 * than four spaces in a row (132018), and the whole message with it: whitespace runs become one
 * space, and a value that renders empty (a variable the user does not have) goes as "…".
 */
export function fillTemplate(
  template: WhatsAppTemplate,
  user: Pick<UserRecord, 'variables' | 'userData'> | null,
): FilledTemplate {
  const scopes = [user?.variables ?? {}, user?.userData ?? {}];
  const parameters = template.parameters.map((parameter) => {
    const text = renderTemplate(parameter, scopes, () => undefined)
      .replace(/\s+/g, ' ')
      .trim();
    return text === '' ? '…' : truncate(text, PARAMETER_MAX);
  });
  return {
    name: template.name,
    language: template.language,
    ...(template.contentSid ? { contentSid: template.contentSid } : {}),
    parameters,
  };
}
