import { z } from 'zod';
import { openSchema, pressSchema, sendTextSchema, startDialogSchema } from '../../../shared/protocol-schemas.ts';
import { handleUserMessage, type UserInput } from '../../app/handle-user-message.ts';
import { readMissed } from '../../app/open-conversation.ts';
import { startDialog } from '../../app/start-dialog.ts';
import { toItem } from '../../app/to-item.ts';
import type { AuthorPreview } from './author-preview.ts';
import type { PreviewEventHandler } from './preview-events.ts';
import { Refused } from './preview-refused.ts';
import type { PreviewSocket } from './preview-socket-data.ts';

/** The real widget's chat socket: the web chat protocol, talking to the author's preview user. */
export function chatSocket(socket: PreviewSocket, preview: AuthorPreview, room: string, on: PreviewEventHandler): void {
  const app = preview.app;
  const userId = preview.userId;
  if (!app || !userId) {
    socket.emit('protocol_error', {
      code: 'not_allowed',
      message: 'No preview runs; start one in the studio first.',
    } as never);
    socket.disconnect(true);
    return;
  }
  void socket.join(room);
  const { name, avatarUrl } = app.definition.settings;
  // The token is no web chat session: the preview socket signs in by the studio session alone.
  socket.emit('session', { userId, token: 'preview', bot: avatarUrl ? { name, avatarUrl } : { name } } as never);
  const lastSeq = typeof socket.handshake.auth?.lastSeq === 'number' ? socket.handshake.auth.lastSeq : 0;
  void readMissed(app, userId, lastSeq).then(
    (missed) => missed.length > 0 && socket.emit('entries', missed.map(toItem) as never),
    () => undefined,
  );
  // The conversation this socket opened with: a restart makes a new user, which a new widget shows.
  const current = () => {
    if (preview.userId !== userId || !preview.app)
      throw new Refused('no_preview', 'The preview restarted; the studio opens a new chat for it.');
    return preview.app;
  };
  const send = (message: UserInput['message'], clientId: string) =>
    handleUserMessage(current(), { userId, clientId, message });
  on('message', sendTextSchema, ({ clientId, text }) => send({ type: 'text', text }, clientId));
  on('press', pressSchema, ({ clientId, label, action }) =>
    send(
      action.kind === 'postback'
        ? { type: 'postback', label, payload: action.payload }
        : { type: 'dialog', label, dialogId: action.dialogId },
      clientId,
    ),
  );
  on('open', openSchema, async () => null);
  on('start_dialog', startDialogSchema, async ({ dialogId, data }) => {
    await startDialog(current(), { userId, dialogId, ...(data ? { data } : {}) });
    return null;
  });
  // The page's own events have no page in the studio: acknowledged, nothing done.
  on('page_event', z.unknown(), async () => null);
  on('set_user_data', z.unknown(), async () => null);
}
