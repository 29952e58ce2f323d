import { expect, it } from 'vitest';
import type { RestingUsers } from '../../ports/resting-users.ts';
import type { Store } from '../../ports/store.ts';

export function restingUsersCases(subject: () => { readonly store: Store; readonly resting: RestingUsers }): void {
  const place = async (userId: string, position: { dialogId: string; stepId: string } | null) => {
    const user = await subject().store.ensureUser({ userId, channelId: 'webchat', now: 1 });
    await subject().store.updateUser(
      userId,
      user.version,
      { position: position && { ...position, awaiting: true, retries: 0 } },
      2,
    );
  };

  it('when users rest on several steps, then each position asked gets the number of users on it, in the order asked', async () => {
    await place('u1', { dialogId: 'order', stepId: 'ask' });
    await place('u2', { dialogId: 'order', stepId: 'ask' });
    await place('u3', { dialogId: 'order', stepId: 'confirm' });
    await place('u4', { dialogId: 'help', stepId: 'ask' });
    await place('u5', null);
    await place('u6', { dialogId: 'order.x', stepId: 'ask' });
    const counts = await subject().resting.countResting([
      { dialogId: 'help', stepId: 'ask' },
      { dialogId: 'order', stepId: 'ask' },
      { dialogId: 'order', stepId: 'gone' },
      { dialogId: 'order', stepId: 'confirm' },
      { dialogId: 'order.x', stepId: 'ask' },
    ]);
    expect(counts).toEqual([1, 2, 0, 1, 1]);
    expect(await subject().resting.countResting([])).toEqual([]);
  });

  it('when a user moves on, then they are counted where they rest now', async () => {
    await place('u1', { dialogId: 'order', stepId: 'ask' });
    const user = (await subject().store.getUser('u1'))!;
    await subject().store.updateUser(
      'u1',
      user.version,
      { position: { dialogId: 'order', stepId: 'confirm', awaiting: true, retries: 0 } },
      3,
    );
    expect(
      await subject().resting.countResting([
        { dialogId: 'order', stepId: 'ask' },
        { dialogId: 'order', stepId: 'confirm' },
      ]),
    ).toEqual([0, 1]);
  });
}
