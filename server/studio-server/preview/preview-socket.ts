import type { Namespace, Server, Socket } from 'socket.io';
import { z } from 'zod';
import {
  MAX_START_VALUES,
  PREVIEW_NAMESPACE,
  type PreviewAck,
  type PreviewError,
  type PreviewErrorCode,
} from '../../../shared/preview-protocol.ts';
import {
  clientPayloadExcess,
  openSchema,
  pressSchema,
  sendTextSchema,
  startDialogSchema,
} from '../../../shared/protocol-schemas.ts';
import type { ProtocolError } from '../../../shared/protocol.ts';
import { handleUserMessage, UnknownDialogError, type UserInput } from '../../app/handle-user-message.ts';
import { readMissed } from '../../app/open-conversation.ts';
import { startDialog } from '../../app/start-dialog.ts';
import { toItem } from '../../app/to-item.ts';
import { TokenBucket } from '../../app/token-bucket.ts';
import { DefinitionError } from '../../definition/load.ts';
import { DeadlinePassed } from '../../ports/deadline.ts';
import type { Account } from '../../ports/accounts.ts';
import { may } from '../../ports/roles.ts';
import type { StudioSession } from '../../ports/sessions.ts';
import { sameSecret } from '../accounts/digests.ts';
import { sessionCookieIn } from '../http/cookies.ts';
import { AuthorPreview, NoPreview, NotATest, type PreviewDeps } from './author-preview.ts';

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
  readonly signedIn: (cookie: string) => Promise<{ readonly account: Account; readonly session: StudioSession } | null>;
  /** The origins the studio is served at besides the request's own host. */
  readonly origins: () => readonly string[];
  /** The bot's name for the widget's header, from the draft the preview runs. */
  readonly eventsPerMinute?: number;
}

interface PreviewSocketData {
  accountId: string;
  cookie: string;
  control: boolean;
}

type PreviewSocket = Socket<
  Record<string, (...args: never[]) => void>,
  Record<string, (...args: never[]) => void>,
  Record<string, never>,
  PreviewSocketData
>;

const handshakeSchema = z
  .object({ csrfToken: z.string().min(1).max(200), control: z.literal(true).optional() })
  .passthrough();

const values = z
  .record(z.string().max(100), z.unknown())
  .refine((v) => Object.keys(v).length <= MAX_START_VALUES, { message: `at most ${MAX_START_VALUES} values` });
const stepName = z.string().min(1).max(200);
const startSchema = z
  .object({
    dialogId: stepName.optional(),
    stepId: stepName.optional(),
    variables: values.optional(),
    userData: values.optional(),
  })
  .strict();
const answerSchema = z
  .object({
    callId: z.string().min(1).max(100),
    answer: z.discriminatedUnion('kind', [
      z
        .object({
          kind: z.literal('stub'),
          status: z.number().int().min(100).max(599),
          body: z.string().max(64 * 1024),
          contentType: z.string().max(200).optional(),
        })
        .strict(),
      z.object({ kind: z.literal('send') }).strict(),
      z.object({ kind: z.literal('skip') }).strict(),
      z.object({ kind: z.literal('fail') }).strict(),
    ]),
  })
  .strict();
const saveTestSchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();

const refusal = (code: ProtocolError['code'], message: string) =>
  Object.assign(new Error(message), { data: { code, message } });

class Refused extends Error {
  constructor(
    readonly code: PreviewErrorCode,
    message: string,
    readonly problems?: PreviewError['problems'],
  ) {
    super(message);
  }
}

/** The studio's own origin: the host the socket reached, or one it is published at. */
function ownOrigin(socket: Socket, origins: readonly string[]): boolean {
  const origin = socket.handshake.headers.origin;
  if (typeof origin !== 'string') return false;
  const host = socket.handshake.headers['x-forwarded-host'] ?? socket.handshake.headers.host;
  const candidates = [`http://${String(host)}`, `https://${String(host)}`, ...origins].map((o) => o.toLowerCase());
  return candidates.includes(origin.toLowerCase());
}

