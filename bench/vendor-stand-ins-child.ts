// Child process for bench/channel-turn.ts: the Telegram, WhatsApp Cloud and Slack stand-ins, in a process of their
// own so that checking the server's calls against the vendors' references takes neither the clients' CPU nor the
// server's. BENCH_STAND_IN_WATCH: each message a stand-in accepts with this text is told to the parent as
// `{ said: { channel, user } }` (the user as the connector addresses them: chat id, WhatsApp id, Slack channel).
// Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
import { subscribe } from 'node:diagnostics_channel';

if (process.send) {
  const { startTelegramStandIn } = await import('../server/channels/telegram/test/telegram-stand-in.ts');
  const { startWhatsAppCloudStandIn } =
    await import('../server/channels/test/vendors/whatsapp/whatsapp-cloud-stand-in.ts');
  const { startSlackStandIn } = await import('../server/channels/slack/test/slack-stand-in.ts');
  const prompt = process.env.BENCH_STAND_IN_WATCH;
  const whatsAppNumber = { accessToken: 'EAAbench-whatsapp-access-token-0123456789', phoneNumberId: '106540352242922' };
  const [telegram, whatsApp, slack] = await Promise.all([
    startTelegramStandIn(),
    startWhatsAppCloudStandIn(whatsAppNumber),
    startSlackStandIn(),
  ]);
  /** What the server asked of a vendor: refused, or accepted for a user with a text. */
  type Call = { readonly refused: boolean; readonly user: string; readonly text: unknown };
  /** Each stand-in's log, read from where the last look stopped. */
  const watched = <T>(channel: string, log: readonly T[], read: (entry: T) => Call) => ({
    channel,
    log,
    read,
    seen: 0,
  });
  const logs = [
    watched('telegram', telegram.calls, (call) => ({
      refused: call.status !== 200,
      user: String(call.params.chat_id),
      text: call.method === 'sendMessage' ? call.params.text : undefined,
    })),
    watched('whatsapp', whatsApp.log, (entry) => ({
      refused: entry.accepted === undefined,
      user: entry.accepted?.to ?? '',
      text: (entry.accepted?.body as { text?: { body?: string } } | undefined)?.text?.body,
    })),
    watched('slack', slack.calls, (call) => ({
      refused: call.status !== 200 || !call.ok,
      user: String(call.params.channel),
      text: call.params.text,
    })),
  ];
  let refused = 0;
  // Every answer a stand-in gives is in its log before it leaves: look at the new ones as each leaves.
  subscribe('http.server.response.finish', () => {
    for (const watch of logs) {
      for (; watch.seen < watch.log.length; watch.seen++) {
        const call = (watch.read as (entry: unknown) => Call)(watch.log[watch.seen]);
        if (call.refused) refused++;
        else if (prompt !== undefined && call.text === prompt)
          process.send!({ said: { channel: watch.channel, user: call.user } });
      }
    }
  });
  process.on('message', (message: { cmd: 'refused' | 'stop' }) => {
    if (message.cmd === 'stop')
      return void Promise.all([telegram.close(), whatsApp.close(), slack.close()]).then(() => process.exit(0));
    process.send!({ refused });
  });
  process.send({
    standIns: {
      telegram: { url: telegram.url, token: telegram.token },
      whatsApp: { url: whatsApp.graphUrl, ...whatsAppNumber },
      slack: { url: slack.url, token: slack.token },
    },
  });
}
