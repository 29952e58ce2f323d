import type { Namespace, Server } from 'socket.io';
import { PREVIEW_NAMESPACE } from '../../../shared/preview-protocol.ts';
import { toItem } from '../../app/to-item.ts';
import { TokenBucket } from '../../app/token-bucket.ts';
import { AuthorPreview } from './author-preview.ts';
import type { PreviewDeps } from './preview-deps.ts';
import { chatSocket } from './chat-socket.ts';
import { controlSocket } from './control-socket.ts';
import { previewHandshake } from './preview-access.ts';
import { previewEvents } from './preview-events.ts';
import type { PreviewSocket, SignedIn } from './preview-socket-data.ts';

/**
 * The preview's socket (namespace PREVIEW_NAMESPACE on the bot's socket.io server). Two kinds
 * of socket sign in with the studio session cookie, the session's CSRF token in the handshake
 * and the studio's own Origin, from an account that may edit the bot (editor, owner):
 *   - the panel's control socket (`auth.control: true`): start, restart, stop, answer held calls, save as test;
 *   - the real widget's chat socket: the web chat protocol, talking to the author's preview user.
 * Each event signs in again, so a sign-out or a role change applies to the next one.
 */
export interface PreviewSocketOptions {
  readonly deps: PreviewDeps;
  readonly signedIn: SignedIn;
  /** The origins the studio is served at besides the request's own host. */
  readonly origins: () => readonly string[];
  /** Events a minute each preview socket may send (120 unless told). */
  readonly eventsPerMinute?: number;
}

export function attachPreview(
  io: Server,
  options: PreviewSocketOptions,
): { close(): Promise<void>; previews: ReadonlyMap<string, AuthorPreview> } {
  const nsp: Namespace = io.of(PREVIEW_NAMESPACE);
  const previews = new Map<string, AuthorPreview>();
  const controlRoom = (accountId: string) => `control:${accountId}`;
  const chatRoom = (accountId: string) => `chat:${accountId}`;
  const { signedIn, origins, deps } = options;

  const previewOf = (accountId: string): AuthorPreview => {
    let preview = previews.get(accountId);
    if (!preview) {
      preview = new AuthorPreview(deps, accountId, {
        state: (state) => nsp.to(controlRoom(accountId)).emit('state', state),
        entries: (entries) => {
          if (entries.length > 0) nsp.to(chatRoom(accountId)).emit('entries', entries.map(toItem));
        },
        typing: (on) => nsp.to(chatRoom(accountId)).emit('typing', on),
        event: (event) => nsp.to(chatRoom(accountId)).emit('bot_event', event),
      });
      previews.set(accountId, preview);
    }
    return preview;
  };

  nsp.use(previewHandshake({ signedIn, origins, logger: deps.logger }));
  nsp.on('connection', (raw) => {
    const socket = raw as unknown as PreviewSocket;
    const { accountId } = socket.data;
    const bucket = new TokenBucket(options.eventsPerMinute ?? 120, () => deps.clock.now());
    const on = previewEvents(socket, bucket, { signedIn, logger: deps.logger });
    if (socket.data.control) controlSocket(socket, previewOf(accountId), controlRoom(accountId), on);
    else chatSocket(socket, previewOf(accountId), chatRoom(accountId), on);
  });

  return {
    previews,
    async close() {
      await Promise.all([...previews.values()].map((preview) => preview.stop()));
    },
  };
}
