import { startHttpReceiver, type HttpReceiver, type ScriptedAnswer } from './start-http-receiver.js';

/**
 * Slack's documented limits, written out here rather than imported, so the stand-in judges the code against
 * the docs and not against itself: https://api.slack.com/reference/block-kit/blocks and
 * https://api.slack.com/reference/block-kit/composition-objects#text. Over any of them Slack refuses the
 * whole message with `invalid_blocks`. Top-level `text` over 40,000 is refused too (`msg_too_long`), the
 * stricter of Slack's two documented behaviours (it may also truncate).
 */
const TEXT_OBJECT = 3_000;

function tooLong(value: unknown, max: number): boolean {
  const text = (value as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' && text.length > max;
}

function blocksProblem(blocks: unknown): boolean {
  if (!Array.isArray(blocks)) return false;
  if (blocks.length > 50) return true;
  return blocks.some((block: Record<string, unknown>) => {
    switch (block.type) {
      case 'header':
        return tooLong(block.text, 150);
      case 'section': {
        const fields = (block.fields ?? []) as unknown[];
        return tooLong(block.text, TEXT_OBJECT) || fields.length > 10 || fields.some((f) => tooLong(f, 2_000));
      }
      case 'context': {
        const elements = (block.elements ?? []) as unknown[];
        return elements.length > 10 || elements.some((e) => tooLong(e, TEXT_OBJECT));
      }
      default:
        return false;
    }
  });
}

/** What Slack would answer this body: undefined for `200 ok`. */
export function judgeSlackMessage(body: Buffer): ScriptedAnswer | undefined {
  const refuse = (code: string): ScriptedAnswer => ({ status: 400, body: code });
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return refuse('invalid_payload');
  }
  if (typeof message.text === 'string' && message.text.length > 40_000) return refuse('msg_too_long');
  const attachments = (message.attachments ?? []) as { blocks?: unknown }[];
  if (blocksProblem(message.blocks) || attachments.some((a) => blocksProblem(a.blocks))) {
    return refuse('invalid_blocks');
  }
  return undefined;
}

/** A local stand-in for hooks.slack.com that checks every message against Slack's limits. */
export function startSlackStandIn(): Promise<HttpReceiver> {
  return startHttpReceiver({
    default: { status: 200, body: 'ok', headers: { 'content-type': 'text/html' } },
    judge: (request) => judgeSlackMessage(request.body),
  });
}
