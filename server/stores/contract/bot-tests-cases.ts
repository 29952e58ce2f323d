import { expect, it } from 'vitest';
import type { BotTestsRoom } from '../../ports/bot-tests.ts';

/** The bot-tests room's contract: one document, replaced only on the revision it was read at. */
export function studioBotTestsCases(room: () => BotTestsRoom): void {
  it('when no test was saved yet, then there is none, and the first save is revision 1', async () => {
    expect(await room().read()).toBeNull();
    expect(await room().write('[{"name":"a"}]', null, 'acc-1', 1_000)).toEqual({
      body: '[{"name":"a"}]',
      revision: 1,
      updatedAt: 1_000,
      updatedBy: 'acc-1',
    });
    expect(await room().read()).toEqual({ body: '[{"name":"a"}]', revision: 1, updatedAt: 1_000, updatedBy: 'acc-1' });
  });

  it('when two saves start from the same revision, then the second is refused and the first kept', async () => {
    await room().write('[]', null, 'acc-1', 1_000);
    expect(await room().write('[{"name":"first"}]', 1, 'acc-1', 2_000)).toMatchObject({ revision: 2 });
    expect(await room().write('[{"name":"second"}]', 1, 'acc-2', 3_000)).toBe('conflict');
    expect(await room().write('[{"name":"again"}]', null, 'acc-2', 3_000)).toBe('conflict');
    expect(await room().read()).toEqual({
      body: '[{"name":"first"}]',
      revision: 2,
      updatedAt: 2_000,
      updatedBy: 'acc-1',
    });
  });
}
