import type { z } from 'zod';
import type { PreviewAck, PreviewError, PreviewErrorCode } from '../../../shared/preview-protocol.ts';
import { clientPayloadExcess } from '../../../shared/protocol-schemas.ts';
import { UnknownDialogError } from '../../app/handle-user-message.ts';
import type { TokenBucket } from '../../app/token-bucket.ts';
import { DefinitionError } from '../../definition/load.ts';
import { DeadlinePassed } from '../../ports/deadline.ts';
import type { Logger } from '../../ports/logger.ts';
import { NoPreview, NotATest } from './author-preview.ts';
import { stillEditor } from './preview-access.ts';
import { Refused } from './preview-refused.ts';
import type { PreviewSocket, SignedIn } from './preview-socket-data.ts';

/** Takes one event of a preview socket: its payload checked against `schema`, `action`'s value the ack's. */
export type PreviewEventHandler = <S extends z.ZodType, T>(
  event: string,
  schema: S,
  action: (payload: z.infer<S>) => Promise<T>,
) => void;

/** The failure a preview event answers with when `error` is one the author can act on; undefined when it is ours. */
function knownFailure(error: unknown): PreviewError | undefined {
  const failure = (code: PreviewErrorCode, message: string, problems?: PreviewError['problems']): PreviewError => ({
    code,
    message,
    ...(problems ? { problems } : {}),
  });
  if (error instanceof Refused) return failure(error.code, error.message, error.problems);
  if (error instanceof DefinitionError)
    return failure(
      'definition_invalid',
      'The draft has errors to fix before it can run.',
      error.problems.map((message) => ({ path: '', message })),
    );
  if (error instanceof NoPreview) return failure('no_preview', error.message);
  if (error instanceof NotATest) return failure('not_a_test', error.message);
  if (error instanceof UnknownDialogError) return failure('invalid_payload', error.message);
  // The store did not take the message within TURN_DEADLINE: logged once where the turn ran (app/turn-deadline.ts).
  if (error instanceof DeadlinePassed) return failure('internal', 'That could not be sent just now. Please try again.');
  return undefined;
}

/**
 * The events of one preview socket: each payload bounded and checked, the caller signed in again, the socket's
 * share of events per minute spent, every failure answered with a code.
 */
export function previewEvents(
  socket: PreviewSocket,
  bucket: TokenBucket,
  check: { readonly signedIn: SignedIn; readonly logger: Logger },
): PreviewEventHandler {
  return (event, schema, action) => {
    socket.on(event, ((payload: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as PreviewAck<unknown>) : () => undefined;
      const fail = (code: PreviewErrorCode, message: string) => reply({ ok: false, error: { code, message } });
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
        await stillEditor(check.signedIn, socket);
        reply({ ok: true, value: await action(parsed.data) });
      })().catch((error: unknown) => {
        const known = knownFailure(error);
        if (known) return reply({ ok: false, error: known });
        check.logger.error(
          { event: 'preview_event_failed', accountId: socket.data.accountId, previewEvent: event, err: error },
          'a studio preview event failed',
        );
        fail('internal', 'That could not be done. Please try again.');
      });
    }) as never);
  };
}
