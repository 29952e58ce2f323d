import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket as TcpSocket } from 'node:net';
import { connect } from 'socket.io-client';
import type { TranscriptItem } from '../../../shared/protocol.ts';
import {
  botTexts,
  eventually,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../../test/start-test-server.ts';

// A turn's entries and its message's ack leave in one TCP write on a websocket (batch-writes.ts);
// whatever the transport, the widget must get both, whole and in the order it always did.
describe('web chat turn output, batched into one write', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** What the widget sees, in arrival order: "entries:<seqs>" and "ack:<seq>". */
  async function converse(
    transport: 'websocket' | 'polling',
  ): Promise<{ seen: string[]; items: TranscriptItem[]; client: TestClient }> {
    const client: TestClient = connect(server.url, { transports: [transport], reconnection: false, forceNew: true });
    const seen: string[] = [];
    const items: TranscriptItem[] = [];
    client.on('entries', (entries) => {
      items.push(...entries);
      seen.push(`entries:${entries.map((e) => e.seq).join(',')}`);
    });
    await eventually('the greeting', () => botTexts(items).includes("What's your name?"));
    return { seen, items, client };
  }

  for (const transport of ['websocket', 'polling'] as const) {
    it(`when a ${transport} widget sends a message, then the echo and the reply arrive before the ack, each once and whole`, async () => {
      const { seen, items, client } = await converse(transport);
      seen.length = 0;
      const ack = await client.emitWithAck('message', { clientId: 'c-1', text: 'Ada' });
      seen.push(`ack:${ack.ok ? ack.value.seq : 'failed'}`);
      expect(ack).toEqual({ ok: true, value: { seq: 3, duplicate: false } });
      // The turn's one entries event (the visitor's message and the bot's reply) comes first, as before.
      expect(seen).toEqual(['entries:3,4', 'ack:3']);
      expect(items.find((i) => i.seq === 3)).toMatchObject({
        from: 'user',
        clientId: 'c-1',
        message: { type: 'text', text: 'Ada' },
      });
      expect(botTexts(items)).toContain('Nice to meet you, Ada!');
      client.disconnect();
    });

    it(`when a ${transport} widget sends messages back to back, then every turn's entries and ack arrive, in seq order`, async () => {
      const { seen, items, client } = await converse(transport);
      seen.length = 0;
      const acks = await Promise.all(
        ['Ada', 'what can you do?', 'thanks'].map(async (text, i) => {
          const ack = await client.emitWithAck('message', { clientId: `b-${i}`, text });
          seen.push(`ack:${ack.ok ? ack.value.seq : 'failed'}`);
          return ack;
        }),
      );
      expect(acks.every((a) => a.ok && !a.value.duplicate)).toBe(true);
      const ackedSeqs = acks.map((a) => (a.ok ? a.value.seq : 0));
      // Each message's own entry arrives before its ack; no seq twice, none missing.
      for (const seq of ackedSeqs) {
        const shown = seen.findIndex(
          (s) => s.startsWith('entries:') && s.slice('entries:'.length).split(',').includes(String(seq)),
        );
        expect(shown).toBeGreaterThanOrEqual(0);
        expect(shown).toBeLessThan(seen.indexOf(`ack:${seq}`));
      }
      const seqs = items.map((i) => i.seq);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(items.filter((i) => i.from === 'user').map((i) => i.clientId)).toEqual(['b-0', 'b-1', 'b-2']);
      client.disconnect();
    });
  }
  // What a turn costs the wire: each TCP write is a system call (on a network, a packet). The
  // server's own sockets are watched where Node's stream hands bytes to the kernel (_write for
  // one chunk, _writev for a corked batch), so the count is the writes, whatever the reader sees.
  it('when a websocket widget sends a message, then its entries and its ack leave the server in one TCP write', async () => {
    const writes: string[] = [];
    const watch = (tcp: TcpSocket) => {
      const socket = tcp as TcpSocket & { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };
      const one = socket._write.bind(socket);
      const many = socket._writev.bind(socket);
      socket._write = (...a) => (writes.push('write'), one(...a));
      socket._writev = (...a) => (writes.push('writev'), many(...a));
    };
    server.io.httpServer.on('connection', watch);
    try {
      const { client } = await converse('websocket');
      await new Promise((resolve) => setTimeout(resolve, 50));
      writes.length = 0;
      const ack = await client.emitWithAck('message', { clientId: 'w-1', text: 'Ada' });
      expect(ack).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(writes).toEqual(['writev']);
      client.disconnect();
    } finally {
      server.io.httpServer.off('connection', watch);
    }
  });
});
