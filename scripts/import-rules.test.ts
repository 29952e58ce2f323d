import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** Lints `code` as if it lived at `filePath` and returns the messages of the import-boundary rules. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) =>
      ['no-restricted-imports', 'no-restricted-properties', 'no-restricted-syntax'].includes(m.ruleId ?? ''),
    )
    .map((m) => m.message);
}

describe('import rules (docs/architecture.md)', () => {
  it.each([
    ['server/engine/x.ts', "import fs from 'node:fs';\nexport const a = fs;", /engine is pure/],
    ['server/engine/x.ts', "import { Server } from 'socket.io';\nexport const a = Server;", /engine is pure/],
    ['server/engine/x.ts', 'export const a = Date.now();', /gets time from its caller/],
    [
      'server/engine/x.ts',
      "import type { Store } from '../ports/store.ts';\nexport type A = Store;",
      /shared\/ and definition\/ only/,
    ],
    [
      'server/app/x.ts',
      "import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';\nexport const a = openSqliteStore;",
      /never import adapters/,
    ],
    [
      'server/stores/x.ts',
      "import { createApp } from '../api/create-app.ts';\nexport const a = createApp;",
      /do not import each other/,
    ],
    ['widget/x.ts', "import { io } from 'socket.io-client';\nexport const a = io;", /Only widget\/transport/],
    ['widget/x.ts', "import { z } from 'zod';\nexport const a = z;", /bloat the widget/],
    [
      'widget/x.ts',
      "import { runTurn } from '../server/engine/engine.ts';\nexport const a = runTurn;",
      /imports shared\/ only/,
    ],
    [
      'server/channels/rest/x.ts',
      "import { CHANNEL_ID } from '../webchat/socket-server.ts';\nexport const a = CHANNEL_ID;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/webchat/x.ts',
      "import { restRouter } from '../rest/rest-router.ts';\nexport const a = restRouter;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/rest/x.ts',
      "import { HttpError } from '../../api/errors.ts';\nexport const a = HttpError;",
      /do not import each other/,
    ],
    [
      'server/channels/whatsapp/x.ts',
      "import { twilioSignatureHeader } from '../twilio/twilio-signature.ts';\nexport const a = twilioSignatureHeader;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/twilio/x.ts',
      "import { WHATSAPP } from '../whatsapp/whatsapp-connector.ts';\nexport const a = WHATSAPP;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/telegram/x.ts',
      "import { restDelivery } from '../rest/rest-delivery.ts';\nexport const a = restDelivery;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/botframework/x.ts',
      "import { telegramConnector } from '../telegram/telegram-connector.ts';\nexport const a = telegramConnector;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/connector/x.ts',
      "import { telegramConnector } from '../telegram/telegram-connector.ts';\nexport const a = telegramConnector;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/meta/x.ts',
      "import { WHATSAPP } from '../whatsapp/whatsapp-connector.ts';\nexport const a = WHATSAPP;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/messenger/x.ts',
      "import { WHATSAPP } from '../whatsapp/whatsapp-connector.ts';\nexport const a = WHATSAPP;",
      /Channels do not import each other/,
    ],
    [
      'server/channels/slack/x.ts',
      "import { telegramConnector } from '../telegram/telegram-connector.ts';\nexport const a = telegramConnector;",
      /Channels do not import each other/,
    ],
    [
      'server/cluster/x.ts',
      "import { createApp } from '../api/create-app.ts';\nexport const a = createApp;",
      /do not import each other/,
    ],
    [
      'shared/x.ts',
      "import { startServer } from '../server/main.ts';\nexport const a = startServer;",
      /imports nothing of the project/,
    ],
    [
      'server/nlp/x.ts',
      "import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';\nexport const a = SafeHttpClient;",
      /nlp\/ sits beside the use cases/,
    ],
    [
      'server/studio-server/x.ts',
      "import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';\nexport const a = openSqliteStore;",
      /do not import each other/,
    ],
    [
      'server/stores/x.ts',
      "import { people } from '../studio-server/accounts/people.ts';\nexport const a = people;",
      /do not import each other/,
    ],
    [
      'server/bot/x.ts',
      "import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';\nexport const a = openSqliteStore;",
      /bot\/ never imports an adapter/,
    ],
    [
      'server/bot/x.ts',
      "import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';\nexport const a = SafeHttpClient;",
      /step types and their runtime/,
    ],
    [
      'server/bot/x.ts',
      "import { testCommand } from '../cli/test-command.ts';\nexport const a = testCommand;",
      /never the other way/,
    ],
    [
      'server/bot/x.ts',
      "import { readConfig } from '../config.ts';\nexport const a = readConfig;",
      /is handed its settings/,
    ],
    [
      'server/cli/x.ts',
      "import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';\nexport const a = openSqliteStore;",
      /cli\/main\.ts wires the rest/,
    ],
    [
      'server/cli/x.ts',
      "import { startServer } from '../start/start-server.ts';\nexport const a = startServer;",
      /cli\/main\.ts wires the rest/,
    ],
    [
      'server/cli/main.ts',
      "import { runTurn } from '../engine/engine.ts';\nexport const a = runTurn;",
      /the commands use bot\//,
    ],
    [
      'server/start/x.ts',
      "import { runCli } from '../cli/main.ts';\nexport const a = runCli;",
      /start\/ does not import the command line/,
    ],
    [
      'server/ports/x.ts',
      "import { botHost } from '../bot/bot-host.ts';\nexport const a = botHost;",
      /sit below the use cases and adapters/,
    ],
    [
      'server/ports/x.ts',
      "import { people } from '../studio-server/accounts/people.ts';\nexport const a = people;",
      /sit below the use cases and adapters/,
    ],
    [
      'server/config.ts',
      "import { restChannelsSchema } from './channels/rest/rest-endpoint.ts';\nexport const a = restChannelsSchema;",
      /config\.ts imports no adapter/,
    ],
    [
      'server/settings/x.ts',
      "import { createApp } from '../api/create-app.ts';\nexport const a = createApp;",
      /settings\/ sits below config\.ts and the adapters/,
    ],
    [
      'server/settings/x.ts',
      "import { readConfig } from '../config.ts';\nexport const a = readConfig;",
      /config\.ts imports it, never the other way/,
    ],
    [
      'server/mail/x.ts',
      "import { createHttpSmsSender } from '../sms/http-sms-sender.ts';\nexport const a = createHttpSmsSender;",
      /do not import each other/,
    ],
    [
      'server/sms/x.ts',
      "import { createSmtpMailer } from '../mail/smtp-mailer.ts';\nexport const a = createSmtpMailer;",
      /do not import each other/,
    ],
    [
      'server/app/x.ts',
      "import { createSmtpMailer } from '../mail/smtp-mailer.ts';\nexport const a = createSmtpMailer;",
      /never import adapters/,
    ],
    [
      'server/logger.ts',
      "import { openStore } from './start/open-store.ts';\nexport const a = openStore;",
      /import no folder of the server/,
    ],
    [
      'server/paths.ts',
      "import { readConfig } from './config.ts';\nexport const a = readConfig;",
      /sit below config\.ts/,
    ],
  ])('when %s imports what it must not, then lint fails', async (file, code, message) => {
    const errors = await boundaryErrors(file, code);
    expect(errors.some((e) => message.test(e))).toBe(true);
  });

  it('when a file imports what it may, then lint has nothing to say', async () => {
    expect(
      await boundaryErrors(
        'server/app/x.ts',
        "import { runTurn } from '../engine/engine.ts';\nexport const a = runTurn;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/channels/rest/x.ts',
        "import { handleUserMessage } from '../../app/handle-user-message.ts';\nexport const a = handleUserMessage;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/channels/telegram/x.ts',
        "import { renderMessage } from '../connector/ladder.ts';\nexport const a = renderMessage;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/channels/botframework/x.ts',
        "import { renderMessage } from '../connector/ladder.ts';\nexport const a = renderMessage;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/channels/slack/x.ts',
        "import { renderMessage } from '../connector/ladder.ts';\nexport const a = renderMessage;",
      ),
    ).toEqual([]);
    // Meta's products share their platform's folder (handshake, signature, Graph client).
    for (const file of ['server/channels/whatsapp/x.ts', 'server/channels/messenger/x.ts'])
      expect(
        await boundaryErrors(file, "import { graphSend } from '../meta/graph-send.ts';\nexport const a = graphSend;"),
      ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/main.ts',
        "import { openSqliteStore } from './stores/sqlite/sqlite-store.ts';\nexport const a = openSqliteStore;",
      ),
    ).toEqual([]);
    // The studio's ports and its store adapters sit beside the others.
    expect(
      await boundaryErrors(
        'server/stores/x.ts',
        "import type { Accounts } from '../ports/accounts.ts';\nexport type A = Accounts;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'server/stores/x.ts',
        "import { sqliteAudit } from './sqlite/sqlite-audit.ts';\nexport const a = sqliteAudit;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('server/app/x.ts', "import { may } from '../ports/roles.ts';\nexport const a = may;"),
    ).toEqual([]);
    // The running bot, the command line and the composition root, each with what it may import.
    for (const [file, code] of [
      ['server/bot/x.ts', "import { runTurn } from '../engine/engine.ts';\nexport const a = runTurn;"],
      [
        'server/bot/x.ts',
        "import { registryFor } from '../integrations/step-types/registry.ts';\nexport const a = registryFor;",
      ],
      ['server/bot/x.ts', "import type { BotHost } from '../ports/bot-host.ts';\nexport type A = BotHost;"],
      [
        'server/cli/x.ts',
        "import { checkDefinitionFile } from '../bot/check-definition.ts';\nexport const a = checkDefinitionFile;",
      ],
      ['server/cli/main.ts', "import { openStore } from '../start/open-store.ts';\nexport const a = openStore;"],
      ['server/start/x.ts', "import { botHost } from '../bot/bot-host.ts';\nexport const a = botHost;"],
      ['server/ports/x.ts', "import type { Move } from './versions.ts';\nexport type A = Move;"],
      [
        'server/config.ts',
        "import { restChannelsSchema } from './settings/rest-channels.ts';\nexport const a = restChannelsSchema;",
      ],
      [
        'server/channels/rest/x.ts',
        "import type { RestChannel } from '../../settings/rest-channels.ts';\nexport type A = RestChannel;",
      ],
      ['server/mail/x.ts', "import type { Mailer } from '../ports/mailer.ts';\nexport type A = Mailer;"],
      [
        'server/start/x.ts',
        "import { createSmtpMailer } from '../mail/smtp-mailer.ts';\nexport const a = createSmtpMailer;",
      ],
    ] as const)
      expect(await boundaryErrors(file, code), file).toEqual([]);
  });
});
