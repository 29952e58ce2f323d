import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/protocol.ts';
import { botTexts, connectClient, eventually, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { keyed, startManagementServer } from './helpers.ts';

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  return rows;
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`transcript export for analysts (${leg.name})`, () => {
    let server: TestServer;
    let userId: string;

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
      const client = connectClient(server.url);
      userId = (await new Promise<Session>((resolve) => client.once('session', resolve))).userId;
      await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
      await client.emitWithAck('message', { clientId: 'm1', text: 'Ada' });
      await eventually('the thanks', () => botTexts(client.items).includes('Thanks, Ada.'));
      client.disconnect();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when the transcript is exported as CSV, then each message has readable columns (kind, text, the dialog and step that said it) and its JSON last', async () => {
      const res = await fetch(`${server.url}/api/management/export/transcript?format=csv&bom=false`, keyed());
      expect(res.status).toBe(200);
      const [header, ...rows] = parseCsv(await res.text());
      expect(header).toEqual(['userId', 'timestamp', 'seq', 'from', 'kind', 'text', 'dialogId', 'stepId', 'message']);
      const mine = rows.filter((row) => row[0] === userId).map((row) => row.slice(2));
      expect(mine.map((row) => row.slice(0, 6))).toEqual([
        ['1', 'bot', 'text', 'Hello from the test bot.', 'greeting', 'hello'],
        ['2', 'bot', 'text', 'Your name?', 'greeting', 'ask'],
        ['3', 'user', 'text', 'Ada', '', ''],
        ['4', 'bot', 'text', 'Thanks, Ada.', 'greeting', 'thanks'],
      ]);
      expect(JSON.parse(mine[1]![6]!)).toEqual({ type: 'text', text: 'Your name?' });
    });

    it('when the transcript is exported as JSON, then the records carry the same fields in the same order', async () => {
      const res = await fetch(`${server.url}/api/management/export/transcript`, keyed());
      const records = ((await res.json()) as Record<string, unknown>[]).filter((record) => record.userId === userId);
      expect(Object.keys(records[0]!)).toEqual([
        'userId',
        'timestamp',
        'seq',
        'from',
        'kind',
        'text',
        'dialogId',
        'stepId',
        'message',
      ]);
      expect(records[2]).toMatchObject({
        from: 'user',
        kind: 'text',
        text: 'Ada',
        dialogId: null,
        stepId: null,
        message: { type: 'text', text: 'Ada' },
      });
    });
  });
}
