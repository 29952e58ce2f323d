// A shop page served with exactly the Content Security Policy that README's "Content Security
// Policy" section lists (Trusted Types included), the bot on another origin, in Chromium: the
// widget appears, a conversation goes to the bot and back, the chunks for markdown and a
// carousel and the bot's pictures load, and the browser reports no violation of the policy.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoOrigins, type TwoOrigins } from './two-origins.ts';

const POLL = { timeout: 15_000 };

/** The policy as README shows it, for `bot.example.com` and a page nonce `{PAGE_NONCE}`. */
function readmePolicy(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### Content Security Policy'));
  const header = /```http\nContent-Security-Policy: (.+)\n```/.exec(section)?.[1];
  if (!header) throw new Error('README has no Content-Security-Policy block under "### Content Security Policy"');
  return header;
}

let sites: TwoOrigins;
let policy = '';

beforeAll(async () => {
  const template = readmePolicy();
  sites = await startTwoOrigins({
    page: {
      csp: (nonce) => {
        const bot = new URL(sites.botUrl);
        policy = template
          .replaceAll('https://bot.example.com', bot.origin)
          .replaceAll('wss://bot.example.com', `ws://${bot.host}`)
          .replaceAll('{PAGE_NONCE}', nonce);
        return policy;
      },
    },
  });
});
afterAll(async () => {
  await sites?.close();
});

interface Violation {
  readonly directive: string;
  readonly blocked: string;
  readonly sample: string;
}

/** A page that writes down every `securitypolicyviolation` (composed, so those inside the widget's shadow root too) and every console error. */
async function watchedVisit(
  init: Record<string, unknown>,
): Promise<{ page: Page; violations: () => Promise<Violation[]>; errors: string[] }> {
  const context = await sites.browser.newContext({ viewport: { width: 1000, height: 800 } });
  await context.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { violations: Violation[] }).violations = seen;
    document.addEventListener(
      'securitypolicyviolation',
      (event) => seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample }),
      true,
    );
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${sites.shopUrl}?init=${encodeURIComponent(JSON.stringify(init))}`);
  return {
    page,
    violations: () => page.evaluate(() => (window as unknown as { violations: Violation[] }).violations),
    errors,
  };
}

describe('the widget on a page with README’s Content Security Policy and Trusted Types', () => {
  it('when the visitor opens the chat and talks, then the bot answers, markdown, pictures and a carousel show, and no violation is reported', async () => {
    const { page, violations, errors } = await watchedVisit({ locale: 'de', user: { email: 'ada@example.com' } });
    expect(policy).toContain("require-trusted-types-for 'script'");

    // German, so the strings' file is fetched from the bot too (connect-src).
    await page.getByRole('button', { name: 'Chat öffnen' }).click();
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent(), POLL).toContain("What's your name?");
    await page.getByRole('textbox', { name: 'Nachricht' }).fill('Ada');
    await page.getByRole('button', { name: 'Senden' }).click();
    await expect.poll(() => log.textContent(), POLL).toContain('Nice to meet you, Ada!');

    // Bold text (the markdown chunk), a picture and a carousel (its chunk, and the bot's images).
    expect(await page.evaluate(() => window.ChatWidget?.startDialog('messages'))).toEqual({ ok: true });
    await expect.poll(() => log.getByRole('strong').first().textContent(), POLL).toBe('bold');
    await expect.poll(() => page.getByRole('region', { name: 'Karten' }).count(), POLL).toBe(1);
    const pictures = log.getByRole('img', { name: 'A friendly robot' });
    await pictures.scrollIntoViewIfNeeded();
    await expect
      .poll(() => pictures.evaluate((img) => (img as HTMLImageElement).naturalWidth), POLL)
      .toBeGreaterThan(0);

    // The chat's scripts all came from the bot's origin as modules.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((r) => r.name)
        .filter((n) => n.endsWith('.js')),
    );
    expect(scripts.some((name) => /\/widget\.carousel\.[0-9a-f]{12}\.js$/.test(name))).toBe(true);
    expect(scripts.some((name) => /\/widget\.markdown\.[0-9a-f]{12}\.js$/.test(name))).toBe(true);

    expect(await violations()).toEqual([]);
    expect(
      errors.filter((line) => /Content Security Policy|Trusted Type|TrustedHTML|TrustedScript/i.test(line)),
    ).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when the policy forbids a host the widget would need, then the violation is seen here: the watch itself works', async () => {
    const { page, violations } = await watchedVisit({});
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain("What's your name?");
    // A picture from a host the policy does not list, added by the page itself.
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'http://elsewhere.test/x.png';
      document.body.append(img);
    });
    await expect.poll(async () => (await violations()).map((v) => v.directive), POLL).toContain('img-src');
    await page.context().close();
  });
});
