import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import type { ServerProcess } from './server-process.ts';
import { designerServer, openDesigner, signedInPage } from './studio-designer-helpers.ts';

/** A shop bot whose checkout dialog jumps within itself, to another of its steps by dialog and step, and to itself again. */
const SHOP = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'checkout' },
  userDataFields: ['email'],
  dialogs: [
    {
      id: 'checkout',
      steps: [
        {
          id: 'ask-email',
          type: 'input',
          prompt: 'Your email?',
          inputType: 'email',
          saveTo: { userData: 'email' },
          onMaxRetries: { dialog: 'checkout', step: 'sorry' },
        },
        {
          id: 'check',
          type: 'condition',
          branches: [{ when: { variable: 'email', op: 'notEmpty' }, then: 'confirm' }],
          else: { dialog: 'checkout', step: 'ask-email' },
        },
        {
          id: 'confirm',
          type: 'message',
          text: 'We will write to {{email}}.',
          buttons: [{ kind: 'dialog', label: 'Again', dialog: 'checkout' }],
        },
        { id: 'done', type: 'end' },
        { id: 'sorry', type: 'message', text: 'Sorry, that did not work.' },
        { id: 'again', type: 'goto', dialog: 'checkout', step: 'check' },
      ],
    },
  ],
};

/** Another bot that has a "checkout" of its own, and no user-data fields. */
const CAFE = {
  settings: { id: 'cafe', name: 'Café', startDialog: 'checkout' },
  dialogs: [{ id: 'checkout', steps: [{ id: 'pay', type: 'message', text: 'Pay at the counter.' }] }],
};

describe('copy and paste of a dialog between two bots, in Chromium', () => {
  let browser: Browser;
  let shop: { server: ServerProcess; owner: StudioClient };
  let cafe: { server: ServerProcess; owner: StudioClient };
  let context: BrowserContext;
  let shopPage: Page;
  let cafePage: Page;
  let problems: string[];

  beforeAll(async () => {
    shop = await designerServer(SHOP);
    cafe = await designerServer(CAFE);
    browser = await launchBrowser();
    ({ context, page: shopPage, problems } = await signedInPage(browser, shop.server, shop.owner));
    // One browser, one clipboard: the café's studio opens in the same browser, signed in there too.
    // Under another host name, as two bots are: cookies are kept per host, not per port.
    const cafeUrl = cafe.server.url.replace('127.0.0.1', 'localhost');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: cafeUrl });
    const [name, value] = cafe.owner.cookie!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: cafeUrl, httpOnly: true, sameSite: 'Strict' }]);
    cafePage = await context.newPage();
    cafePage.on('pageerror', (error) => problems.push(error.message));
    await openDesigner(shopPage, shop.server);
    await openDesigner(cafePage, cafeUrl);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.server.stop();
    await cafe?.server.stop();
  });

  it("when the shop's checkout dialog is copied and pasted into the café bot, then it comes in renamed, every jump leads within the pasted copy, its field is declared, and check finds no error", async () => {
    await shopPage.getByRole('button', { name: 'Copy dialog' }).click();
    await expect
      .poll(() => shopPage.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Copied checkout to the clipboard.');

    await cafePage.bringToFront();
    await cafePage.getByRole('button', { name: 'Paste', exact: true }).click();
    await expect
      .poll(() => cafePage.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Pasted checkout; renamed checkout → checkout-2. Declared user-data fields: email.');
    await expect.poll(() => cafePage.getByRole('heading', { name: 'Steps of checkout-2' }).count()).toBe(1);
    await expect
      .poll(() => cafePage.getByRole('tab', { name: /^Problems/ }).textContent(), { timeout: 10_000 })
      .toContain('Problems (0)');

    // The café's draft holds the pasted dialog, with its jumps on the copy and never on the café's own checkout.
    await expect
      .poll(async () => (await cafe.owner.get('/studio/api/draft')).body.definition, { timeout: 10_000 })
      .toMatchObject({ dialogs: [{ id: 'checkout' }, { id: 'checkout-2' }] });
    const definition = (await cafe.owner.get('/studio/api/draft')).body.definition;
    const pasted = definition.dialogs[1];
    expect(pasted.steps[0].onMaxRetries).toEqual({ dialog: 'checkout-2', step: 'sorry' });
    expect(pasted.steps[1]).toMatchObject({
      branches: [{ then: 'confirm' }],
      else: { dialog: 'checkout-2', step: 'ask-email' },
    });
    expect(pasted.steps[2].buttons).toEqual([{ kind: 'dialog', label: 'Again', dialog: 'checkout-2' }]);
    expect(pasted.steps[5]).toMatchObject({ type: 'goto', dialog: 'checkout-2', step: 'check' });
    expect(definition.userDataFields).toEqual(['email']);
    expect(definition.dialogs[0]).toEqual(CAFE.dialogs[0]);
    const checked = (await cafe.owner.post('/studio/api/check', { definition })).body.problems as {
      severity: string;
    }[];
    expect(checked.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when a step is copied with Ctrl+C on its card and pasted with Ctrl+V on another, then it lands after that card under a free id', async () => {
    await cafePage.getByRole('button', { name: /^Message confirm/ }).focus();
    await cafePage.keyboard.press('Control+c');
    await expect
      .poll(() => cafePage.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Copied confirm to the clipboard.');
    await cafePage.getByRole('button', { name: /^End done/ }).focus();
    await cafePage.keyboard.press('Control+v');
    await expect.poll(() => cafePage.getByRole('button', { name: /^Message confirm-2/ }).count()).toBe(1);
    const ids = await cafePage
      .getByRole('list', { name: 'Steps of checkout-2' })
      .getByRole('button', { name: /, step \d+ of \d+/ })
      .evaluateAll((buttons) => buttons.map((b) => b.querySelector('.id')?.textContent));
    expect(ids).toEqual(['ask-email', 'check', 'confirm', 'done', 'confirm-2', 'sorry', 'again']);
  });
});
