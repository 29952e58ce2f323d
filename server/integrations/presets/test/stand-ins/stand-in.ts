import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { json, startUpstream, type SeenRequest, type Upstream } from '../../../test/upstream.ts';

/** How a stand-in answers the next calls: as the vendor does when all is well, or with one of its documented errors. */
export type StandInMode = 'ok' | 'rate_limited' | 'unauthorized' | 'server_error';

/**
 * A vendor's API played on loopback, since vendors cannot be reached from here. Each stand-in
 * checks every request against the vendor's published reference (method, path, headers, auth,
 * body) and answers with the reference's example answers and errors. A request that breaks the
 * reference is answered 400 with the reasons and listed in `violations`: a test asserts none.
 */
export interface StandIn {
  readonly url: string;
  readonly calls: SeenRequest[];
  readonly violations: string[];
  /** Answers from now on as `mode` says. */
  mode(mode: StandInMode): void;
  close(): Promise<void>;
}

/** What a route decides: the reasons a request breaks the reference, and its answer when it does not. */
export type Route = (request: SeenRequest, mode: StandInMode, check: Checker) => (res: ServerResponse) => void;

export async function startStandIn(name: string, route: Route): Promise<StandIn> {
  let current: StandInMode = 'ok';
  const violations: string[] = [];
  const upstream: Upstream = await startUpstream((req, res) => {
    const check = new Checker(req);
    const answer = route(req, current, check);
    if (check.problems.length > 0) {
      violations.push(...check.problems.map((problem) => `${name} ${req.method} ${req.url}: ${problem}`));
      return json(res, 400, { standIn: name, violations: check.problems });
    }
    answer(res);
  });
  return {
    url: upstream.url,
    calls: upstream.seen,
    violations,
    mode: (mode) => {
      current = mode;
    },
    close: () => upstream.close(),
  };
}

/** Collects what a request gets wrong against a reference. */
export class Checker {
  readonly problems: string[] = [];
  constructor(private readonly request: SeenRequest) {}

  method(expected: string): this {
    if (this.request.method !== expected)
      this.problems.push(`method ${this.request.method}, the reference says ${expected}`);
    return this;
  }

  header(name: string, expected: string | RegExp): this {
    const value = header(this.request.headers, name);
    const ok = value !== undefined && (typeof expected === 'string' ? value === expected : expected.test(value));
    if (!ok)
      this.problems.push(
        `header ${name} is ${value === undefined ? 'missing' : JSON.stringify(value)}, the reference wants ${String(expected)}`,
      );
    return this;
  }

  noHeader(name: string): this {
    if (header(this.request.headers, name) !== undefined)
      this.problems.push(`header ${name} was sent, and must not be`);
    return this;
  }

  /** The body parsed as JSON (an object), or records that it is not. */
  jsonBody(): Record<string, unknown> {
    try {
      const body = JSON.parse(this.request.body) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
    } catch {
      // recorded below
    }
    this.problems.push('the body is not a JSON object');
    return {};
  }

  that(ok: boolean, problem: string): this {
    if (!ok) this.problems.push(problem);
    return this;
  }
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

export { json };
