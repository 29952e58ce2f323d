import type { ChannelInbox, InboundEvent } from '../../ports/channel-inbox.ts';
import type { Database } from './database.ts';
import { groupCommit } from './group-commit.ts';
import { SCHEDULE_JOB_SQL, scheduleParams } from './job-table.ts';

/** The connectors' inbound events on the embedded store (migration 18): the primary key is the unique (channel, event id). */
export function sqliteChannelInbox(db: Database): ChannelInbox {
  // One statement: the insert either takes the key or leaves the first row, never read-then-write.
  const insert = db.prepare<[string, string, string, number]>(
    'INSERT INTO channel_inbound (channel, event_id, job_id, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (channel, event_id) DO NOTHING',
  );
  const first = db.prepare<[string, string], { job_id: string; received_at: number }>(
    'SELECT job_id, received_at FROM channel_inbound WHERE channel = ? AND event_id = ?',
  );
  const schedule = db.prepare(SCHEDULE_JOB_SQL);
  const purge = db.prepare<[number]>('DELETE FROM channel_inbound WHERE received_at < ?');
  // Webhooks come in bursts: each event and its job join the group commit (one transaction for all asked in
  // the same turn of the event loop), durable before its caller hears back; the event and its job in one
  // savepoint, so neither is stored without the other.
  const accept = groupCommit(db, (event: InboundEvent) => {
    if (insert.run(event.channel, event.eventId, event.job.id, event.receivedAt).changes === 1) {
      schedule.run(...scheduleParams(event.job));
      return { fresh: true, jobId: event.job.id, receivedAt: event.receivedAt };
    }
    const stored = first.get(event.channel, event.eventId);
    return {
      fresh: false,
      jobId: stored?.job_id ?? event.job.id,
      receivedAt: stored?.received_at ?? event.receivedAt,
    };
  });
  return {
    accept,
    async purge(before) {
      return purge.run(before).changes;
    },
  };
}
