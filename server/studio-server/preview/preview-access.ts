import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { ProtocolError } from '../../../shared/protocol.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Role } from '../../ports/roles.ts';
import { may } from '../../ports/roles.ts';
import { sameSecret } from '../accounts/digests.ts';
import { sessionCookieIn } from '../http/cookies.ts';
import { Refused } from './preview-refused.ts';
import type { PreviewSocket, SignedIn } from './preview-socket-data.ts';

/** Who may open the preview's sockets: the studio's signed-in editors, from the studio page itself. */
export interface PreviewAccess {
  readonly signedIn: SignedIn;
  /** The origins the studio is served at besides the request's own host. */
  readonly origins: () => readonly string[];
  readonly logger: Logger;
}

const handshakeSchema = z
  .object({ csrfToken: z.string().min(1).max(200), control: z.literal(true).optional() })
  .passthrough();

const refusal = (code: ProtocolError['code'], message: string) =>
  Object.assign(new Error(message), { data: { code, message } });

/** Why this role may not preview, or null when it may. */
const notAnEditor = (role: Role): string | null =>
  may(role, 'editBot') ? null : `Previewing needs the owner or editor role; you are signed in as ${role}.`;

/** The studio's own origin: the host the socket reached, or one it is published at. */
function ownOrigin(socket: Socket, origins: readonly string[]): boolean {
  const origin = socket.handshake.headers.origin;
  if (typeof origin !== 'string') return false;
  const host = socket.handshake.headers['x-forwarded-host'] ?? socket.handshake.headers.host;
  const candidates = [`http://${String(host)}`, `https://${String(host)}`, ...origins].map((o) => o.toLowerCase());
  return candidates.includes(origin.toLowerCase());
}

/**
 * The namespace's handshake: the studio session cookie, the session's CSRF token in the handshake, the studio's own
 * Origin and an account that may edit the bot; it notes who signed in and which kind of socket this is.
 */
export function previewHandshake(access: PreviewAccess): (socket: Socket, next: (error?: Error) => void) => void {
  return (socket, next) => {
    void (async () => {
      if (!ownOrigin(socket, access.origins()))
        return next(refusal('not_allowed', 'The preview opens only from the studio page itself.'));
      const header = socket.handshake.headers.cookie;
      const cookie = sessionCookieIn(header, true) ?? sessionCookieIn(header, false);
      const found = cookie ? await access.signedIn(cookie) : null;
      if (!cookie || !found) return next(refusal('unauthorized', 'Sign in to the studio first.'));
      const auth = handshakeSchema.safeParse(socket.handshake.auth ?? {});
      if (!auth.success || !sameSecret(auth.data.csrfToken, found.session.csrfToken)) {
        return next(
          refusal(
            'not_allowed',
            'The preview did not come from the studio page (its CSRF token is missing or wrong). Reload the studio.',
          ),
        );
      }
      const refused = notAnEditor(found.account.role);
      if (refused) return next(refusal('not_allowed', refused));
      (socket as PreviewSocket).data = { accountId: found.account.id, cookie, control: auth.data.control === true };
      next();
    })().catch((error: unknown) => {
      access.logger.error(
        { event: 'preview_handshake_failed', err: error },
        'could not check a studio preview handshake',
      );
      next(refusal('internal', 'The preview could not start. Please try again shortly.'));
    });
  };
}

/** Signs the caller in again: a sign-out or a demotion since the handshake ends what they may do. */
export async function stillEditor(signedIn: SignedIn, socket: PreviewSocket): Promise<void> {
  const found = await signedIn(socket.data.cookie);
  if (!found || found.account.id !== socket.data.accountId)
    throw new Refused('not_allowed', 'Your studio session has ended; sign in again.');
  const refused = notAnEditor(found.account.role);
  if (refused) throw new Refused('not_allowed', refused);
}
