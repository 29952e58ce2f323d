import type { z } from 'zod';
import type { ClientToServerEvents } from '../../../shared/protocol.ts';
import {
  openSchema,
  pageEventSchema,
  pressSchema,
  sendTextSchema,
  setUserDataSchema,
  startDialogSchema,
} from '../../../shared/protocol-schemas.ts';
import type { AppDeps } from '../../app/deps.ts';
import { handlePageEvent } from '../../app/handle-page-event.ts';
import type { UserInput } from '../../app/handle-user-message.ts';
import { setUserData } from '../../app/set-user-data.ts';
import { startDialog } from '../../app/start-dialog.ts';

/** What a client event may do on the connection it came on. */
export interface WebchatConnection {
  readonly app: AppDeps;
  readonly userId: string;
  /** Runs a message's turn, from the user this connection last saw when that is fresh. */
  send(message: UserInput['message'], clientId: string): Promise<unknown>;
  /** Another event changes the user: the next message's turn reads them afresh. */
  forgetReturning(): void;
}

/** One client event: the schema its payload must pass, and what it does with it (the ack's value). */
export interface ClientEvent<S extends z.ZodType> {
  readonly schema: S;
  run(connection: WebchatConnection, payload: z.infer<S>): Promise<unknown>;
}

const clientEvent = <S extends z.ZodType>(schema: S, run: ClientEvent<S>['run']): ClientEvent<S> => ({ schema, run });

/** A use case that changes the user and answers null. */
const changing =
  <P>(action: (connection: WebchatConnection, payload: P) => Promise<unknown>) =>
  async (connection: WebchatConnection, payload: P) => {
    connection.forgetReturning();
    await action(connection, payload);
    return null;
  };

/** The web chat's client events; the mapped type makes an event the protocol adds and nobody handles a compile error. */
export const CLIENT_EVENTS: { readonly [E in keyof ClientToServerEvents]: ClientEvent<z.ZodType> } = {
  message: clientEvent(sendTextSchema, (connection, { clientId, text }) =>
    connection.send({ type: 'text', text }, clientId),
  ),
  press: clientEvent(pressSchema, (connection, { clientId, label, action }) =>
    connection.send(
      action.kind === 'postback'
        ? { type: 'postback', label, payload: action.payload }
        : { type: 'dialog', label, dialogId: action.dialogId },
      clientId,
    ),
  ),
  page_event: clientEvent(
    pageEventSchema,
    changing(({ app, userId }, { name, payload }) => handlePageEvent(app, { userId, name, payload: payload ?? {} })),
  ),
  set_user_data: clientEvent(
    setUserDataSchema,
    changing(({ app, userId }, { fields }) => setUserData(app, userId, fields)),
  ),
  // Opening is done before every event, this one too: nothing else to do.
  open: clientEvent(openSchema, async () => null),
  start_dialog: clientEvent(
    startDialogSchema,
    changing(({ app, userId }, { dialogId, data }) => startDialog(app, { userId, dialogId, data })),
  ),
};
