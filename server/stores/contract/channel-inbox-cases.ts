import { expect, it } from 'vitest';
import type { ChannelInbox } from '../../ports/channel-inbox.ts';
import type { Job } from '../../ports/store.ts';

const event = (eventId: string, jobId: string, receivedAt = 1_000, channel = 'telegram') => ({
  channel,
  eventId,
  job: { id: jobId, kind: 'channel_turn', payload: { eventId }, runAt: receivedAt, group: `turns:${channel}` },
  receivedAt,
});

/** The connectors' inbound events (ports/channel-inbox.ts): an adapter is done when these pass on it. */
export function channelInboxCases(
  subject: () => { readonly inbox: ChannelInbox; getJob(id: string): Promise<Job | null> },
): void {
  it('when an event is accepted for the first time, then it is fresh and keeps its job id', async () => {
    expect(await subject().inbox.accept(event('1', 'job-1'))).toEqual({
      fresh: true,
      jobId: 'job-1',
      receivedAt: 1_000,
    });
  });

  it('when an event is accepted, then its job is stored with it; a copy of it stores no job of its own', async () => {
    const { inbox, getJob } = subject();
    await inbox.accept(event('3', 'job-first'));
    await inbox.accept(event('3', 'job-copy', 2_000));
    expect(await getJob('job-first')).toMatchObject({
      kind: 'channel_turn',
      payload: { eventId: '3' },
      status: 'pending',
      runAt: 1_000,
      group: 'turns:telegram',
    });
    expect(await getJob('job-copy')).toBeNull();
  });

  it('when an event comes with a job leased to a worker, then the job is stored running under that lease', async () => {
    const { inbox, getJob } = subject();
    const leased = event('4', 'job-leased');
    await inbox.accept({ ...leased, job: { ...leased.job, lease: { owner: 'worker-a', until: 31_000 } } });
    expect(await getJob('job-leased')).toMatchObject({ status: 'running', leaseOwner: 'worker-a', leaseUntil: 31_000 });
  });

  it("when the same event arrives again later, then it is not fresh and names the first copy's job and time", async () => {
    const { inbox } = subject();
    await inbox.accept(event('7', 'job-a'));
    expect(await inbox.accept(event('7', 'job-b', 2_000))).toEqual({ fresh: false, jobId: 'job-a', receivedAt: 1_000 });
    expect(await inbox.accept(event('7', 'job-c', 3_000))).toEqual({ fresh: false, jobId: 'job-a', receivedAt: 1_000 });
  });

  it('when ten copies of one event arrive at the same moment, then exactly one is fresh and all name its job', async () => {
    const { inbox } = subject();
    const { getJob } = subject();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => inbox.accept(event('42', `job-${i}`))));
    const fresh = answers.filter((answer) => answer.fresh);
    expect(fresh).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.jobId))).toEqual(new Set([fresh[0]!.jobId]));
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => getJob(`job-${i}`)));
    expect(stored.filter((job) => job !== null).map((job) => job.id)).toEqual([fresh[0]!.jobId]);
  });

  it('when two channels send the same event id, then each is fresh on its own channel', async () => {
    const { inbox } = subject();
    expect((await inbox.accept(event('5', 'job-t', 1_000, 'telegram'))).fresh).toBe(true);
    expect((await inbox.accept(event('5', 'job-w', 1_000, 'whatsapp'))).fresh).toBe(true);
  });

  it('when events older than a time are purged, then only those are forgotten and may be accepted again', async () => {
    const { inbox } = subject();
    await inbox.accept(event('old', 'job-old', 1_000));
    await inbox.accept(event('new', 'job-new', 5_000));
    expect(await inbox.purge(2_000)).toBe(1);
    expect((await inbox.accept(event('old', 'job-again', 6_000))).fresh).toBe(true);
    expect((await inbox.accept(event('new', 'job-again', 6_000))).fresh).toBe(false);
  });
}
