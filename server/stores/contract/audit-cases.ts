import { expect, it } from 'vitest';
import type { AuditEntry, AuditStore } from '../../ports/audit.ts';

const entry = (id: string, at: number, action = 'login'): AuditEntry => ({
  id,
  at,
  actor: { kind: 'account', accountId: 'a1', email: 'ana@example.com' },
  ip: '192.0.2.1',
  action,
  target: 'a1',
  details: { role: { from: 'viewer', to: 'editor' }, list: [1, 'two'] },
});

export function studioAuditCases(audit: () => AuditStore): void {
  it('when entries are appended, then they read back whole, in id order, within the half-open time range', async () => {
    await audit().appendAudit(entry('0000000002000-b', 2000));
    await audit().appendAudit(entry('0000000001000-a', 1000));
    await audit().appendAudit(entry('0000000003000-c', 3000, 'logout'));
    expect(await audit().readAudit({ limit: 10 })).toEqual([
      entry('0000000001000-a', 1000),
      entry('0000000002000-b', 2000),
      entry('0000000003000-c', 3000, 'logout'),
    ]);
    expect((await audit().readAudit({ fromAt: 2000, toAt: 3000, limit: 10 })).map((e) => e.id)).toEqual([
      '0000000002000-b',
    ]);
  });

  it('when the trail is read in pages, then each page starts after the last id of the one before and none is repeated or missed', async () => {
    for (let i = 0; i < 7; i++) await audit().appendAudit(entry(`00000000010${i}0-${i}`, 1000 + i * 10));
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await audit().readAudit({ limit: 3, ...(after ? { after } : {}) });
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.id));
      after = page.at(-1)!.id;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual([...seen].sort());
  });

  it('when retention purges before a time, then only older entries go', async () => {
    await audit().appendAudit(entry('0000000001000-a', 1000));
    await audit().appendAudit(entry('0000000002000-b', 2000));
    expect(await audit().purgeAuditBefore(2000)).toBe(1);
    expect((await audit().readAudit({ limit: 10 })).map((e) => e.id)).toEqual(['0000000002000-b']);
  });

  it('when an entry has no ip, target or details, then it reads back without them', async () => {
    await audit().appendAudit({
      id: '0000000001000-x',
      at: 1000,
      actor: { kind: 'system' },
      action: 'setup_link_created',
    });
    expect(await audit().readAudit({ limit: 1 })).toEqual([
      { id: '0000000001000-x', at: 1000, actor: { kind: 'system' }, action: 'setup_link_created' },
    ]);
  });
}
