import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Role } from '../server/ports/roles.ts';
import { invite, setUpOwner, type StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/** The designer open on `definition`'s bot in a fresh browser, signed in as its first owner: what a designer test file starts from. */
export async function openedDesigner(
  definition: unknown,
): Promise<{ server: ServerProcess; owner: StudioClient; browser: Browser; page: Page; problems: string[] }> {
  const { server, owner } = await designerServer(definition);
  const browser = await launchBrowser();
  const { page, problems } = await signedInPage(browser, server, owner);
  await openDesigner(page, server);
  return { server, owner, browser, page, problems };
}

/** Ends what openedDesigner started (either may be missing when it failed half way). */
export async function closeDesigner(browser: Browser | undefined, server: ServerProcess | undefined): Promise<void> {
  await browser?.close();
  await server?.stop();
}

/** What designerSuite opens for the tests of a describe block. */
export interface DesignerSuite {
  readonly browser: Browser;
  readonly server: ServerProcess;
  readonly owner: StudioClient;
}

/**
 * For the describe block it is called in: a server running `definition` with its first owner, and a
 * browser, opened before the block's tests and closed after them. Read the fields inside the tests.
 */
export function designerSuite(definition: unknown): DesignerSuite {
  const opened: { -readonly [K in keyof DesignerSuite]?: DesignerSuite[K] } = {};
  beforeAll(async () => {
    Object.assign(opened, await designerServer(definition));
    opened.browser = await launchBrowser();
  }, 60_000);
  afterAll(() => closeDesigner(opened.browser, opened.server));
  return opened as DesignerSuite;
}

/** A server running `definition` as its bot (written to a file of its own, or a file's path), with the first owner signed up. */
export async function designerServer(
  definition: unknown,
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; owner: StudioClient }> {
  let file: string;
  if (typeof definition === 'string') file = definition;
  else {
    file = path.join(await mkdtemp(path.join(tmpdir(), 'designer-bot-')), 'bot.json');
    await writeFile(file, JSON.stringify(definition, null, 2));
  }
  const server = await startServerProcess({ BOT_DEFINITION: file, LOG_LEVEL: 'warn', ...env });
  const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())?.[1];
  if (!link) throw new Error(`no setup link in the server's output:\n${server.output()}`);
  const owner = await setUpOwner(server.url, link);
  return { server, owner };
}

/** A person of `role`, invited by the owner, signed in. */
export function person(owner: StudioClient, role: Role, email = `${role}@example.com`): Promise<StudioClient> {
  return invite(owner, email, role);
}

/**
 * A browser context signed in as `client` (its session cookie handed over, as after signing in
 * on the page), with clipboard access, and a page collecting console errors and CSP violations.
 */
export async function signedInPage(
  browser: Browser,
  server: ServerProcess,
  client: StudioClient,
  options: { viewport?: { width: number; height: number }; deviceScaleFactor?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}),
    locale: options.locale ?? 'en-GB',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const [name, value] = client.cookie!.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return { context, page, problems };
}

/** Opens the designer (of a server, or at a base URL) and waits until the outline of the start dialog is drawn. */
export async function openDesigner(page: Page, server: ServerProcess | string): Promise<void> {
  await page.goto(`${typeof server === 'string' ? server : server.url}/studio/designer`);
  await page.getByRole('heading', { name: 'Designer', level: 1 }).waitFor({ timeout: 20_000 });
  await page.getByRole('heading', { name: /^Steps of / }).waitFor({ timeout: 20_000 });
}

/**
 * The designer in a fresh browser context of `locale` at `width` px, signed in as `client`, once the outline's
 * heading (`steps`, in that language) is drawn.
 */
