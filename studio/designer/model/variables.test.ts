import { describe, expect, it } from 'vitest';
import { namesAt, variableIndex } from './variables.ts';
import { everyReference } from './test/fixtures.ts';

describe('the variables panel and template autocomplete', () => {
  it('when the index is built, then each name lists where it is set and where it is used', () => {
    const index = variableIndex(everyReference());
    const plan = index.get('plan')!;
    expect(plan.kind).toBe('userData');
    expect(plan.sets.map((p) => p.path.join('.'))).toEqual(['userDataFields.1', 'dialogs.0.steps.1.saveTo.userData']);
    expect(plan.uses.map((p) => p.path.join('.'))).toEqual([
      'dialogs.0.steps.2.branches.0.when.variable',
      'dialogs.0.steps.3.params.endpoint',
    ]);
    const result = index.get('result')!;
    expect(result).toMatchObject({ kind: 'variable' });
    expect(result.sets.map((p) => p.path.join('.'))).toEqual(['dialogs.0.steps.3.output']);
    expect(result.uses.map((p) => p.path.join('.'))).toEqual(['dialogs.0.steps.6.text']);
    expect(index.get('email')!.uses.map((p) => p.path.join('.'))).toContain('faq.0.answer');
  });

  it('when a step is reached only before an integration sets its output, then its template cannot offer that output; after it, it can', () => {
    const definition = everyReference();
    const beforeCall = namesAt(definition, { dialog: 0, step: 0 }).map((n) => n.name);
    // "hello" can be reached again through a card button after "call" ran: offered.
    expect(beforeCall).toContain('result');
    const help = namesAt(definition, { dialog: 1, step: 0 }).map((n) => n.name);
    expect(help).toEqual(
      expect.arrayContaining(['email', 'plan', 'pageData', 'triggerData', 'lastPageEvent', 'result']),
    );
    const fresh = {
      ...definition,
      dialogs: [
        {
          id: 'a',
          steps: [
            { id: 'one', type: 'message', text: 'x' },
            { id: 'two', type: 'set', actions: [{ op: 'set', variable: 'later', value: 1 }] },
          ],
        },
      ],
    };
    expect(namesAt(fresh, { dialog: 0, step: 0 }).map((n) => n.name)).not.toContain('later');
  });

  it('when the template is an integration parameter, then userId, userData and variables are offered too', () => {
    const names = namesAt(everyReference(), { dialog: 0, step: 3 }, true).map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['userId', 'userData', 'variables']));
  });
});
