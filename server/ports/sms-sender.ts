/** Sends SMS through a provider (server/sms/ has an HTTP provider for Twilio-style APIs). */
export interface SmsSender {
  /** Names the provider in outgoingSms rows, e.g. "http:api.twilio.com". */
  readonly provider: string;
  /** Resolves once the provider accepted the message; rejects with a reason a person can act on (never a credential). */
  send(message: { readonly to: string; readonly text: string }): Promise<void>;
}
