import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/start-test-server.ts';

const CUSTOM_BOT = 'server/api/test/fixtures/bot.json';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function home(env: Record<string, string>): Promise<{ status: number; type: string | null; body: string }> {
  server = await startTestServer(env);
  const res = await fetch(`${server.url}/`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('the page at /', () => {
  it('when the demo bot runs, then / is the demo shop page', async () => {
    expect((await home({})).body).toContain('<title>Demo shop');
  });

  it("when a customer's own bot runs, then / is a short page naming the bot and /widget.js, not the demo shop", async () => {
    const page = await home({ BOT_DEFINITION: CUSTOM_BOT });
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Hostile input test bot</h1>');
    expect(page.body).toContain('href="/widget.js"');
    expect(page.body).not.toContain('Demo shop');
    // Nothing else of the demo page's folder is served either.
    expect((await fetch(`${server?.url ?? ''}/index.html`)).status).toBe(404);
  });

  it("when DEMO_PAGE=1 is set for a customer's bot, then / is the demo shop page; DEMO_PAGE=0 hides it from the demo bot", async () => {
    expect((await home({ BOT_DEFINITION: CUSTOM_BOT, DEMO_PAGE: '1' })).body).toContain('<title>Demo shop');
    await server?.stop();
    expect((await home({ DEMO_PAGE: '0' })).body).toContain('<h1>Demo bot</h1>');
  });
});
