import { expect, it } from 'vitest';
import type { PresenceBoard } from '../../ports/presence.ts';

/** The presence board's contract: one entry per account, the newest beat wins, old beats are not listed. */
export function studioPresenceCases(board: () => PresenceBoard): void {
  it('when two editors beat, then both are listed, newest first, with their dialogs', async () => {
    await board().beat({ accountId: 'a1', name: 'Ann', dialog: 'order', at: 1_000 });
    await board().beat({ accountId: 'b2', name: 'Bob', at: 2_000 });
    expect(await board().list(0)).toEqual([
      { accountId: 'b2', name: 'Bob', at: 2_000 },
      { accountId: 'a1', name: 'Ann', dialog: 'order', at: 1_000 },
    ]);
  });

  it('when an editor beats again, then their one entry moves to the new dialog and time', async () => {
    await board().beat({ accountId: 'a1', name: 'Ann', dialog: 'order', at: 1_000 });
    await board().beat({ accountId: 'a1', name: 'Ann', dialog: 'help', at: 1_500 });
    expect(await board().list(0)).toEqual([{ accountId: 'a1', name: 'Ann', dialog: 'help', at: 1_500 }]);
  });

  it('when an older beat arrives after a newer one (two tabs, two nodes), then the newer stays', async () => {
    await board().beat({ accountId: 'a1', name: 'Ann', dialog: 'help', at: 2_000 });
    await board().beat({ accountId: 'a1', name: 'Ann', dialog: 'order', at: 1_000 });
    expect(await board().list(0)).toEqual([{ accountId: 'a1', name: 'Ann', dialog: 'help', at: 2_000 }]);
  });

  it('when beats are older than the window, then they are not listed, and a purge forgets them', async () => {
    await board().beat({ accountId: 'a1', name: 'Ann', at: 1_000 });
    await board().beat({ accountId: 'b2', name: 'Bob', at: 5_000 });
    expect((await board().list(3_000)).map((b) => b.accountId)).toEqual(['b2']);
    expect(await board().purge(3_000)).toBe(1);
    expect((await board().list(0)).map((b) => b.accountId)).toEqual(['b2']);
  });
}
