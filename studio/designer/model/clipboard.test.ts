import { describe, expect, it } from 'vitest';
import { botDefinitionSchema } from '../../../server/definition/schema.ts';
import { checkReferences } from '../../../server/definition/references.ts';
import { copyDialogs, copySteps, pasteDialogs, pasteSteps, PasteError, readClipboard } from './clipboard.ts';
import { everyReference } from './test/fixtures.ts';
import type { DefinitionDoc } from './types.ts';

const serverProblems = (definition: DefinitionDoc) => checkReferences(botDefinitionSchema.parse(definition));

/** Another bot that already has an "order" dialog and no user-data fields. */
function otherBot(): DefinitionDoc {
  return {
    settings: { id: 'cafe', name: 'Café', startDialog: 'order' },
    dialogs: [{ id: 'order', steps: [{ id: 'coffee', type: 'message', text: 'Coffee?' }] }],
  };
}

describe('copy and paste of steps and dialogs', () => {
  it('when both dialogs of one bot are pasted into another bot that has an "order" dialog, then the pasted one is renamed and every jump follows it', () => {
    const text = JSON.stringify(copyDialogs(everyReference(), [0, 1]));
    const result = pasteDialogs(otherBot(), readClipboard(text), 1);
    expect(result.definition.dialogs.map((d) => d.id)).toEqual(['order', 'order-2', 'help']);
    expect(result.renamed).toEqual([{ from: 'order', to: 'order-2' }]);
    // Jumps among the pasted dialogs lead to the pasted copies, never to the other bot's "order".
    const help = result.definition.dialogs[2]!;
    expect(help.steps[0]!.onNoMatch).toEqual({ dialog: 'order-2', step: 'confirm' });
    expect(help.steps[2]!.onError).toEqual({ dialog: 'order-2' });
    expect(result.definition.dialogs[1]!.steps[0]!.cards).toEqual([
      { title: 'Card', buttons: [{ kind: 'dialog', label: 'Again', dialog: 'order-2' }] },
    ]);
    expect(result.declared).toEqual(['email', 'plan']);
    // The intent that started "order" starts the copy; the FAQ pairs are the bot's own, so check asks for them.
    expect(result.definition.intents).toEqual([{ id: 'buy', dialog: 'order-2', utterances: ['I want to buy'] }]);
    expect(serverProblems(result.definition)).toEqual([
      'dialogs[2].steps[0]: a faq step needs FAQ pairs; the definition has none',
    ]);
  });

  it('when steps are pasted into a dialog that has some of their ids, then they are renamed and their jumps among themselves follow', () => {
    const source = everyReference();
    const payload = readClipboard(JSON.stringify(copySteps(source, 1, [0, 1])));
    const result = pasteSteps(source, payload, 1, 4);
    const ids = result.definition.dialogs[1]!.steps.map((s) => s.id);
    expect(ids).toEqual(['faq', 'words', 'sms', 'done', 'faq-2', 'words-2']);
    // words-2 goes on to the pasted faq-2, as words went on to faq.
    expect(result.definition.dialogs[1]!.steps[5]!.onNoMatch).toBe('faq-2');
    expect(serverProblems(result.definition)).toEqual([]);
  });

  it('when steps of one dialog are pasted into another dialog of the same bot, then a jump to a step left behind leads there', () => {
    const source = everyReference();
    const payload = readClipboard(JSON.stringify(copySteps(source, 0, [1])));
    const result = pasteSteps(source, payload, 1, 0);
    // "ask" led to "confirm" in "order"; pasted into "help", it still does.
    const ask = result.definition.dialogs[1]!.steps[0]!;
    expect((ask.choices as unknown[])[0]).toEqual({ label: 'Pro', then: { dialog: 'order', step: 'confirm' } });
    expect(serverProblems(result.definition)).toEqual([]);
  });

  it('when a step whose `next` names a step left behind is pasted into another dialog, then `next` stays and check names it', () => {
    const source = everyReference();
    const result = pasteSteps(source, readClipboard(JSON.stringify(copySteps(source, 0, [0]))), 1, 0);
    expect(result.definition.dialogs[1]!.steps[0]!.next).toBe('ask');
    expect(serverProblems(result.definition)).toEqual(['dialogs[1].steps[0].next: no step "ask" in dialog "help"']);
  });

  it('when a person pastes a dialog copied from a definition file, then it is read as a dialog', () => {
    const payload = readClipboard(JSON.stringify({ id: 'extra', steps: [{ id: 'x', type: 'end' }] }));
    expect(payload).toMatchObject({ kind: 'dialogs', items: [{ id: 'extra' }] });
  });

  it('when the clipboard holds no JSON, nothing pasteable, or something too deep, then the paste is refused with the reason', () => {
    expect(() => readClipboard('hello')).toThrow(PasteError);
    expect(() => readClipboard('{"a":1}')).toThrowError('nothing');
    expect(() => readClipboard('['.repeat(100) + ']'.repeat(100))).toThrowError('tooDeep');
  });
});
