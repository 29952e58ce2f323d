/*
 * Pieces the preset step types share. The presets are written as a bot's own step type
 * modules are (define-step-type.ts): the same contract, the same checks at start-up, so the
 * designer's palette and `chatbot check` treat them alike.
 */

/** A parameter whose value is the NAME of a secret, e.g. "SLACK_BOT_TOKEN". */
export function secretName(description: string): Record<string, unknown> {
  return {
    type: 'string',
    pattern: '^[A-Z_][A-Z0-9_]*$',
    description: `${description} Only the secret's name goes here, never the secret itself: a secret kept in the studio, or one the server is given when it starts.`,
  };
}

/** An http(s) base URL a credential is sent to: written as it is in the definition (listed in `fixed`). */
export function baseUrl(description: string, defaultUrl?: string): Record<string, unknown> {
  return {
    type: 'string',
    format: 'uri',
    pattern: '^https?://',
    description: `${description} Written as it is (no {{templates}}), since the credentials go there.`,
    ...(defaultUrl ? { default: defaultUrl } : {}),
  };
}

/** A failure the step reports with a kind of the integration layer (see STEP_CODE_ERROR_KINDS), so a flag policy can tell them apart. */
export function failure(
  message: string,
  kind: 'auth' | 'status' | 'invalid_body' | 'invalid_params' | 'rate_limited',
  status?: number,
): Error {
  return Object.assign(new Error(message), { kind, ...(status === undefined ? {} : { status }) });
}

/** `base` with exactly one "/" before `path`. */
export function under(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The HTTP status of a failed `ctx.request` (it throws for any non-2xx answer). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}
