import { describe, expect, it } from 'vitest';
import { buildMerge, conflicts, mergeUnits } from './merge.ts';
import type { DefinitionDoc } from './types.ts';

const bot = (dialogs: DefinitionDoc['dialogs'], fields: string[] = []): DefinitionDoc => ({
  settings: { id: 'b', name: 'B', startDialog: 'a' },
  userDataFields: fields,
  dialogs,
});
const say = (id: string, text: string) => ({ id, steps: [{ id: 's', type: 'message', text }] });

describe('merging a save on a stale base', () => {
  it('when each side changed other dialogs, then both changes are kept with no question asked', () => {
    const base = bot([say('a', 'A'), say('b', 'B')]);
    const theirs = bot([say('a', 'A!'), say('b', 'B')]);
    const yours = bot([say('a', 'A'), say('b', 'B?'), say('c', 'new')]);
    const units = mergeUnits(base, theirs, yours);
    expect(conflicts(units)).toEqual([]);
    const merged = buildMerge(units);
    expect(merged.dialogs.map((d) => [d.id, d.steps[0]!.text])).toEqual([
      ['a', 'A!'],
      ['b', 'B?'],
      ['c', 'new'],
    ]);
  });

  it('when both changed the same dialog, then it is a conflict, yours by default and theirs when chosen', () => {
    const base = bot([say('a', 'A')]);
    const units = mergeUnits(base, bot([say('a', 'theirs')]), bot([say('a', 'yours')]));
    expect(conflicts(units).map((u) => u.key)).toEqual(['dialog:a']);
    expect(buildMerge(units).dialogs[0]!.steps[0]!.text).toBe('yours');
    expect(buildMerge(units, new Map([['dialog:a', 'theirs']])).dialogs[0]!.steps[0]!.text).toBe('theirs');
  });

  it('when they deleted a dialog you left alone, then it stays deleted; when they added one, it comes in after its neighbour', () => {
    const base = bot([say('a', 'A'), say('b', 'B')]);
    const merged = buildMerge(
      mergeUnits(base, bot([say('a', 'A'), say('x', 'X')]), bot([say('a', 'A!'), say('b', 'B')])),
    );
    expect(merged.dialogs.map((d) => d.id)).toEqual(['a', 'x']);
  });

  it('when both declared new user-data fields, then the lists are joined', () => {
    const base = bot([say('a', 'A')], ['name']);
    const merged = buildMerge(
      mergeUnits(base, bot([say('a', 'A')], ['name', 'email']), bot([say('a', 'A')], ['name', 'plan'])),
    );
    expect(merged.userDataFields).toEqual(['name', 'plan', 'email']);
  });
});
