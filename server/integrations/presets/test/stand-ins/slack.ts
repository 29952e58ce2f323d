import { json, startStandIn, text, type StandIn } from './stand-in.ts';

/**
 * Slack. chat.postMessage (docs.slack.dev, "chat.postMessage"): POST https://slack.com/api/chat.postMessage,
 * Authorization: Bearer xoxb-…, a JSON body with `channel` and `text` (Content-type: application/json;
 * charset=utf-8); it answers HTTP 200 {"ok": true, "channel", "ts", "message"}, and errors as HTTP 200
 * {"ok": false, "error": "invalid_auth"} (bad token), HTTP 429 with Retry-After (rate limits).
 * Incoming webhooks (api.slack.com changelog 2016-05-17): POST the webhook URL with a JSON body holding
 * `text`; 200 "ok" as text, errors as short codes in text: 400 invalid_payload, 403 action_prohibited /
 * invalid_token, 404 channel_not_found / no_service, 410 channel_is_archived, 500 rollup_error.
 */
export async function startSlack(options: { token: string; webhookPath: string }): Promise<StandIn> {
  return startStandIn('slack', (req, mode, check) => {
    const body = check.method('POST').jsonBody();
    if (req.url === options.webhookPath) {
      check
        .header('content-type', /^application\/json/)
        .that(typeof body.text === 'string' && body.text !== '', 'a webhook message needs "text"')
        .noHeader('authorization');
      if (mode === 'rate_limited') return (res) => text(res, 429, 'rate_limited', { 'retry-after': '30' });
      if (mode === 'unauthorized') return (res) => text(res, 403, 'invalid_token');
      if (mode === 'server_error') return (res) => text(res, 500, 'rollup_error');
      return (res) => text(res, 200, 'ok');
    }
    check
      .that(req.url === '/api/chat.postMessage', `path ${req.url}, the reference says /api/chat.postMessage`)
      .header('content-type', 'application/json; charset=utf-8')
      .header('authorization', `Bearer ${options.token}`)
      .that(typeof body.channel === 'string' && body.channel !== '', '"channel" is required')
      .that(typeof body.text === 'string' || Array.isArray(body.blocks), '"text" (or blocks) is required')
      .that(
        body.thread_ts === undefined || /^\d+\.\d+$/.test(String(body.thread_ts)),
        '"thread_ts" is a message ts such as 1503435956.000247',
      );
    if (mode === 'rate_limited')
      return (res) => json(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '30' });
    if (mode === 'unauthorized') return (res) => json(res, 200, { ok: false, error: 'invalid_auth' });
    if (mode === 'server_error') return (res) => json(res, 503, { ok: false, error: 'service_unavailable' });
    return (res) =>
      json(res, 200, {
        ok: true,
        channel: 'C123ABC456',
        ts: '1503435956.000247',
        message: {
          text: body.text,
          username: 'ecto1',
          bot_id: 'B123ABC456',
          type: 'message',
          subtype: 'bot_message',
          ts: '1503435956.000247',
        },
      });
  });
}
