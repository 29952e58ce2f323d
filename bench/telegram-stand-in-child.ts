// Child process for bench/telegram-webhook.ts and bench/channel-turn.ts: the Bot API stand-in, in a process of its
// own so that checking the server's calls against the reference takes neither autocannon's CPU nor the server's.
// BENCH_STAND_IN_WATCH: each sendMessage it accepts with this text is told to the parent as `{ said: chatId }`.
// Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
if (process.send) {
  const { startTelegramStandIn } = await import('../server/channels/telegram/test/telegram-stand-in.ts');
  const watch = process.env.BENCH_STAND_IN_WATCH;
  const standIn = await startTelegramStandIn(undefined, (call) => {
    if (watch !== undefined && call.method === 'sendMessage' && call.status === 200 && call.params.text === watch)
      process.send!({ said: call.params.chat_id });
  });
  process.on('message', (message: { cmd: 'sends' | 'stop'; from?: number }) => {
    if (message.cmd === 'stop') return void standIn.close().then(() => process.exit(0));
    // Messages Telegram accepted per chat, for chats from `from` on, and the calls it refused.
    const perChat: Record<number, number> = {};
    for (const call of standIn.calls) {
      const chat = call.params.chat_id as number;
      if (call.method === 'sendMessage' && call.status === 200 && chat >= (message.from ?? 0))
        perChat[chat] = (perChat[chat] ?? 0) + 1;
    }
    const refused = standIn.calls.filter((call) => call.status !== 200).length;
    process.send!({ sends: perChat, refused });
  });
  process.send({ standIn: { url: standIn.url, token: standIn.token } });
}
