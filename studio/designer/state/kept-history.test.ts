import { afterEach, describe, expect, it } from 'vitest';
import type { DesignerBackend, Draft } from '../backend/backend.ts';
import { readShared, writeShared } from '../model/shared-trees.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { DesignerState } from './designer-state.ts';
import type { HistoryStorage } from './kept-history.ts';
import { whenIdle } from './when-idle.ts';

const V1: DefinitionDoc = {
  settings: { id: 'b', name: 'Bot', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'done', type: 'end' }] }],
};

/** A tab's session storage in memory; past `quota` characters it refuses what does not fit, as a browser's does. */
function tabStorage(): HistoryStorage & { quota: number; size(): number } {
  const items = new Map<string, string>();
  return {
    quota: Number.POSITIVE_INFINITY,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      if (value.length > this.quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => void items.delete(key),
    size: () => [...items.values()].reduce((n, value) => n + value.length, 0),
  };
}

/** The studio's draft as the server keeps it: what was last saved, and its revision. */
function server(initial: Draft, accountId = 'a1') {
  let draft = initial;
  const backend = (who = accountId): DesignerBackend => ({
    session: () => Promise.resolve({ accountId: who, name: 'Ed', role: 'editor' }),
    catalogue: () => Promise.resolve({ schema: {}, stepTypes: [] }),
    loadDraft: () => Promise.resolve(structuredClone(draft)),
    loadHead: () => Promise.reject(new Error('not for editors')),
    saveDraft: ({ baseVersionId, definition }) => {
      draft = { baseVersionId, definition: structuredClone(definition), revision: draft.revision + 1 };
      return Promise.resolve({ revision: draft.revision });
    },
    saveVersion: () => Promise.resolve({ id: 'v2' }),
    check: () => Promise.resolve([]),
    secretNames: () => Promise.resolve([]),
    loadVersion: () => Promise.resolve(V1),
    presence: () => Promise.resolve([]),
  });
  return { backend, saveElsewhere: (definition: DefinitionDoc) => backend().saveDraft({ ...draft, definition }) };
}

const addStep = (id: string) => (d: DefinitionDoc) => ({
  ...d,
  dialogs: d.dialogs.map((dialog) => ({ ...dialog, steps: [{ id, type: 'text', text: id }, ...dialog.steps] })),
});
/** The page is left (a reload): what the history waited for idle time with is written then, as on pagehide. */
const leave = (state: DesignerState) => state.keepHistoryNow();
const stepIds = (state: DesignerState) => state.definition?.dialogs[0]?.steps.map((step) => step.id);

describe('the undo history across a reload of the page', () => {
  const open: DesignerState[] = [];
  afterEach(() => open.splice(0).forEach((state) => state.dispose()));
  const designer = async (backend: DesignerBackend, storage: HistoryStorage) => {
    const state = new DesignerState(backend, storage);
    open.push(state);
    await state.load();
    return state;
  };

  it('when steps are added and saved and the page is reloaded, then undo names the last step, takes both back in turn, and redo brings them again', async () => {
    const { backend } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend(), storage);
    before.edit("add step 'ask'", addStep('ask'));
    before.edit("add step 'thanks'", addStep('thanks'));
    await before.flushDraft();
    expect(before.draftStatus).toBe('saved');
    leave(before);

    const after = await designer(backend(), storage);
    expect(stepIds(after)).toEqual(['thanks', 'ask', 'done']);
    expect(after.history?.undoLabel).toBe("add step 'thanks'");
    expect(after.undo()).toBe("add step 'thanks'");
    expect(after.undo()).toBe("add step 'ask'");
    expect(stepIds(after)).toEqual(['done']);
    expect(after.history?.canUndo).toBe(false);
    expect(after.redo()).toBe("add step 'ask'");
    expect(stepIds(after)).toEqual(['ask', 'done']);
  });

  it('when edits follow a save before the page idles and the page is then reloaded, then the history of the saved draft comes back', async () => {
    const { backend } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend(), storage);
    before.edit("add step 'ask'", addStep('ask'));
    await before.flushDraft();
    before.edit("add step 'unsaved'", addStep('unsaved'));
    leave(before);

    const after = await designer(backend(), storage);
    expect(stepIds(after)).toEqual(['ask', 'done']);
    expect(after.history?.undoLabel).toBe("add step 'ask'");
  });

  it('when an undo is saved before the reload, then redo is still offered after it', async () => {
    const { backend } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend(), storage);
    before.edit("add step 'ask'", addStep('ask'));
    await before.flushDraft();
    before.undo();
    await before.flushDraft();
    leave(before);

    const after = await designer(backend(), storage);
    expect(stepIds(after)).toEqual(['done']);
    expect(after.history?.redoLabel).toBe("add step 'ask'");
    expect(after.redo()).toBe("add step 'ask'");
  });

  it('when someone else saved the draft since, then the reloaded page starts a new history rather than undo their work', async () => {
    const { backend, saveElsewhere } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend(), storage);
    before.edit("add step 'ask'", addStep('ask'));
    await before.flushDraft();
    leave(before);
    await saveElsewhere(addStep('theirs')(before.definition!));

    const after = await designer(backend(), storage);
    expect(stepIds(after)).toEqual(['theirs', 'ask', 'done']);
    expect(after.history?.canUndo).toBe(false);
  });

  it("when another person signs in on the same tab, then they do not get the first one's history", async () => {
    const { backend } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend('a1'), storage);
    before.edit("add step 'ask'", addStep('ask'));
    await before.flushDraft();
    leave(before);

    const other = await designer(backend('a2'), storage);
    expect(stepIds(other)).toEqual(['ask', 'done']);
    expect(other.history?.canUndo).toBe(false);
  });

  it("when the tab's storage is nearly full, then the newest steps are kept and the oldest go", async () => {
    const { backend } = server({ baseVersionId: 'v1', definition: V1, revision: 1 });
    const storage = tabStorage();
    const before = await designer(backend(), storage);
    for (let i = 0; i < 40; i++) before.edit(`add step 's${i}'`, addStep(`s${i}`));
    await before.flushDraft();
    // The page idles after each save: the history is written then, without leaving the page.
    await whenIdle();
    // Room for about half of the history from now on.
    storage.quota = Math.round(storage.size() * 0.6);
    before.edit("add step 'last'", addStep('last'));
    await before.flushDraft();
    await whenIdle();

    const after = await designer(backend(), storage);
    expect(after.history?.undoLabel).toBe("add step 'last'");
    let undone = 0;
    while (after.undo() !== undefined) undone++;
    expect(undone).toBeGreaterThan(5);
    expect(undone).toBeLessThan(41);
    expect(stepIds(after)).not.toEqual(['done']);
  });
});

