import type { OutboundGate } from '../../ports/outbound-gate.ts';
import { SafeHttpClient, type HttpRequest, type HttpResponse, type SafeHttpClientOptions } from './safe-http-client.ts';

/** The guarded client behind a gate (ports/outbound-gate.ts): every call asks the gate, which may send it through this client. */
export class GatedHttpClient extends SafeHttpClient {
  constructor(
    options: SafeHttpClientOptions,
    private readonly gate: OutboundGate,
  ) {
    super(options);
  }

  override send(request: HttpRequest): Promise<HttpResponse> {
    return this.gate.send(request, (approved) => super.send(approved));
  }
}
