import type { QueuedMessage } from '../controllers/session-store.ts';
import type { WidgetStrings } from '../i18n/strings.ts';

/** What drawing a message needs from the widget around it. */
export interface RenderContext {
  readonly strings: WidgetStrings;
  readonly locale: string | undefined;
  /** A postback or start-dialog button was pressed. */
  readonly press: (label: string, action: NonNullable<QueuedMessage['action']>) => void;
  /** Buttons stop working once the conversation ended in an error. */
  readonly disabled: boolean;
  /** The chat server's URL: the bot's root-relative media and links belong there, not to the host page. */
  readonly baseUrl: string;
  /** The bot's picture beside its messages (an http(s) URL), or '' for its initial. */
  readonly avatar: string;
  /** The bot's name, whose first letter stands in for a missing picture. */
  readonly botName: string;
  /** Draws the element again: a chunk a message needed has arrived. */
  readonly refresh: () => void;
}
