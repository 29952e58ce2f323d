import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import {
  addOpeningHoursFaq,
  addStep,
  branchOnPlan,
  closeDesigner,
  openedDesigner,
  rename,
} from './studio-designer-helpers.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;

/** The smallest bot there is: one dialog that ends. */
const EMPTY = {
  settings: { id: 'fresh', name: 'Fresh bot', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'done', type: 'end' }] }],
};

describe('building a bot in the designer with clicks and keys, in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ server, owner, browser, page, problems } = await openedDesigner(EMPTY));
  }, 60_000);
  afterAll(() => closeDesigner(browser, server));

  it('when an editor builds a greeting, a question kept in user data, a condition on it, a call and an FAQ answer, and saves, then the version holds that flow and check finds no error', async () => {
    // A greeting before the end.
    await addStep(page, undefined, /^Message/);
    await rename(page, 'greet');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Hello! Welcome to the shop.');
    await page.getByRole('button', { name: 'Move up greet' }).click();

    // A question whose answer is kept in a new user-data field.
    await addStep(page, 'greet', /^Question/);
    await rename(page, 'ask-plan');
    await page.getByRole('textbox', { name: /^Question/ }).fill('Which plan do you use?');
    await page.getByLabel('Place').selectOption({ label: 'A user-data field (exported)' });
    await page.getByLabel('New user-data field').fill('plan');
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: /^User-data field/ }).inputValue()).toBe('plan');

    // A condition, an integration call and an FAQ step after it.
    await addStep(page, 'ask-plan', /^Condition/);
    await rename(page, 'check');
    await addStep(page, 'check', /^HTTP request$/);
    await rename(page, 'call');
    await page.getByRole('combobox', { name: /^Address/ }).fill('https://api.example.com/plans/{{plan}}');
    await page.getByLabel('Output variable').fill('plans');
    await addStep(page, 'call', /^FAQ answer/);
    await rename(page, 'hours');
    await page.getByRole('textbox', { name: /^Question/ }).fill('Ask me anything about the shop.');

    // Back to the condition: plan equals "pro" goes to the call, otherwise to the FAQ.
    await branchOnPlan(page, 'call', 'hours');
    // The FAQ pair the FAQ step answers from, in the bot's settings.
    await addOpeningHoursFaq(page);
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/designer-bot-settings.png`, fullPage: true });

    // check finds nothing wrong once the last piece is in.
    await expect
      .poll(() => page.getByRole('tab', { name: /^Problems/ }).textContent(), { timeout: 10_000 })
      .toContain('Problems (0)');
    await page.getByRole('tab', { name: 'Outline' }).click();
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/designer-built.png`, fullPage: true });

    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByLabel('What changed').fill('First flow');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => page.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Saved as a new version.');

    const list = (await owner.get('/studio/api/versions')).body as {
      headId: string;
      versions: { id: string; message: string }[];
    };
    expect(list.versions[0]).toMatchObject({ id: list.headId, message: 'First flow' });
    const saved = (await owner.get(`/studio/api/versions/${list.headId}`)).body.definition;
    expect(saved.dialogs[0].steps.map((s: { id: string }) => s.id)).toEqual([
      'greet',
      'ask-plan',
      'check',
      'call',
      'hours',
      'done',
    ]);
    expect(saved.userDataFields).toEqual(['plan']);
    expect(saved.dialogs[0].steps[1].saveTo).toEqual({ userData: 'plan' });
    expect(saved.dialogs[0].steps[2]).toMatchObject({
      branches: [{ when: { variable: 'plan', op: 'equals', value: 'pro' }, then: 'call' }],
      else: 'hours',
    });
    expect(saved.dialogs[0].steps[3]).toMatchObject({
      type: 'integration',
      integration: 'http',
      params: { endpoint: 'https://api.example.com/plans/{{plan}}' },
      output: 'plans',
    });
    expect(saved.faq).toEqual([
      { id: 'opening-hours', questions: ['When are you open?'], answer: 'From nine to five, Monday to Friday.' },
    ]);
    const checked = (await owner.post('/studio/api/check', { definition: saved })).body.problems as {
      severity: string;
    }[];
    expect(checked.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems).toEqual([]);
  });
});
