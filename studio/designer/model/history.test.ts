import { describe, expect, it } from 'vitest';
import { History } from './history.ts';

describe('the undo history', () => {
  it('when edits are undone and redone, then each state comes back with its label', () => {
    const history = new History('a');
    history.push('b', 'add b', { at: 1 });
    history.push('c', 'add c', { at: 2 });
    expect(history.undo()).toBe('add c');
    expect(history.state).toBe('b');
    expect(history.undo()).toBe('add b');
    expect(history.state).toBe('a');
    expect(history.undo()).toBeUndefined();
    expect(history.redo()).toBe('add b');
    expect(history.redo()).toBe('add c');
    expect(history.state).toBe('c');
  });

  it('when keys are typed into one field, then they undo as one edit; a pause, another field or a seal starts another', () => {
    const history = new History('');
    history.push('H', 'type', { coalesce: 'text', at: 0 });
    history.push('He', 'type', { coalesce: 'text', at: 100 });
    history.push('Hey', 'type', { coalesce: 'text', at: 200 });
    history.push('Hey!', 'type', { coalesce: 'text', at: 5000 });
    history.seal();
    history.push('Hey!!', 'type', { coalesce: 'text', at: 5100 });
    history.undo();
    expect(history.state).toBe('Hey!');
    history.undo();
    expect(history.state).toBe('Hey');
    history.undo();
    expect(history.state).toBe('');
  });

  it('when a new edit follows an undo, then the undone edits can no longer be redone', () => {
    const history = new History(0);
    history.push(1, 'one');
    history.undo();
    history.push(2, 'two');
    expect(history.canRedo).toBe(false);
    expect(history.redo()).toBeUndefined();
  });

  it('when more edits than the limit are made, then the oldest are forgotten', () => {
    const history = new History(0, 3);
    for (let n = 1; n <= 5; n++) history.push(n, `set ${n}`);
    let undone = 0;
    while (history.undo() !== undefined) undone++;
    expect(undone).toBe(3);
    expect(history.state).toBe(2);
  });
});
