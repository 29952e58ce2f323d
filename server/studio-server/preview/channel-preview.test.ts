import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_TEXT_MAX } from '../../../shared/channel-preview-limits.ts';
import type { ChannelPreviews } from '../../../shared/studio-channel-preview.ts';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { setUpOwner, StudioClient } from '../test/studio-client.ts';

const path = '/studio/api/preview/channels';
const choices = (count: number, label = (n: number) => `Option ${n}`) =>
  Array.from({ length: count }, (_, n) => ({ kind: 'postback', label: label(n + 1), payload: `p${n + 1}` }));

describe("the preview's channel view (POST /studio/api/preview/channels)", () => {
  let server: TestServer;
  let owner: StudioClient;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await setUpOwner(server.url, server.studio.setupLink!);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const show = async (message: unknown) => {
    const res = await owner.post(path, { message });
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body as ChannelPreviews).channels.map((entry) => [entry.channel, entry]));
  };

  it('when a message has two choices, then each channel shows its native buttons, and SMS numbered lines', async () => {
    const on = await show({ type: 'text', text: 'Pick a plan.', buttons: choices(2, (n) => ['Basic', 'Pro'][n - 1]!) });
    expect(Object.keys(on)).toEqual(['telegram', 'whatsapp', 'twilio-sms', 'slack', 'messenger', 'teams']);
    expect(on.whatsapp).toEqual({
      channel: 'whatsapp',
      degraded: false,
      parts: [{ kind: 'text', text: 'Pick a plan.', buttons: [{ title: 'Basic' }, { title: 'Pro' }] }],
    });
    expect(on.telegram!.parts[0]).toMatchObject({ buttons: [{ title: 'Basic' }, { title: 'Pro' }] });
    expect(on['twilio-sms']!.parts).toEqual([{ kind: 'text', text: 'Pick a plan.\n\n1. Basic\n2. Pro' }]);
  });

  it('when a message has six choices with long titles, then WhatsApp shows a list with titles cut to 24 and says it took a simpler form, and SMS numbered text', async () => {
    const on = await show({
      type: 'text',
      text: 'Which one?',
      buttons: choices(6, (n) => `A rather long option title number ${n}`),
    });
    const list = (on.whatsapp!.parts[0] as { list?: { rows: string[] } }).list!;
    expect(list.rows).toHaveLength(6);
    for (const row of list.rows) expect(row.length).toBeLessThanOrEqual(24);
    expect(list.rows[0]).toMatch(/…$/);
    expect(on.whatsapp!.degraded).toBe(true);
    expect((on['twilio-sms']!.parts[0] as { text: string }).text).toMatch(/\n1\. A rather long/);
  });

  it('when the message is a carousel of three cards, then Messenger shows them side by side in one message, and Telegram a message a card', async () => {
    const on = await show({
      type: 'carousel',
      cards: [1, 2, 3].map((n) => ({
        title: `Concert ${n}`,
        subtitle: 'Friday',
        imageUrl: `https://cdn.example.com/${n}.png`,
        buttons: [{ kind: 'postback', label: 'Book', payload: `book-${n}` }],
      })),
    });
    const card = (n: number, book: string) => ({
      title: `Concert ${n}`,
      subtitle: 'Friday',
      imageUrl: `https://cdn.example.com/${n}.png`,
      buttons: [{ title: book }],
    });
    expect(on.messenger).toEqual({
      channel: 'messenger',
      degraded: false,
      parts: [{ kind: 'cards', cards: [card(1, 'Book'), card(2, 'Book (2)'), card(3, 'Book (3)')] }],
    });
    expect(on.telegram!.parts.map((part) => part.kind)).toEqual(['image', 'image', 'image']);
  });

  it('when the body is no bot message, then 400 names the field; without a session 401; without the CSRF token 403; with GET 405', async () => {
    const bad = await owner.post(path, { message: { type: 'video', url: 'x' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_body']);
    const stranger = new StudioClient(server.url);
    expect((await stranger.post(path, { message: { type: 'text', text: 'Hi' } })).status).toBe(401);
    const noToken = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ message: { type: 'text', text: 'Hi' } }),
    });
    expect([noToken.status, ((await noToken.json()) as { error: { code: string } }).error.code]).toEqual([
      403,
      'csrf_failed',
    ]);
    const get = await owner.get(path);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('when a text is the longest the view takes, then each channel shows it cut; one character more is a 400 naming the text, not a 413', async () => {
    const longest = await show({ type: 'text', text: 'a'.repeat(PREVIEW_TEXT_MAX) });
    expect(longest.telegram!.parts[0]).toMatchObject({ kind: 'text' });
    const over = await owner.post(path, { message: { type: 'text', text: 'a'.repeat(PREVIEW_TEXT_MAX + 1) } });
    expect([over.status, over.body.error.code]).toEqual([400, 'invalid_body']);
    expect(JSON.stringify(over.body.error)).toContain('text');
  });
});
