import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DesignerBackend, Draft } from '../backend/backend.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { DesignerState } from './designer-state.ts';

const V1: DefinitionDoc = {
  settings: { id: 'b', name: 'Bot', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'done', type: 'end' }] }],
};

/** The same content with every object's keys in the opposite order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, inner]) => [key, reversedKeys(inner)]),
    );
  return value;
}

/** The studio's API as the designer sees it, in memory: versions by id, one draft. */
function backend(draft: Draft, versions: Map<string, DefinitionDoc>): DesignerBackend {
  let revision = draft.revision;
  return {
    session: () => Promise.resolve({ accountId: 'a1', name: 'Ed', role: 'editor' }),
    catalogue: () => Promise.resolve({ schema: {}, stepTypes: [] }),
    loadDraft: () => Promise.resolve(draft),
    loadHead: () => Promise.reject(new Error('not for editors')),
    saveDraft: () => Promise.resolve({ revision: ++revision }),
    saveVersion: ({ definition }) => {
      const id = `v${versions.size + 1}`;
      versions.set(id, definition);
      return Promise.resolve({ id });
    },
    check: () => Promise.resolve([]),
    secretNames: () => Promise.resolve(['B_TOKEN', 'A_TOKEN']),
    // The server keeps its own key order: content, not text, tells an edit.
    loadVersion: (id) => Promise.resolve(reversedKeys(versions.get(id)) as DefinitionDoc),
    presence: () => Promise.resolve([]),
  };
}

/**
 * Requests the test answers by hand, in order: what each asked about, and how many were under way
 * at once at most.
 */
function heldRequests<A, T>(answer: T) {
  const pending: (() => void)[] = [];
  let inFlight = 0;
  const held = {
    asked: [] as A[],
    most: 0,
    request: (about: A): Promise<T> => {
      held.asked.push(about);
      held.most = Math.max(held.most, ++inFlight);
      return new Promise((resolve) =>
        pending.push(() => {
          inFlight--;
          resolve(answer);
        }),
      );
    },
    answerNext: () => pending.shift()?.(),
  };
  return held;
}

describe('whether the designer has edits since the last saved version', () => {
  let state: DesignerState | undefined;
  afterEach(() => state?.dispose());

  it('when the draft is the saved version, then there is nothing unsaved; an edit makes it unsaved, and undoing it makes it saved again', async () => {
    state = new DesignerState(backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]])));
    await state.load();
    expect(await state.hasUnsavedEdits()).toBe(false);
    state.edit('rename', (d) => ({ ...d, settings: { ...d.settings, name: 'Shop bot' } }));
    expect(await state.hasUnsavedEdits()).toBe(true);
    state.undo();
    expect(await state.hasUnsavedEdits()).toBe(false);
  });

  it('when the edits are saved as a version, then nothing is unsaved any more', async () => {
    state = new DesignerState(backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]])));
    await state.load();
    state.edit('rename', (d) => ({ ...d, settings: { ...d.settings, name: 'Shop bot' } }));
    const saved = await state.saveVersion('name');
    expect(saved).toMatchObject({ ok: true, id: 'v2' });
    expect(await state.hasUnsavedEdits()).toBe(false);
  });

  it('when the draft rests on no version yet, or was edited before this page opened, then it counts as unsaved', async () => {
    state = new DesignerState(backend({ baseVersionId: null, definition: V1, revision: 0 }, new Map()));
    await state.load();
    expect(await state.hasUnsavedEdits()).toBe(true);
    state.dispose();
    const edited = { ...V1, settings: { ...V1.settings, name: 'Draft name' } };
    state = new DesignerState(backend({ baseVersionId: 'v1', definition: edited, revision: 3 }, new Map([['v1', V1]])));
    await state.load();
    expect(await state.hasUnsavedEdits()).toBe(true);
  });

  it('when the secrets are loaded, then the designer knows their names in order and nothing else', async () => {
    state = new DesignerState(backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]])));
    await state.load();
    await state.loadSecrets();
    expect(state.secrets).toEqual(['A_TOKEN', 'B_TOKEN']);
  });
});

describe('where this editor is, as the others see it', () => {
  let state: DesignerState | undefined;
  afterEach(() => state?.dispose());

  it('when the first dialog opens while the opening beat is still on its way, then the dialog is said after it, never beside it', async () => {
    const beats = heldRequests<string | undefined, []>([]);
    const base = backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]]));
    state = new DesignerState({ ...base, presence: beats.request });
    await state.load();
    state.here('main');
    state.here('main');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(beats.asked).toEqual([undefined]);
    beats.answerNext();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The server's last word is where the editor is now.
    expect(beats.asked).toEqual([undefined, 'main']);
    beats.answerNext();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(beats.asked).toEqual([undefined, 'main']);
    expect(beats.most).toBe(1);
  });
});

describe('the server check while typing', () => {
  let state: DesignerState | undefined;
  afterEach(() => state?.dispose());

  const named = (name: string) => (d: DefinitionDoc) => ({ ...d, settings: { ...d.settings, name } });

  it('when keys come while a check is under way, then the next check asks about the latest text, and never two at once', async () => {
    const checks = heldRequests<DefinitionDoc, []>([]);
    const asked = () => checks.asked.map((definition) => definition.settings.name);
    state = new DesignerState({
      ...backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]])),
      check: checks.request,
    });
    await state.load();
    await vi.waitFor(() => expect(asked()).toEqual(['Bot']));
    for (const name of ['S', 'Sh', 'Sho']) state.edit('name', named(name), 'name');
    checks.answerNext();
    await vi.waitFor(() => expect(asked()).toEqual(['Bot', 'Sho']));
    checks.answerNext();
    await vi.waitFor(() => expect(state!.checkCount).toBe(2));
    expect(asked()).toEqual(['Bot', 'Sho']);
    expect(checks.most).toBe(1);
  });

  it('when a check finds the problems already shown, then the designer is not redrawn; when it finds a new one, it is', async () => {
    state = new DesignerState({
      ...backend({ baseVersionId: 'v1', definition: V1, revision: 1 }, new Map([['v1', V1]])),
      check: (definition) =>
        Promise.resolve(
          (definition.settings.name ?? '').includes('{{')
            ? [{ path: 'settings.name', severity: 'error' as const, message: 'unknown variable' }]
            : [],
        ),
    });
    await state.load();
    await vi.waitFor(() => expect(state!.checkCount).toBe(1));
    let redraws = 0;
    state.subscribe(() => redraws++);
    state.edit('name', named('Shop'), 'name');
    await vi.waitFor(() => expect(state!.checkCount).toBe(2));
    // The edit itself, and nothing for an answer that changes nothing.
    expect(redraws).toBe(1);
    state.edit('name', named('Shop {{x}}'), 'name');
    await vi.waitFor(() => expect(state!.problems).toHaveLength(1));
    expect(redraws).toBe(3);
    expect(state.byStep.size).toBe(0);
    expect(state.blocksPublish).toBe(true);
  });
});
