import type { Socket } from 'socket.io';
import type { Account } from '../../ports/accounts.ts';
import type { StudioSession } from '../../ports/sessions.ts';

/** Who a preview socket signed in as at its handshake, and which of the two kinds of socket it is. */
export interface PreviewSocketData {
  accountId: string;
  cookie: string;
  control: boolean;
}

export type PreviewSocket = Socket<
  Record<string, (...args: never[]) => void>,
  Record<string, (...args: never[]) => void>,
  Record<string, never>,
  PreviewSocketData
>;

/** The studio account and session a session cookie signs in, or null. */
export type SignedIn = (
  cookie: string,
) => Promise<{ readonly account: Account; readonly session: StudioSession } | null>;
