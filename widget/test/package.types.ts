// Type checks of the npm package's API, compiled by `tsc -p tsconfig.json` (npm test's typecheck
// stage) and never run: an expectation below that stops failing fails the compile.
import { ChatWidget, type ChatWidgetInitOptions } from '../package.ts';

export function packageTypeChecks(): void {
  const options: ChatWidgetInitOptions = { serverUrl: 'https://bot.example.com', user: { email: 'ada@example.com' } };
  ChatWidget.init(options);
  // @ts-expect-error the options type of the package requires serverUrl too
  const partial: ChatWidgetInitOptions = { locale: 'de' };
  void partial;
  // @ts-expect-error serverUrl is required: the package cannot know where the chat server is
  ChatWidget.init({ user: { email: 'ada@example.com' } });
  // @ts-expect-error init without options cannot start a chat either
  ChatWidget.init();
  // The rest of the API is window.ChatWidget's.
  ChatWidget.on('unreadCountChange', ({ count }) => count.toFixed());
  ChatWidget('open');
}
