import { z } from 'zod';
import { MAX_START_VALUES } from '../../../shared/preview-protocol.ts';
import type { AuthorPreview } from './author-preview.ts';
import type { PreviewEventHandler } from './preview-events.ts';
import { Refused } from './preview-refused.ts';
import type { PreviewSocket } from './preview-socket-data.ts';

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

/** The preview panel's control socket: start, restart, stop, answer held calls, run a wait now, save as test. */
export function controlSocket(
  socket: PreviewSocket,
  preview: AuthorPreview,
  room: string,
  on: PreviewEventHandler,
): void {
  void socket.join(room);
  socket.emit('state', preview.state() as never);
  on('start', startSchema, (payload) => preview.start(payload));
  on('stop', z.object({}).strict(), async () => {
    await preview.stop();
    return null;
  });
  on('answer', answerSchema, async ({ callId, answer }) => {
    const outcome = preview.answer(callId, answer);
    if (outcome === 'gone') throw new Refused('call_gone', 'That call was already answered, or the preview restarted.');
    if (outcome === 'unfit')
      throw new Refused(
        'invalid_payload',
        'That answer does not fit this call (a stub answers an HTTP call; email and SMS are skipped, failed or sent).',
      );
    return null;
  });
  on('run_timer', z.object({ timerId: stepName }).strict(), async ({ timerId }) => {
    if (!preview.runTimer(timerId))
      throw new Refused('timer_gone', 'That wait has already ended, or the preview restarted.');
    return null;
  });
  on('save_test', saveTestSchema, ({ name }) => preview.saveTest(name));
}
