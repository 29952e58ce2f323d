import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Button } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage } from '../../connector/ladder.ts';
import { answerable, message } from '../../connector/test/ladder-properties.ts';
import { slackApi } from '../slack-api.ts';
import { SLACK_CAPABILITIES, slackMessage } from '../slack-blocks.ts';
import { slackConnector } from '../slack-connector.ts';
import { startSlackStandIn, type SlackStandIn } from './slack-stand-in.ts';

describe('the rendering ladder on Slack', () => {
  let standIn: SlackStandIn;
  beforeAll(async () => {
    standIn = await startSlackStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('when any message is rendered (over-long texts, many or duplicate buttons, emoji, combining marks, right to left, markup characters), then Slack accepts every part and every choice can be answered', async () => {
    const connector = slackConnector({
      call: slackApi({ token: standIn.token, apiUrl: standIn.url }),
      signingSecret: 'unused0signing0secret0',
      token: standIn.token,
      now: Date.now,
    });
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(
        message,
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom('D0PNCRP9N', 'C0LAN2Q65/1700000000.000100'),
        async (said, seq, address) => {
          const rendered = renderMessage(said, SLACK_CAPABILITIES, seq);
          expect(rendered.parts.length).toBeGreaterThan(0);
          for (const part of rendered.parts) {
            await connector.send(address, part);
            parts++;
          }
          answerable(rendered, seq);
        },
      ),
      { numRuns: 300 },
    );
    const refused = standIn.calls.filter((call) => !call.ok);
    expect(refused.map((call) => [call.error, ...(call.problems ?? [])])).toEqual([]);
    expect(standIn.calls).toHaveLength(parts);
  });

  it('when a message has more choices than an actions block holds, then they are a select menu, and "26" or a title still picks a choice', async () => {
    const buttons: Button[] = Array.from({ length: 30 }, (_, i) => ({
      kind: 'postback',
      label: `Option ${i + 1}`,
      payload: `p${i + 1}`,
    }));
    const rendered = renderMessage({ type: 'text', text: 'Pick one & go.', buttons }, SLACK_CAPABILITIES, 7);
    expect(rendered.degraded).toBe(true);
    const [part] = rendered.parts;
    const posted = slackMessage(part!);
    expect(posted.text).toBe('Pick one &amp; go.');
    const select = (
      posted.blocks[1] as { elements: { type: string; options: { text: { text: string }; value: string }[] }[] }
    ).elements[0]!;
    expect(select.type).toBe('static_select');
    expect(select.options.map((option) => option.text.text)).toEqual(buttons.map((button) => button.label));
    expect(select.options[25]!.value).toBe('7.25');
    expect(choiceByAnswer('26', rendered.choices)?.message).toEqual({
      type: 'postback',
      label: 'Option 26',
      payload: 'p26',
    });
    expect(choiceByAnswer('option 3', rendered.choices)?.message).toEqual({
      type: 'postback',
      label: 'Option 3',
      payload: 'p3',
    });
    const connector = slackConnector({
      call: slackApi({ token: standIn.token, apiUrl: standIn.url }),
      signingSecret: 'unused0signing0secret0',
      token: standIn.token,
      now: Date.now,
    });
    await connector.send('D0PNCRP9N', part!);
    expect(standIn.calls.at(-1)).toMatchObject({ ok: true });
  });
});
