import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { keyed, seedLogs, seedUser, startManagementServer } from './helpers.ts';

// Exports of awkward values, byte for byte in every format: the text a customer's import job
// reads is fixed, so a faster writer must give these exact bytes.
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0); // 2026-11-21T09:00:00Z

const USERS = [
  String.raw`{"userId":"u,1","timestamp":"2026-11-21T09:00:00.000Z","email":"zoe@example.com","name":"Zoë \"Z\" O'Neil, Jr.\nline two","score":1.5,"tags":["x",{"nested":"y\"z","deep":[1,null,true]}]}`,
  String.raw`{"userId":"u-2","timestamp":"2026-11-21T09:00:00.001Z","email":"=1+1","name":"  padded ","score":0,"tags":[]}`,
  String.raw`{"userId":"u-3","timestamp":"2026-11-21T09:00:00.002Z","email":"tab\there","name":"😀 café 日本 \\ back","score":null,"tags":null}`,
];
const USERS_CSV = [
  'userId,timestamp,email,name,score,tags',
  '"u,1",2026-11-21T09:00:00.000Z,zoe@example.com,"Zoë ""Z"" O\'Neil, Jr.\nline two",1.5,"[""x"",{""nested"":""y\\""z"",""deep"":[1,null,true]}]"',
  'u-2,2026-11-21T09:00:00.001Z,\'=1+1,"  padded ",0,[]',
  'u-3,2026-11-21T09:00:00.002Z,tab\there,😀 café 日本 \\ back,,',
];
const NLP = [
  String.raw`{"userId":"u,1","timestamp":"2026-11-21T09:00:00.003Z","dialogId":"d","stepId":"s","stepType":"input","query":"Hi, \"bot\"\nnew line ü","modelId":"m1","intent":"greet","result":{"intent":"greet","score":0.97,"entities":[{"type":"name","value":"Zoë"}]},"processed":true}`,
];
const NLP_CSV = [
  'userId,timestamp,dialogId,stepId,stepType,query,modelId,intent,result,processed',
  '"u,1",2026-11-21T09:00:00.003Z,d,s,input,"Hi, ""bot""\nnew line ü",m1,greet,"{""intent"":""greet"",""score"":0.97,""entities"":[{""type"":""name"",""value"":""Zoë""}]}",true',
];
const INTEGRATION = [
  String.raw`{"userId":"u-2","timestamp":"2026-11-21T09:00:00.004Z","url":"https://api.example.com/a?b=1,2","method":"POST","requestBody":{"password":"[redacted]","user":"x","nested":{"access_token":"[redacted]"}},"requestHeaders":{"Authorization":"[redacted]","X-Api-Key":"[redacted]","Accept":"application/json"},"responseStatus":201,"responseBody":{"ok":true,"list":[{"refresh_token":"[redacted]"}],"text":"line1\r\nline2"},"duration":12}`,
];
const INTEGRATION_CSV = [
  'userId,timestamp,url,method,requestBody,requestHeaders,responseStatus,responseBody,duration',
  'u-2,2026-11-21T09:00:00.004Z,"https://api.example.com/a?b=1,2",POST,"{""password"":""[redacted]"",""user"":""x"",""nested"":{""access_token"":""[redacted]""}}","{""Authorization"":""[redacted]"",""X-Api-Key"":""[redacted]"",""Accept"":""application/json""}",201,"{""ok"":true,""list"":[{""refresh_token"":""[redacted]""}],""text"":""line1\\r\\nline2""}",12',
];

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const jsonArray = (records: readonly string[]) => `[\n${records.join(',\n')}\n]\n`;
const ndjson = (records: readonly string[]) => records.map((record) => `${record}\n`).join('');
const csv = (lines: readonly string[]) => lines.map((line) => `${line}\r\n`).join('');

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`exports of awkward values, byte for byte (${leg.name})`, () => {
    let server: TestServer;
    const bytes = async (path: string) => {
      const res = await fetch(`${server.url}/api/management/export/${path}`, keyed());
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
      await seedUser(server.store, 'u,1', T0, {
        email: 'zoe@example.com',
        name: 'Zoë "Z" O\'Neil, Jr.\nline two',
        score: 1.5,
        tags: ['x', { nested: 'y"z', deep: [1, null, true] }],
        undeclared: 'never exported',
      });
      await seedUser(server.store, 'u-2', T0 + 1, { email: '=1+1', name: '  padded ', score: 0, tags: [] });
      await seedUser(server.store, 'u-3', T0 + 2, { name: '😀 café 日本 \\ back', email: 'tab\there' });
      await seedLogs(server.store, 'nlpLog', [
        {
          userId: 'u,1',
          timestamp: T0 + 3,
          data: {
            dialogId: 'd',
            stepId: 's',
            stepType: 'input',
            query: 'Hi, "bot"\nnew line ü',
            modelId: 'm1',
            intent: 'greet',
            result: { intent: 'greet', score: 0.97, entities: [{ type: 'name', value: 'Zoë' }] },
            processed: true,
          },
        },
      ]);
      await seedLogs(server.store, 'integrationLog', [
        {
          userId: 'u-2',
          timestamp: T0 + 4,
          data: {
            url: 'https://api.example.com/a?b=1,2',
            method: 'POST',
            requestBody: { password: 'hunter2', user: 'x', nested: { access_token: 'tok-9f3' } },
            requestHeaders: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k3y', Accept: 'application/json' },
            responseStatus: 201,
            responseBody: { ok: true, list: [{ refresh_token: 'refresh-77' }], text: 'line1\r\nline2' },
            duration: 12,
          },
        },
      ]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    for (const [name, records, lines] of [
      ['userData', USERS, USERS_CSV],
      ['nlpLog', NLP, NLP_CSV],
      ['integrationLog', INTEGRATION, INTEGRATION_CSV],
    ] as const) {
      it(`when ${name} holds quotes, commas, line breaks, non-ASCII text and nested data, then JSON, NDJSON and CSV are exactly the expected bytes`, async () => {
        expect((await bytes(name)).toString('utf8')).toBe(jsonArray(records));
        expect((await bytes(`${name}?format=ndjson`)).toString('utf8')).toBe(ndjson(records));
        const withMark = await bytes(`${name}?format=csv`);
        expect([...withMark.subarray(0, 3)]).toStrictEqual([...BOM]);
        expect(withMark.subarray(3).toString('utf8')).toBe(csv(lines));
        expect((await bytes(`${name}?format=csv&bom=false`)).toString('utf8')).toBe(csv(lines));
      });
    }

    it('when any export is read in any format, then no secret of the integration log and no undeclared user field appears', async () => {
      for (const name of ['userData', 'nlpLog', 'integrationLog']) {
        for (const format of ['json', 'ndjson', 'csv']) {
          const text = (await bytes(`${name}?format=${format}`)).toString('utf8');
          for (const secret of ['hunter2', 'tok-9f3', 's3cret', 'k3y', 'refresh-77', 'never exported'])
            expect(text).not.toContain(secret);
        }
      }
    });
  });
}