describe('trees written with what they share', () => {
  it('when 200 edits of a large bot are written, then it costs about one bot plus the edits, and reading gives the same trees sharing again', () => {
    const big: DefinitionDoc = {
      ...V1,
      dialogs: Array.from({ length: 60 }, (_, d) => ({
        id: `d${d}`,
        steps: Array.from({ length: 8 }, (_, s) => ({ id: `s${s}`, type: 'text', text: `Step ${s} of dialog ${d}` })),
      })),
    };
    const states = [big];
    for (let i = 0; i < 200; i++) {
      const last = states.at(-1)!;
      const at = i % 60;
      states.push({
        ...last,
        dialogs: last.dialogs.map((dialog, d) =>
          d === at ? { ...dialog, steps: [{ id: `n${i}`, type: 'text', text: 'new' }, ...dialog.steps] } : dialog,
        ),
      });
    }
    const written = writeShared(states);
    expect(written.length).toBeLessThan(JSON.stringify(big).length * 6.5);
    const read = readShared(JSON.parse(written)) as DefinitionDoc[];
    expect(read).toEqual(states);
    expect(read[1]!.dialogs[5]).toBe(read[0]!.dialogs[5]);
  });

  it('when the trees are written again after an edit, then what did not change is written as before, and reading gives the edit', () => {
    const first = { ...V1, dialogs: [...V1.dialogs, { id: 'help', steps: [{ id: 'ask', type: 'end' }] }] };
    const edited = { ...first, settings: { ...first.settings, name: 'Renamed' } };
    const before = JSON.parse(writeShared([first])) as { nodes: Record<string, unknown> };
    const after = JSON.parse(writeShared([first, edited])) as { nodes: Record<string, unknown> };
    for (const [id, node] of Object.entries(before.nodes)) expect(after.nodes[id]).toEqual(node);
    const [readFirst, readEdited] = readShared(after as never) as DefinitionDoc[];
    expect(readFirst).toEqual(first);
    expect(readEdited).toEqual(edited);
    expect(readEdited!.dialogs).toBe(readFirst!.dialogs);
  });

  it('when a key is named __proto__, then it comes back as a key', () => {
    const tree = JSON.parse('{"a":{"__proto__":{"x":1}},"b":[1,"two",null,true]}');
    const [read] = readShared(JSON.parse(writeShared([tree])));
    expect(Object.keys((read as { a: object }).a)).toEqual(['__proto__']);
    expect(read).toEqual(tree);
  });
});
