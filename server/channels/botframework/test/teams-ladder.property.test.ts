import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Button } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage } from '../../connector/ladder.ts';
import { answerable, message } from '../../connector/test/ladder-properties.ts';
import { botToken } from '../bot-token.ts';
import { connectorApi } from '../connector-api.ts';
import { serviceUrlRule } from '../../../settings/service-urls.ts';
import { TEAMS_CAPABILITIES, teamsConnector } from '../teams-connector.ts';
import { APP_ID, APP_PASSWORD, startBotFrameworkStandIn, type BotFrameworkStandIn } from './bot-framework-stand-in.ts';

interface Action {
  type: string;
  title: string;
  value: unknown;
}
/** Every card button and suggested action of an activity the stand-in took. */
function actionsOf(activity: Record<string, unknown>): Action[] {
  const cards = ((activity.attachments ?? []) as { content: { buttons?: Action[] } }[]).flatMap(
    (attachment) => attachment.content.buttons ?? [],
  );
  return [...cards, ...((activity.suggestedActions as { actions?: Action[] } | undefined)?.actions ?? [])];
}

describe('the rendering ladder on Teams', () => {
  let standIn: BotFrameworkStandIn;
  beforeAll(async () => {
    standIn = await startBotFrameworkStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  /** The connector as the server wires it, sending to the stand-in; `serviceUrl` is the conversation's stored reference. */
  const connector = (serviceUrl = standIn.url) =>
    teamsConnector({
      checkToken: () => Promise.reject(new Error('no requests come in here')),
      sendActivity: connectorApi(
        botToken({ appId: APP_ID, appPassword: APP_PASSWORD, tokenUrl: standIn.tokenUrl, now: Date.now }),
        [serviceUrlRule(standIn.url)],
      ),
      reference: async () => ({ serviceUrl }),
      serviceUrls: [serviceUrlRule(standIn.url)],
      appPassword: APP_PASSWORD,
    });

  it('when any message is rendered (over-long texts, many or duplicate buttons, emoji, combining marks, right to left), then the Connector API accepts every part and every button and suggested action names a choice', async () => {
    const teams = connector();
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(message, fc.integer({ min: 1, max: 1_000_000 }), async (said, seq) => {
        const rendered = renderMessage(said, TEAMS_CAPABILITIES, seq);
        expect(rendered.parts.length).toBeGreaterThan(0);
        const first = standIn.activities.length;
        for (const part of rendered.parts) {
          await teams.send('a:1property', part);
          parts++;
        }
        answerable(rendered, seq);
        // What Teams sends back when each is tapped names a choice of this message: a messageBack its id, an imBack its title.
        for (const action of standIn.activities.slice(first).flatMap((seen) => actionsOf(seen.activity))) {
          if (action.type === 'messageBack')
            expect(
              rendered.choices.some(
                (choice) => choice.id === (action.value as { choice?: string }).choice && choice.title === action.title,
              ),
            ).toBe(true);
          if (action.type === 'imBack')
            expect(choiceByAnswer(String(action.value), rendered.choices)?.title).toBe(action.title);
        }
      }),
      { numRuns: 200 },
    );
    const refused = standIn.activities.filter((seen) => seen.status !== 201);
    expect(refused.map((seen) => seen.problem)).toEqual([]);
    expect(standIn.activities).toHaveLength(parts);
  });

  it('when seven buttons are more than a hero card shows, then the message is numbered text, and "7" or a title picks the choice', () => {
    const buttons: Button[] = Array.from({ length: 7 }, (_, i) => ({
      kind: 'postback',
      label: `Option ${i + 1}`,
      payload: `p${i + 1}`,
    }));
    const rendered = renderMessage({ type: 'text', text: 'Pick one.', buttons }, TEAMS_CAPABILITIES, 3);
    expect(rendered.degraded).toBe(true);
    expect(rendered.parts).toEqual([
      { kind: 'text', text: `Pick one.\n\n${buttons.map((b, i) => `${i + 1}. ${b.label}`).join('\n')}` },
    ]);
    expect(choiceByAnswer('7', rendered.choices)?.message).toEqual({
      type: 'postback',
      label: 'Option 7',
      payload: 'p7',
    });
  });

  it("when a carousel is rendered, then its cards go as one activity of hero cards side by side, which the Connector API accepts, and a card's button names its choice", async () => {
    const cards = ['Tea', 'Coffee', 'Cocoa'].map((title, i) => ({
      title,
      subtitle: `Cup ${i + 1}`,
      imageUrl: `https://cdn.example.com/${title.toLowerCase()}.png`,
      imageAlt: `A cup of ${title.toLowerCase()}`,
      buttons: [{ kind: 'postback' as const, label: `Order ${title}`, payload: title }],
    }));
    const rendered = renderMessage({ type: 'carousel', cards }, TEAMS_CAPABILITIES, 4);
    expect(rendered.degraded).toBe(false);
    const first = standIn.activities.length;
    for (const part of rendered.parts) await connector().send('a:1carousel', part);
    const sent = standIn.activities.slice(first);
    expect(sent.map((seen) => [seen.status, seen.activity.attachmentLayout])).toEqual([[201, 'carousel']]);
    const heroes = (sent[0]!.activity.attachments as { content: Record<string, unknown> }[]).map((a) => a.content);
    expect(heroes.map((hero) => [hero.title, hero.subtitle, hero.images])).toEqual(
      cards.map((card) => [card.title, card.subtitle, [{ url: card.imageUrl, alt: card.imageAlt }]]),
    );
    const cocoa = actionsOf(sent[0]!.activity).find((action) => action.title === 'Order Cocoa')!;
    const chosen = rendered.choices.find((choice) => choice.id === (cocoa.value as { choice: string }).choice);
    expect(chosen?.message).toEqual({ type: 'postback', label: 'Order Cocoa', payload: 'Cocoa' });
  });

  it("when ten cards would make an activity over Teams' 28 KB, then they go as several carousels, each accepted, every card once and in order", async () => {
    const long = (n: number) => `https://cdn.example.com/${'x'.repeat(1900)}/${n}`;
    const cards = Array.from({ length: 10 }, (_, i) => ({
      title: `Hotel ${i + 1}`,
      imageUrl: `${long(i)}.png`,
      buttons: Array.from({ length: 3 }, (_, j) => ({ kind: 'url' as const, label: `Room ${j + 1}`, url: long(j) })),
    }));
    const rendered = renderMessage({ type: 'carousel', cards }, TEAMS_CAPABILITIES, 5);
    const first = standIn.activities.length;
    for (const part of rendered.parts) await connector().send('a:1large', part);
    const sent = standIn.activities.slice(first);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.filter((seen) => seen.status !== 201).map((seen) => seen.problem)).toEqual([]);
    expect(sent.every((seen) => seen.activity.attachmentLayout === 'carousel')).toBe(true);
    const titles = sent.flatMap((seen) =>
      (seen.activity.attachments as { content: { title: string } }[]).map((a) => a.content.title),
    );
    expect(titles).toEqual(cards.map((card) => card.title));
  });

  it('when a stored serviceUrl is not an allowed origin, then nothing is sent there and the send is refused for good', async () => {
    const before = standIn.counts.tokens;
    // A reference a dialog overwrote, pointing at a host that would collect the bot's token.
    const teams = connector('http://127.0.0.1:9/collect');
    await expect(teams.send('a:1elsewhere', { kind: 'text', text: 'hello' })).rejects.toMatchObject({
      kind: 'permanent',
      vendorCode: 'service_url_not_allowed',
    });
    expect(standIn.counts.tokens).toBe(before);
  });
});