export function attachPreview(
  io: Server,
  options: PreviewSocketOptions,
): { close(): Promise<void>; previews: ReadonlyMap<string, AuthorPreview> } {
  const nsp: Namespace = io.of(PREVIEW_NAMESPACE);
  const previews = new Map<string, AuthorPreview>();
  const controlRoom = (accountId: string) => `control:${accountId}`;
  const chatRoom = (accountId: string) => `chat:${accountId}`;

  const previewOf = (accountId: string): AuthorPreview => {
    let preview = previews.get(accountId);
    if (!preview) {
      preview = new AuthorPreview(options.deps, accountId, {
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

  /** Signs the caller in again: a sign-out or a demotion since the handshake ends what they may do. */
  const stillEditor = async (socket: PreviewSocket): Promise<void> => {
    const found = await options.signedIn(socket.data.cookie);
    if (!found || found.account.id !== socket.data.accountId)
      throw new Refused('not_allowed', 'Your studio session has ended; sign in again.');
    if (!may(found.account.role, 'editBot'))
      throw new Refused(
        'not_allowed',
        `Previewing needs the owner or editor role; you are signed in as ${found.account.role}.`,
      );
  };

  nsp.use((socket, next) => {
    void (async () => {
      if (!ownOrigin(socket, options.origins()))
        return next(refusal('not_allowed', 'The preview opens only from the studio page itself.'));
      const header = socket.handshake.headers.cookie;
      const cookie = sessionCookieIn(header, true) ?? sessionCookieIn(header, false);
      const found = cookie ? await options.signedIn(cookie) : null;
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
      if (!may(found.account.role, 'editBot')) {
        return next(
          refusal(
            'not_allowed',
            `Previewing needs the owner or editor role; you are signed in as ${found.account.role}.`,
          ),
        );
      }
      socket.data = { accountId: found.account.id, cookie, control: auth.data.control === true };
      next();
    })().catch((error: unknown) => {
      options.deps.logger.error(
        { event: 'preview_handshake_failed', err: error },
        'could not check a studio preview handshake',
      );
      next(refusal('internal', 'The preview could not start. Please try again shortly.'));
    });
  });

  nsp.on('connection', (raw) => {
    const socket = raw as unknown as PreviewSocket;
    const { accountId } = socket.data;
    const bucket = new TokenBucket(options.eventsPerMinute ?? 120, () => options.deps.clock.now());
    if (socket.data.control) controlSocket(socket, previewOf(accountId), bucket);
    else chatSocket(socket, previewOf(accountId), bucket);
  });

  /** Runs an event: payload bounded and checked, the caller signed in again, every failure answered with a code. */
  const on = <S extends z.ZodType, T>(
    socket: PreviewSocket,
    bucket: TokenBucket,
    event: string,
    schema: S,
    action: (payload: z.infer<S>) => Promise<T>,
  ) => {
    socket.on(event, ((payload: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as PreviewAck<T>) : () => undefined;
      const fail = (code: PreviewErrorCode, message: string, problems?: PreviewError['problems']) =>
        reply({ ok: false, error: { code, message, ...(problems ? { problems } : {}) } });
      void (async () => {
        if (!bucket.take()) return fail('rate_limited', 'Too many preview actions at once; wait a moment.');
        const excess = clientPayloadExcess(payload);
        if (excess) return fail('invalid_payload', `The request is not valid: ${excess}.`);
        const parsed = schema.safeParse(payload ?? {});
        if (!parsed.success)
          return fail(
            'invalid_payload',
            `The request is not valid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim(),
          );
        await stillEditor(socket);
        reply({ ok: true, value: await action(parsed.data) });
      })().catch((error: unknown) => {
        if (error instanceof Refused) return fail(error.code, error.message, error.problems);
        if (error instanceof DefinitionError)
          return fail(
            'definition_invalid',
            'The draft has errors to fix before it can run.',
            error.problems.map((message) => ({ path: '', message })),
          );
        if (error instanceof NoPreview) return fail('no_preview', error.message);
        if (error instanceof NotATest) return fail('not_a_test', error.message);
        if (error instanceof UnknownDialogError) return fail('invalid_payload', error.message);
        // The store did not take the message within TURN_DEADLINE: logged once where the turn ran (app/turn-deadline.ts).
        if (error instanceof DeadlinePassed)
          return fail('internal', 'That could not be sent just now. Please try again.');
        options.deps.logger.error(
          { event: 'preview_event_failed', accountId: socket.data.accountId, previewEvent: event, err: error },
          'a studio preview event failed',
        );
        fail('internal', 'That could not be done. Please try again.');
      });
    }) as never);
  };

  function controlSocket(socket: PreviewSocket, preview: AuthorPreview, bucket: TokenBucket): void {
    void socket.join(controlRoom(preview.accountId));
    socket.emit('state', preview.state() as never);
    on(socket, bucket, 'start', startSchema, (payload) => preview.start(payload));
    on(socket, bucket, 'stop', z.object({}).strict(), async () => {
      await preview.stop();
      return null;
    });
    on(socket, bucket, 'answer', answerSchema, async ({ callId, answer }) => {
      const outcome = preview.answer(callId, answer);
      if (outcome === 'gone')
        throw new Refused('call_gone', 'That call was already answered, or the preview restarted.');
      if (outcome === 'unfit')
        throw new Refused(
          'invalid_payload',
          'That answer does not fit this call (a stub answers an HTTP call; email and SMS are skipped, failed or sent).',
        );
      return null;
    });
    on(socket, bucket, 'run_timer', z.object({ timerId: stepName }).strict(), async ({ timerId }) => {
      if (!preview.runTimer(timerId))
        throw new Refused('timer_gone', 'That wait has already ended, or the preview restarted.');
      return null;
    });
    on(socket, bucket, 'save_test', saveTestSchema, ({ name }) => preview.saveTest(name));
  }

  function chatSocket(socket: PreviewSocket, preview: AuthorPreview, bucket: TokenBucket): void {
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
    void socket.join(chatRoom(preview.accountId));
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
    on(socket, bucket, 'message', sendTextSchema, ({ clientId, text }) => send({ type: 'text', text }, clientId));
    on(socket, bucket, 'press', pressSchema, ({ clientId, label, action }) =>
      send(
        action.kind === 'postback'
          ? { type: 'postback', label, payload: action.payload }
          : { type: 'dialog', label, dialogId: action.dialogId },
        clientId,
      ),
    );
    on(socket, bucket, 'open', openSchema, async () => null);
    on(socket, bucket, 'start_dialog', startDialogSchema, async ({ dialogId, data }) => {
      await startDialog(current(), { userId, dialogId, ...(data ? { data } : {}) });
      return null;
    });
    // The page's own events have no page in the studio: acknowledged, nothing done.
    on(socket, bucket, 'page_event', z.unknown(), async () => null);
    on(socket, bucket, 'set_user_data', z.unknown(), async () => null);
  }

  return {
    previews,
    async close() {
      await Promise.all([...previews.values()].map((preview) => preview.stop()));
    },
  };
}
