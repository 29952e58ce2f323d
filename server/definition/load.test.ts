import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { DefinitionError, loadDefinition, validateDefinition } from './load.ts';

const settings = { id: 'shop', name: 'Shop bot', startDialog: 'main' };

describe('bot definition', () => {
  it('when the demo bot is loaded, then it is valid', async () => {
    const bot = await loadDefinition(DEMO_BOT_DEFINITION);
    expect(bot.settings.id).toBe('demo');
  });

  it('when references are broken, then every problem is listed with its path', () => {
    const result = validateDefinition({
      settings,
      dialogs: [
        { id: 'main', steps: [{ id: 'a', type: 'message', text: 'x', next: 'confirm' }] },
        {
          id: 'order',
          steps: [
            { id: 'b', type: 'goto', dialog: 'main', step: 'nope' },
            { id: 'b', type: 'end' },
          ],
        },
        { id: 'main', steps: [{ id: 'c', type: 'input', prompt: 'p', saveTo: { userData: 'email' } }] },
      ],
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      'dialogs[1].steps[1].id: step "b" is defined twice in dialog "order"',
      'dialogs[2].id: dialog "main" is defined twice',
      'dialogs[0].steps[0].next: no step "confirm" in dialog "main"',
      'dialogs[1].steps[0].step: no step "nope" in dialog "main"',
      'dialogs[2].steps[0].saveTo.userData: "email" is not in userDataFields',
    ]);
  });

  it('when the shape is wrong, then the problem names the path', () => {
    const result = validateDefinition({
      settings: { ...settings, id: '1bad' },
      dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'teleport' }] }],
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.some((p) => p.startsWith('settings.id: '))).toBe(true);
    expect(problems.some((p) => p.startsWith('dialogs[0].steps[0].type: '))).toBe(true);
  });

  it('when the file is not JSON, then loading fails naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bot-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, '{ "settings": ');
    await expect(loadDefinition(file)).rejects.toThrow(DefinitionError);
    await expect(loadDefinition(file)).rejects.toThrow(
      `${file} is invalid:\n  - line 1, column 15: not valid JSON: the file ends too early`,
    );
  });
});
