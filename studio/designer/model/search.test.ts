import { describe, expect, it } from 'vitest';
import { formatPath, parsePath, setAt } from './paths.ts';
import { placeProblems } from './problems.ts';
import { searchDefinition } from './search.ts';
import { everyReference } from './test/fixtures.ts';

describe('search everywhere, paths and problem places', () => {
  it('when a word is searched, then step text, ids, values, FAQ and settings are found with their step', () => {
    const { hits } = searchDefinition(everyReference(), 'HELP');
    const places = hits.map((h) => `${h.path.join('.')}${h.at ? ` @${h.at.dialog}/${h.at.step}` : ''}`);
    expect(places).toContain('dialogs.1.id @1/0');
    expect(places).toContain('dialogs.0.steps.0.buttons.0.label @0/0');
    expect(places).toContain('dialogs.0.steps.3.onError @0/3');
    expect(searchDefinition(everyReference(), 'nine').hits.map((h) => h.path.join('.'))).toEqual(['faq.0.answer']);
    expect(searchDefinition(everyReference(), '  ').hits).toEqual([]);
  });

  it('when check paths are read, then they round-trip and problems land on their step and field', () => {
    for (const text of [
      'dialogs[2].steps[0].branches[1].when[0].value',
      'integrations.services["my api"].auth',
      'settings.startDialog',
    ])
      expect(formatPath(parsePath(text))).toBe(text);
    expect(parsePath('dialogs[0].steps[1].text (line 4)')).toEqual(['dialogs', 0, 'steps', 1, 'text']);
    const [onStep, outside] = placeProblems([
      { path: 'dialogs[1].steps[3].choices[0].then', severity: 'error', message: 'no step "x"' },
      { path: 'settings.startDialog', severity: 'error', message: 'no dialog' },
    ]);
    expect(onStep).toMatchObject({ at: { dialog: 1, step: 3 }, field: 'choices[0].then' });
    expect(outside).toMatchObject({ field: 'settings.startDialog' });
    expect(outside!.at).toBeUndefined();
  });

  it('when a value is set deep in a new place, then the containers on the way are made and the rest is shared', () => {
    const before = everyReference();
    const after = setAt(before, ['dialogs', 1, 'steps', 0, 'quickReplies', 0, 'label'], 'Yes');
    expect(after.dialogs[1]!.steps[0]!.quickReplies).toEqual([{ label: 'Yes' }]);
    expect(after.dialogs[0]).toBe(before.dialogs[0]);
    expect(before.dialogs[1]!.steps[0]!.quickReplies).toBeUndefined();
  });
});
