// The npm package as an app developer meets it: `npm pack` of dist/package/, installed into
// a fresh Vite app written here, type-checked with tsc, built with Vite, served from another
// origin than the bot's, and used in Chromium against the built server.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const run = promisify(execFile);
const REPO = process.cwd();
const PACKAGE_NAME = (
  JSON.parse(await readFile(path.join(REPO, 'dist/package/package.json'), 'utf8')) as { name: string }
).name;
const POLL = { timeout: 15_000 };

let server: ServerProcess;
let browser: Browser;
let app: Server;
let appUrl: string;
let dir: string;

/** The app a developer would write: one page through the API, one with the element in its markup. */
function appFiles(botUrl: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'host-app', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        // The package's own .d.ts files are checked too, not taken on trust.
        skipLibCheck: false,
      },
      include: ['src'],
    }),
    'index.html':
      '<!doctype html><html><head><title>Host app</title></head><body><h1>Host app</h1><script type="module" src="/src/main.ts"></script></body></html>',
    'element.html': `<!doctype html><html><head><title>Host app, element</title></head><body><chat-widget server-url="${botUrl}"></chat-widget><script type="module" src="/src/element.ts"></script></body></html>`,
    'src/main.ts': [
      `import { ChatWidget, type ChatWidgetElement, type ChatWidgetInitOptions } from '${PACKAGE_NAME}';`,
      `const options: ChatWidgetInitOptions = { serverUrl: '${botUrl}', user: { page: location.pathname } };`,
      'const widget: ChatWidgetElement = ChatWidget.init(options);',
      'ChatWidget.on("closeChat", (payload: Readonly<Record<string, unknown>>) => console.log(payload));',
      '// Never called: these lines are here for tsc. With `any` types the expectation below would be unused, which tsc reports.',
      'export function typeChecks(): void {',
      '  const sent: Promise<{ readonly ok: boolean }> = ChatWidget.sendEvent("pricingClicked", { plan: "pro" });',
      '  void sent;',
      '  // @ts-expect-error open() takes no argument',
      '  ChatWidget.open("now");',
      '  // @ts-expect-error serverUrl is required: the package cannot know where the chat server is',
      '  ChatWidget.init({ user: { page: "/" } });',
      '}',
      'const same: ChatWidgetElement | null = document.querySelector("chat-widget");',
      '(window as unknown as { widgetReady: boolean }).widgetReady = same === widget;',
    ].join('\n'),
    'src/element.ts': `import '${PACKAGE_NAME}';\n`,
    // An app in plain JavaScript, where no type stops a missing serverUrl.
    'no-server.html':
      '<!doctype html><html><head><title>Host app, no server</title></head><body><script type="module" src="/src/no-server.ts"></script></body></html>',
    'src/no-server.ts': [
      `import { ChatWidget } from '${PACKAGE_NAME}';`,
      'const untyped = ChatWidget.init as (options: object) => unknown;',
      'untyped({ user: { page: location.pathname } });',
      'ChatWidget.open();',
    ].join('\n'),
  };
}

beforeAll(async () => {
  server = await startServerProcess();
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(tmpdir(), 'chat-widget-app-'));
  const { stdout } = await run('npm', ['pack', path.join(REPO, 'dist/package'), '--pack-destination', dir, '--json'], {
    timeout: 60_000,
  });
  const tarball = path.join(dir, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? '');
  const root = path.join(dir, 'app');
  for (const [name, text] of Object.entries(appFiles(server.url))) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  // The package's dependencies (lit, socket.io-client) come from the npm cache `npm ci` filled.
  await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: root,
    timeout: 180_000,
  });
  await run(
    process.execPath,
    [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')],
    { timeout: 60_000 },
  ).catch((error: { stdout?: string }) => {
    throw new Error(`the app does not type-check against the package:\n${error.stdout ?? ''}`);
  });
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: path.join(root, 'dist'),
      rolldownOptions: {
        input: {
          main: path.join(root, 'index.html'),
          element: path.join(root, 'element.html'),
          'no-server': path.join(root, 'no-server.html'),
        },
      },
    },
  });
  app = createServer(async (req, res) => {
    const name = new URL(req.url ?? '/', 'http://app').pathname.replace(/^\/$/, '/index.html');
    const file = path.join(root, 'dist', path.normalize(name));
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const address = app.address();
  // Another port is another origin: the bot's server is not where the app lives.
  appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)));
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function roundTrip(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open chat' }).click();
  const log = page.getByRole('log');
  await expect.poll(() => log.textContent(), POLL).toContain("What's your name?");
  await page.getByRole('textbox', { name: 'Message' }).fill('Ada');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => log.textContent(), POLL).toContain('Nice to meet you, Ada!');
}

describe('the npm package in an app built with Vite', () => {
  it('when the app calls ChatWidget.init from the package, then the launcher appears and a message goes to the bot and back', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${appUrl}/`);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { widgetReady?: boolean }).widgetReady), POLL)
      .toBe(true);
    await roundTrip(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("when a plain JavaScript app calls init without serverUrl, then the console says what is missing, no launcher shows and nothing knocks on the app's own origin", async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const knocks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/socket.io/')) knocks.push(request.url());
    });
    await page.goto(`${appUrl}/no-server.html`);
    await expect.poll(() => errors, POLL).toHaveLength(1);
    expect(errors[0]).toContain("init() needs serverUrl, the chat server's address");
    // Long enough for socket.io's first attempts and retries, had it started any.
    await page.waitForTimeout(3000);
    expect(knocks).toEqual([]);
    expect(await page.getByRole('button', { name: 'Open chat' }).count()).toBe(0);
    expect(errors).toHaveLength(1);
    await page.context().close();
  });

  it('when the app only imports the package and writes <chat-widget server-url> in its markup, then that element talks to the bot', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${appUrl}/element.html`);
    await roundTrip(page);
    expect(await page.locator('chat-widget').count()).toBe(1);
    await page.context().close();
  });
});
