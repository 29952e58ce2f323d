import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botToken } from '../bot-token.ts';
import { APP_ID, APP_PASSWORD, startBotFrameworkStandIn, type BotFrameworkStandIn } from './bot-framework-stand-in.ts';

describe("the bot's own token for the Connector API", () => {
  let standIn: BotFrameworkStandIn;
  beforeAll(async () => {
    standIn = await startBotFrameworkStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('when many sends ask at once and again within the hour, then one token is asked for; five minutes before it expires, a new one', async () => {
    let now = 1_000_000;
    const token = botToken({ appId: APP_ID, appPassword: APP_PASSWORD, tokenUrl: standIn.tokenUrl, now: () => now });
    const before = standIn.counts.tokens;
    const first = await Promise.all(Array.from({ length: 10 }, () => token.get()));
    expect(new Set(first).size).toBe(1);
    now += 50 * 60_000;
    expect(await token.get()).toBe(first[0]);
    expect(standIn.counts.tokens).toBe(before + 1);
    // The stand-in's tokens last 3599 s: at 55 minutes the next send asks for a fresh one.
    now += 5 * 60_000;
    const renewed = await token.get();
    expect(renewed).not.toBe(first[0]);
    expect(standIn.counts.tokens).toBe(before + 2);
  });

  it('when the Connector API refused a token, then the next send asks for a new one', async () => {
    const token = botToken({ appId: APP_ID, appPassword: APP_PASSWORD, tokenUrl: standIn.tokenUrl, now: () => 0 });
    const refused = await token.get();
    token.forget(refused);
    expect(await token.get()).not.toBe(refused);
  });

  it("when the app password is wrong, then the failure names the service's code and the settings to check, never the password", async () => {
    const token = botToken({
      appId: APP_ID,
      appPassword: 'a-wrong-password-value',
      tokenUrl: standIn.tokenUrl,
      now: () => 0,
    });
    const failure = await token.get().then(
      () => undefined,
      (error: unknown) => error as Error & { kind: string },
    );
    expect(failure).toMatchObject({ kind: 'transient', vendorCode: '401' });
    expect(failure!.message).toContain('invalid_client');
    expect(failure!.message).toContain('BOTFRAMEWORK_APP_PASSWORD');
    expect(failure!.message).not.toContain('a-wrong-password-value');
  });
});
