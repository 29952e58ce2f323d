import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyTrust } from '../settings/client-ip.ts';

/**
 * What an operator quotes to find one request in the logs. A proxy's id is kept
 * (so its access log and ours agree) when it is short, plain text and the proxy is
 * one TRUST_PROXY believes; anything else gets a fresh UUID, so a client cannot
 * write arbitrary text into log lines or pose as another request.
 */
const ACCEPTED = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

const context = new AsyncLocalStorage<{ readonly requestId: string }>();

/** The id of the request being handled here, or undefined outside any request (start-up, jobs, sockets). */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

export function requestIdOf(req: IncomingMessage, trust: ProxyTrust): string {
  const given = req.headers['x-request-id'];
  const peer = req.socket.remoteAddress ?? '';
  if (typeof given === 'string' && ACCEPTED.test(given) && trust(peer, 0)) return given;
  return randomUUID();
}

/**
 * Runs `handle` with the request's id in scope: every log line written on its behalf
 * (logger.ts mixes it in) and every error body (errors.ts) names it, and the
 * response carries it as X-Request-Id.
 */
export function withRequestId(req: IncomingMessage, res: ServerResponse, trust: ProxyTrust, handle: () => void): void {
  const requestId = requestIdOf(req, trust);
  res.setHeader('X-Request-Id', requestId);
  context.run({ requestId }, handle);
}
