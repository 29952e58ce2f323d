import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, signedInPage, tabTo } from './studio-designer-helpers.ts';

/** The values of the secrets: never on a page. */
const CRM_TOKEN = 'crm_tok_5d1e8a77';
const SALES_TOKEN = 'sales_tok_93bb01c4';

const BOT = {
  settings: { id: 'services', name: 'Services', startDialog: 'main' },
  integrations: {
    services: { crm: { baseUrl: 'https://crm.example.com/api', auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN' } } },
  },
  dialogs: [
    {
      id: 'main',
      steps: [
        {
          id: 'lookup',
          type: 'integration',
          integration: 'http',
          service: 'crm',
          params: { endpoint: '/customers/1' },
          output: 'customer',
        },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

describe("the bot's services in the designer, in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let page: Page;
  let problems: string[];
  const said = () => page.getByRole('log', { name: 'Changes' }).textContent();
  const services = () => page.getByRole('group', { name: 'Services', exact: true });

  beforeAll(async () => {
    ({ server, owner } = await designerServer(BOT, { CRM_TOKEN }));
    expect((await owner.put('/studio/api/secrets/SALES_TOKEN', { value: SALES_TOKEN })).status).toBeLessThan(300);
    browser = await launchBrowser();
    ({ page, problems } = await signedInPage(browser, server, owner));
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Bot settings' }).click();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when a service is renamed with the keyboard, then the integration step that names it follows and picks it from the list of services', async () => {
    const name = services().getByRole('group', { name: 'Service “crm”' }).getByRole('textbox', { name: /^Name/ });
    await tabTo(page, name);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('sales');
    await page.keyboard.press('Enter');
    await services().getByRole('group', { name: 'Service “sales”' }).waitFor();
    await eventually(said).toContain('Renamed service “crm” to “sales”; places that name it: 1, all follow.');

    await page.getByRole('tab', { name: 'Outline' }).click();
    await page.getByRole('button', { name: /^Integration lookup/ }).click();
    const picker = page.getByRole('combobox', { name: /^Service/ });
    expect(await picker.inputValue()).toBe('sales');
    expect(await picker.locator('option').allTextContents()).toEqual(['No service (a full web address)', 'sales']);
    await eventually(() => page.getByRole('tab', { name: /^Problems/ }).textContent()).toContain('Problems (0)');
    await page.getByRole('tab', { name: 'Bot settings' }).click();
  }, 60_000);

  it('when a name is not a valid one or is taken, then the field says why and the service keeps its name', async () => {
    await services().getByRole('button', { name: 'Add service' }).click();
    const added = services().getByRole('group', { name: 'Service “service1”' });
    await added.waitFor();
    const name = added.getByRole('textbox', { name: /^Name/ });
    // The new service's name has focus, ready to be typed over.
    await eventually(() => name.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(
      true,
    );
    await name.fill('has space');
    await name.press('Enter');
    await eventually(() => added.getByRole('alert').textContent()).toContain('A name starts with a letter');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('sales');
    await name.press('Enter');
    await eventually(() => added.getByRole('alert').textContent()).toBe('There is a service named “sales” already.');
    expect(
      await services()
        .getByRole('group', { name: /^Service “/ })
        .count(),
    ).toBe(2);
    // Removed again, focus stays in the list (on the service now in its place).
    await added.getByRole('button', { name: 'Remove service “service1”' }).click();
    await eventually(() =>
      services()
        .getByRole('group', { name: /^Service “/ })
        .count(),
    ).toBe(1);
    await eventually(() =>
      services()
        .getByRole('textbox', { name: /^Name/ })
        .evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input),
    ).toBe(true);
  }, 60_000);

  it("when the sign-in kind changes, then each kind shows its own fields from the schema, and a secret is picked by name from the studio's secrets with its value nowhere on the page", async () => {
    const sales = services().getByRole('group', { name: 'Service “sales”' });
    const kind = sales.getByRole('combobox', { name: /^Sign-in: kind/ });
    expect(await kind.locator('option').allTextContents()).toEqual([
      '(not set)',
      'No sign-in',
      'User name and password (HTTP Basic)',
      'A Bearer token from a secret',
      "The visitor's own token, passed by the web page",
      'OAuth 2 client credentials',
    ]);
    await kind.selectOption({ label: 'User name and password (HTTP Basic)' });
    await sales.getByRole('textbox', { name: 'User name (required)' }).fill('bot');
    expect(await sales.getByRole('combobox', { name: /^Password secret/ }).count()).toBe(1);
    expect(await sales.getByRole('combobox', { name: /^Token secret/ }).count()).toBe(0);
    await kind.selectOption({ label: 'OAuth 2 client credentials' });
    const credentialsIn = sales.getByRole('combobox', { name: /^Send the client credentials in/ });
    expect(await credentialsIn.locator('option').allTextContents()).toEqual([
      'Default: The Authorization header',
      'The Authorization header',
      'The request body',
    ]);
    expect(await sales.getByRole('textbox', { name: 'User name (required)' }).count()).toBe(0);

    await kind.selectOption({ label: 'A Bearer token from a secret' });
    const secret = sales.getByRole('combobox', { name: /^Token secret/ });
    expect(await secret.locator('option').allTextContents()).toEqual([
      '(no secret chosen)',
      'CRM_TOKEN',
      'SALES_TOKEN',
    ]);
    await secret.selectOption({ label: 'SALES_TOKEN' });
    const link = sales.getByRole('link', { name: 'Secrets in Settings (opens in a new tab)' }).first();
    expect(await link.getAttribute('href')).toBe('/studio/settings/secrets');
    await sales.getByRole('button', { name: 'Reload the list of secrets' }).first().click();
    await eventually(said).toContain('Secrets reloaded: 2.');
    const content = await page.content();
    expect(content).not.toContain(CRM_TOKEN);
    expect(content).not.toContain(SALES_TOKEN);
    await sales.getByRole('combobox', { name: /^Token secret/ }).scrollIntoViewIfNeeded();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'designer-services');
  }, 60_000);

  it("when a service is removed, then it is gone with the step's problem naming it, and Ctrl+Z brings it back whole", async () => {
    const problemsTab = () => page.getByRole('tab', { name: /^Problems/ }).textContent();
    await eventually(problemsTab).toContain('Problems (0)');
    await services().getByRole('button', { name: 'Remove service “sales”' }).click();
    await eventually(() => services().getByRole('group', { name: 'Service “sales”' }).count()).toBe(0);
    await eventually(said).toContain('Removed service “sales”. Undo brings it back.');
    // The last one gone, focus waits on "Add service", in the designer: Ctrl+Z is the designer's undo.
    const addButton = services().getByRole('button', { name: 'Add service' });
    await eventually(() =>
      addButton.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button),
    ).toBe(true);
    await eventually(problemsTab).toContain('Problems (1)');
    await page.getByRole('tab', { name: /^Problems/ }).click();
    await eventually(() =>
      page
        .getByRole('tabpanel', { name: /^Problems/ })
        .getByText(/service named "sales"/)
        .count(),
    ).toBeGreaterThan(0);
    await page.keyboard.press('ControlOrMeta+z');
    const back = services().getByRole('group', { name: 'Service “sales”' });
    await back.waitFor();
    expect(await back.getByRole('combobox', { name: /^Token secret/ }).inputValue()).toBe('SALES_TOKEN');
    await eventually(problemsTab).toContain('Problems (0)');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
