import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { HttpError } from './errors.ts';

const tooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The request body is over ${Math.round(limit / 1024)} KiB; send less data.`);

const DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Reads a request body of at most `limit` bytes, as sent and once decoded
 * (gzip, deflate and br are accepted, as Express's body parsers accept them).
 * A declared Content-Length over the limit is refused before anything is read.
 * Bodies here are small, so a compressed one is inflated in one synchronous step,
 * capped at the limit.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decode = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && !decode) {
    return Promise.reject(
      new HttpError(
        415,
        'unsupported_media_type',
        `Content-Encoding "${encoding.slice(0, 40)}" is not supported; send the body as is, or gzip, deflate or br.`,
      ),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: HttpError) => {
      if (failed) return;
      failed = true;
      // The rest is read and dropped, so the answer reaches a client that is still sending.
      req.removeListener('data', onData);
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', () => fail(new HttpError(400, 'invalid_body', 'The request body could not be read.')));
    req.once('end', () => {
      if (failed) return;
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (!decode) return resolve(raw);
      try {
        resolve(decode(raw, { maxOutputLength: limit }));
      } catch (error) {
        reject(
          (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
            ? tooLarge(limit)
            : new HttpError(400, 'invalid_body', `The request body is not valid ${encoding} data.`),
        );
      }
    });
  });
}