export async function designerIn(
  browser: Browser,
  server: ServerProcess,
  client: StudioClient,
  options: { locale: string; steps: RegExp; width?: number },
): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await signedInPage(browser, server, client, {
    locale: options.locale,
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  await page.goto(`${server.url}/studio/designer`);
  await page.getByRole('heading', { name: options.steps }).waitFor({ timeout: 20_000 });
  return { page, problems };
}

/** Presses Tab (or Shift+Tab) until `target` has focus: how a keyboard user gets there. */
export async function tabTo(
  page: Page,
  target: import('playwright-core').Locator,
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  for (let i = 0; i < (options.max ?? 80); i++) {
    if (
      await target.evaluate((element) => {
        let active: Element | null = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active === element;
      })
    )
      return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('Tab never reached the element');
}

/** Adds a step of `kind` (its name in the palette) after the card of step `after`, or at the end. */
export async function addStep(page: Page, after: string | undefined, kind: RegExp): Promise<void> {
  if (after) await page.getByRole('button', { name: `Add step after ${after}` }).click();
  else await page.getByRole('button', { name: 'Add step', exact: true }).click();
  await page.getByRole('dialog', { name: 'Add a step' }).getByRole('button', { name: kind }).click();
}

/** Renames the open step, and waits until its card carries the new id. */
export async function rename(page: Page, id: string): Promise<void> {
  const field = page.getByLabel('Step id');
  await field.fill(id);
  await field.press('Tab');
  await expect
    .poll(() => page.getByRole('button', { expanded: true, name: new RegExp(`^\\S+( \\S+)? ${id}\\b`) }).count())
    .toBe(1);
}

/** Opens condition step `check` and makes it: `plan` equals "pro" goes to step `then`, otherwise to step `otherwise`. */
export async function branchOnPlan(page: Page, then: string, otherwise: string): Promise<void> {
  await page.getByRole('button', { name: /^Condition check/ }).click();
  await page.getByLabel('Field or variable').fill('plan');
  await page.getByLabel('Test', { exact: true }).selectOption({ label: 'equals' });
  await page.getByLabel('Value', { exact: true }).fill('pro');
  for (const [group, step] of [
    [/^Then go to/, then],
    [/^Otherwise go to/, otherwise],
  ] as const) {
    const target = page.getByRole('group', { name: group });
    await target.getByLabel('Dialog').selectOption({ label: 'main (this dialog)' });
    await target.getByLabel('Step').selectOption({ label: step });
  }
}

/** In the bot's settings, the FAQ pair "opening-hours" that the FAQ steps answer from. */
export async function addOpeningHoursFaq(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Bot settings' }).click();
  await page.getByRole('button', { name: 'Add FAQ pair' }).click();
  const pair = page.getByRole('group', { name: 'FAQ pair 1' });
  await pair.getByRole('textbox', { name: /^Id/ }).fill('opening-hours');
  await pair.getByRole('button', { name: 'Add question' }).click();
  await pair.getByLabel('Question 1').fill('When are you open?');
  await pair.getByRole('textbox', { name: /^Answer/ }).fill('From nine to five, Monday to Friday.');
}

/**
 * In the bot's settings, a service `name` at `baseUrl` whose calls carry a Bearer token from the
 * studio's secret `secret`: added, named, its address typed, the sign-in kind and the secret
 * picked from lists, with the keyboard where a person would type.
 */
export async function addBearerService(page: Page, name: string, baseUrl: string, secret: string): Promise<void> {
  await page.getByRole('tab', { name: 'Bot settings' }).click();
  const services = page.getByRole('group', { name: 'Services', exact: true });
  await services.getByRole('button', { name: 'Add service' }).click();
  // The new service's name has focus: typed over, Enter renames it.
  const nameField = services.getByRole('group', { name: 'Service “service1”' }).getByRole('textbox', { name: /^Name/ });
  await expect
    .poll(() => nameField.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input))
    .toBe(true);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  const service = services.getByRole('group', { name: `Service “${name}”` });
  await service.waitFor();
  await service.getByRole('textbox', { name: /^Base URL/ }).fill(baseUrl);
  await service
    .getByRole('combobox', { name: /^Sign-in: kind/ })
    .selectOption({ label: 'A Bearer token from a secret' });
  await service.getByRole('combobox', { name: /^Token secret/ }).selectOption({ label: secret });
}

/** What a screen reader says after a control's name: the texts its aria-describedby names, in its own shadow root. */
export const description = (control: Locator): Promise<string> =>
  control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (element.getRootNode() as Document | ShadowRoot).getElementById(id)?.textContent?.trim() ?? '')
      .join(' ')
      .trim(),
  );

/** The controls of a form (found by role, in its shadow roots too) whose box runs past the form's left or right edge. */
export async function outside(form: Locator): Promise<string[]> {
  const edges = (await form.boundingBox())!;
  const found: string[] = [];
  for (const role of ['textbox', 'combobox', 'spinbutton', 'checkbox', 'button'] as const) {
    const boxes = await form.getByRole(role).evaluateAll((controls) =>
      controls.map((control) => {
        const box = control.getBoundingClientRect();
        return {
          name: control.id || control.textContent?.trim() || control.tagName,
          left: box.left,
          right: box.right,
          width: box.width,
        };
      }),
    );
    for (const box of boxes)
      if (box.width > 0 && (box.left < edges.x - 0.5 || box.right > edges.x + edges.width + 0.5))
        found.push(
          `${role} ${box.name}: ${Math.round(box.left)}–${Math.round(box.right)} outside ${Math.round(edges.x)}–${Math.round(edges.x + edges.width)}`,
        );
  }
  return found;
}
