import { startHttpReceiver, type HttpReceiver, type ScriptedAnswer } from './start-http-receiver.js';

/** One message as the stand-in keeps it. */
export interface SlackApiMessage {
  readonly channel: string;
  readonly ts: string;
  /** The parent's ts for a thread reply. */
  readonly threadTs: string | undefined;
  readonly broadcast: boolean;
  text: string;
  blocks: unknown;
  attachments: unknown;
  /** How many times chat.update changed it. */
  edits: number;
}

export interface SlackApiStandIn extends HttpReceiver {
  /** Every message, in posting order. */
  readonly messages: SlackApiMessage[];
  /** The thread replies to `ts`, in order. */
  replies(ts: string): SlackApiMessage[];
  /** Deletes a message, as a user in Slack may. */
  remove(ts: string): void;
}

export const BOT_TOKEN = 'xoxb-0000-1111-StandInBotTokenSecret';
/** Channels the bot is a member of, by name; Slack answers with the id. */
const CHANNELS: Readonly<Record<string, string>> = { '#soc-alerts': 'C0SOCALERT', '#infra': 'C0INFRA' };
/** A channel that exists but the bot was not invited to. */
const NOT_JOINED = '#private-ir';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});
const fail = (error: string): ScriptedAnswer => json({ ok: false, error });

/** Slack's answer to a rate-limited call: 429 with Retry-After (https://docs.slack.dev/apis/web-api/rate-limits). */
export const RATE_LIMITED = (seconds: number): ScriptedAnswer =>
  json({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(seconds) });

/**
 * A local stand-in for Slack's Web API, answering as its docs say (https://docs.slack.dev/reference/methods/
 * chat.postMessage and .../chat.update): HTTP 200 with `{"ok": true, "channel": "<id>", "ts": "..."}` or
 * `{"ok": false, "error": "<code>"}`: `not_authed`/`invalid_auth` for a missing or wrong bearer token,
 * `channel_not_found`, `not_in_channel`, `message_not_found` (updating an unknown message), `no_text`; and
 * `thread_not_found` for a reply to an unknown parent, an assumption: Slack documents that code for reading a
 * thread (conversations.replies), not what chat.postMessage answers for a deleted parent. Arguments come form-encoded (what @slack/web-api sends) or as JSON.
 */
export async function startSlackApiStandIn(): Promise<SlackApiStandIn> {
  const messages: SlackApiMessage[] = [];
  let clock = 1_764_000_000;
  const receiver = await startHttpReceiver({
    judge: (request) => {
      const method = /^\/api\/([a-zA-Z.]+)$/.exec(request.url)?.[1];
      if (request.method !== 'POST' || method === undefined) return { status: 404, body: 'Not Found' };
      const args = readArgs(request.headers['content-type'] ?? '', request.body.toString('utf8'));
      const auth =
        request.headers.authorization ?? (args['token'] === undefined ? undefined : `Bearer ${args['token']}`);
      if (auth === undefined) return fail('not_authed');
      if (auth !== `Bearer ${BOT_TOKEN}`) return fail('invalid_auth');
      const name = String(args['channel'] ?? '');
      if (name === NOT_JOINED) return fail('not_in_channel');
      const channel = CHANNELS[name] ?? (Object.values(CHANNELS).includes(name) ? name : undefined);
      if (channel === undefined) return fail('channel_not_found');
      const text = typeof args['text'] === 'string' ? args['text'] : '';
      if (text === '' && args['blocks'] === undefined && args['attachments'] === undefined) return fail('no_text');
      const find = (ts: unknown) => messages.find((m) => m.channel === channel && m.ts === ts);
      if (method === 'chat.update') {
        const message = find(args['ts']);
        if (message === undefined) return fail('message_not_found');
        Object.assign(message, { text, blocks: args['blocks'], attachments: args['attachments'] });
        message.edits += 1;
        return json({ ok: true, channel, ts: message.ts, text });
      }
      if (method !== 'chat.postMessage') return fail('unknown_method');
      const threadTs = typeof args['thread_ts'] === 'string' ? args['thread_ts'] : undefined;
      if (threadTs !== undefined && find(threadTs) === undefined) return fail('thread_not_found');
      clock += 1;
      const ts = `${clock}.000100`;
      const broadcast = args['reply_broadcast'] === true || args['reply_broadcast'] === 'true';
      const message = {
        channel,
        ts,
        threadTs,
        broadcast,
        text,
        blocks: args['blocks'],
        attachments: args['attachments'],
        edits: 0,
      };
      messages.push(message);
      return json({ ok: true, channel, ts, message: { type: 'message', text, ts, thread_ts: threadTs } });
    },
  });
  return Object.assign(receiver, {
    messages,
    replies: (ts: string) => messages.filter((m) => m.threadTs === ts),
    remove: (ts: string) =>
      void messages.splice(
        messages.findIndex((m) => m.ts === ts),
        1,
      ),
  });
}

/** Form fields whose values are JSON (blocks, attachments) parsed back, as Slack reads them. */
function readArgs(contentType: string, text: string): Record<string, unknown> {
  if (contentType.startsWith('application/json')) return JSON.parse(text || '{}') as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = key === 'blocks' || key === 'attachments' ? (JSON.parse(value) as unknown) : value;
  }
  return args;
}
