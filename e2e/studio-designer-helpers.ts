import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '../server/ports/studio/roles.ts';
import { invite, setUpOwner, type StudioClient } from '../server/studio/test/studio-client.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/** A server running `definition` as its bot (written to a file of its own, or a file's path), with the first owner signed up. */
export async function designerServer(definition: unknown, env: Record<string, string> = {}): Promise<{ server: ServerProcess; owner: StudioClient }> {
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
export async function signedInPage(browser: Browser, server: ServerProcess, client: StudioClient, options: { viewport?: { width: number; height: number }; deviceScaleFactor?: number } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 }, ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}), locale: 'en-GB' });
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
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
  });
  return { context, page, problems };
}

/** Opens the designer (of a server, or at a base URL) and waits until the outline of the start dialog is drawn. */
export async function openDesigner(page: Page, server: ServerProcess | string): Promise<void> {
  await page.goto(`${typeof server === 'string' ? server : server.url}/studio/designer`);
  await page.getByRole('heading', { name: 'Designer', level: 1 }).waitFor({ timeout: 20_000 });
  await page.getByRole('heading', { name: /^Steps of / }).waitFor({ timeout: 20_000 });
}

/** Presses Tab (or Shift+Tab) until `target` has focus: how a keyboard user gets there. */
export async function tabTo(page: Page, target: import('playwright-core').Locator, options: { back?: boolean; max?: number } = {}): Promise<void> {
  for (let i = 0; i < (options.max ?? 80); i++) {
    if (await target.evaluate((element) => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active === element;
    })) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('Tab never reached the element');
}
