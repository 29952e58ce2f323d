import { describe, expect, it } from 'vitest';
import { botDefinitionSchema } from '../../../server/definition/schema.ts';
import { checkReferences } from '../../../server/definition/references.ts';
import {
  deleteStep,
  duplicateDialog,
  duplicateStep,
  insertStep,
  moveStep,
  renameDialog,
  renameStep,
} from './operations.ts';
import { listReferences } from './references.ts';
import { everyReference } from './test/fixtures.ts';
import type { DefinitionDoc } from './types.ts';

/** `chatbot check`'s own reference checks on a designer definition. */
const serverProblems = (definition: DefinitionDoc) => checkReferences(botDefinitionSchema.parse(definition));

describe('the outline editing operations', () => {
  it('when the fixture is checked by the server, then it is clean (so the cases below start from a working bot)', () => {
    expect(serverProblems(everyReference())).toEqual([]);
  });

  it('when a dialog is renamed, then every reference follows and the server finds nothing broken', () => {
    const before = everyReference();
    const after = renameDialog(before, 'help', 'support');
    expect(serverProblems(after)).toEqual([]);
    expect(listReferences(after).filter((ref) => ref.dialog === 'help')).toEqual([]);
    expect(listReferences(after).filter((ref) => ref.dialog === 'support')).toHaveLength(
      listReferences(before).filter((ref) => ref.dialog === 'help').length,
    );
    expect(after.dialogs[0]!.steps[3]!.onError).toBe('dialog:support');
    expect(after.dialogs[0]!.steps[0]!.buttons).toEqual([{ kind: 'dialog', label: 'Help', dialog: 'support' }]);
  });

  it('when the start dialog is renamed, then settings, intents, page events and card buttons follow', () => {
    const after = renameDialog(everyReference(), 'order', 'checkout');
    expect(after.settings.startDialog).toBe('checkout');
    expect(after.settings.recoveryDialog).toBe('checkout');
    expect(after.intents![0]!.dialog).toBe('checkout');
    expect(after.pageEvents![0]!.dialog).toBe('checkout');
    expect(serverProblems(after)).toEqual([]);
    // A reference within the dialog by bare step id stays bare.
    expect(after.dialogs[0]!.steps[0]!.next).toBe('ask');
  });

  it('when a step is renamed, then references from its own dialog and from others follow', () => {
    const after = renameStep(everyReference(), 0, 'confirm', 'thanks');
    expect(serverProblems(after)).toEqual([]);
    const ask = after.dialogs[0]!.steps[1]!;
    expect((ask.choices as { then: unknown }[])[0]!.then).toBe('thanks');
    expect(after.dialogs[0]!.steps[4]!.onError).toBe('thanks');
    expect(after.dialogs[1]!.steps[0]!.onNoMatch).toEqual({ dialog: 'order', step: 'thanks' });
  });

  it('when the step a goto names is renamed, then the goto follows', () => {
    const after = renameStep(everyReference(), 1, 'faq', 'questions');
    expect(after.dialogs[0]!.steps[7]).toMatchObject({ type: 'goto', dialog: 'help', step: 'questions' });
    expect(serverProblems(after)).toEqual([]);
  });

  it('when a step is inserted with an id that exists, then it gets a free one and the rest keep their order', () => {
    const after = insertStep(everyReference(), 1, 1, { id: 'faq', type: 'message', text: 'x' });
    expect(after.dialogs[1]!.steps.map((s) => s.id)).toEqual(['faq', 'faq-2', 'words', 'sms', 'done']);
  });

  it('when a step is moved down and back up, then the order is as before and nothing else changed', () => {
    const before = everyReference();
    const moved = moveStep(before, 1, 0, 2);
    expect(moved.dialogs[1]!.steps.map((s) => s.id)).toEqual(['words', 'sms', 'faq', 'done']);
    expect(moveStep(moved, 1, 2, 0)).toEqual(before);
    // Untouched dialogs are the same objects: the history and the elements rely on it.
    expect(moved.dialogs[0]).toBe(before.dialogs[0]);
  });

  it('when a step is duplicated or deleted, then it appears after itself under a free id, or is gone', () => {
    const duplicated = duplicateStep(everyReference(), 1, 1);
    expect(duplicated.dialogs[1]!.steps.map((s) => s.id)).toEqual(['faq', 'words', 'words-2', 'sms', 'done']);
    expect(deleteStep(duplicated, 1, 2).dialogs[1]!.steps.map((s) => s.id)).toEqual(['faq', 'words', 'sms', 'done']);
  });

  it('when a dialog is duplicated, then its references to itself lead to the copy', () => {
    const after = duplicateDialog(everyReference(), 0);
    expect(after.dialogs.map((d) => d.id)).toEqual(['order', 'order-2', 'help']);
    const copy = after.dialogs[1]!;
    expect((copy.steps[2]!.branches as { then: unknown }[])[1]!.then).toEqual({ dialog: 'order-2', step: 'ask' });
    expect(serverProblems(after)).toEqual([]);
  });
});
