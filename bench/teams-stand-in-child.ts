// Child process for bench/teams-webhook.ts: the Bot Framework stand-in (token service and Connector API,
// checking each activity against the reference), in a process of its own so that checking the server's
// sends takes neither autocannon's CPU nor the server's. It signs the one token the load reuses, and
// counts the activities it accepted per conversation. Run alone (by `npm run bench`) it does nothing.
if (process.send) {
  const { startBotFrameworkStandIn } = await import('../server/channels/botframework/test/bot-framework-stand-in.ts');
  const standIn = await startBotFrameworkStandIn();
  process.on('message', (message: { cmd: 'sends' | 'stop'; prefix?: string }) => {
    if (message.cmd === 'stop') return void standIn.close().then(() => process.exit(0));
    const perConversation: Record<string, number> = {};
    for (const seen of standIn.activities) {
      if (seen.status === 201 && seen.conversationId.startsWith(message.prefix ?? ''))
        perConversation[seen.conversationId] = (perConversation[seen.conversationId] ?? 0) + 1;
    }
    process.send!({ sends: { perConversation, tokens: standIn.counts.tokens } });
  });
  process.send({
    standIn: {
      url: standIn.url,
      openIdUrl: standIn.openIdUrl,
      tokenUrl: standIn.tokenUrl,
      token: await standIn.sign(standIn.url),
    },
  });
}
