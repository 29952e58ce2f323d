import { expect, it } from 'vitest';
import type { Sessions, StudioSession } from '../../ports/sessions.ts';

const session = (id: string, accountId: string, lastSeenAt = 1000, expiresAt = 100_000): StudioSession => ({
  id,
  accountId,
  csrfToken: `csrf-${id}`,
  createdAt: 1000,
  lastSeenAt,
  expiresAt,
  ip: '192.0.2.7',
  userAgent: 'Test browser',
  method: 'password',
});

export function studioSessionCases(sessions: () => Sessions): void {
  it('when a session is created, then it is found by id as given, and a deleted one is not', async () => {
    await sessions().createSession(session('s1', 'a1'));
    expect(await sessions().sessionById('s1')).toEqual(session('s1', 'a1'));
    expect(await sessions().deleteSession('s1')).toBe(true);
    expect(await sessions().sessionById('s1')).toBeNull();
    expect(await sessions().deleteSession('s1')).toBe(false);
  });

  it('when a session is touched, then its activity moves forward and never back', async () => {
    await sessions().createSession(session('s1', 'a1', 1000));
    await sessions().touchSession('s1', 5000);
    await sessions().touchSession('s1', 3000);
    expect((await sessions().sessionById('s1'))?.lastSeenAt).toBe(5000);
  });

  it('when an account logs out everywhere but here, then its other sessions end and other accounts keep theirs', async () => {
    await sessions().createSession(session('s1', 'a1', 1000));
    await sessions().createSession(session('s2', 'a1', 3000));
    await sessions().createSession(session('s3', 'a1', 2000));
    await sessions().createSession(session('s4', 'a2'));
    expect((await sessions().listSessions('a1')).map((s) => s.id)).toEqual(['s2', 's3', 's1']);
    expect(await sessions().deleteSessionsOf('a1', 's3')).toBe(2);
    expect((await sessions().listSessions('a1')).map((s) => s.id)).toEqual(['s3']);
    expect(await sessions().deleteSessionsOf('a1')).toBe(1);
    expect(await sessions().listSessions('a1')).toEqual([]);
    expect(await sessions().sessionById('s4')).not.toBeNull();
  });

  it('when expired sessions are purged, then those past either timeout go and the others stay', async () => {
    await sessions().createSession(session('fresh', 'a1', 9000, 20_000));
    await sessions().createSession(session('idle', 'a1', 1000, 20_000));
    await sessions().createSession(session('old', 'a1', 9500, 9999));
    expect(await sessions().purgeExpiredSessions(10_000, 5000)).toBe(2);
    expect((await sessions().listSessions('a1')).map((s) => s.id)).toEqual(['fresh']);
  });
}
