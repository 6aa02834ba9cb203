import { ELLIPSIS, clipSlackText } from './clip-slack-text.js';

/**
 * Slack's documented limits by place; a message over any of them is refused whole (`invalid_blocks`), which
 * would lose the notification, so every rendered string is clipped to its place's limit instead.
 * https://api.slack.com/reference/block-kit/blocks, https://api.slack.com/reference/block-kit/composition-objects#text
 * https://api.slack.com/methods/chat.postMessage#truncating (top-level `text`)
 */
export const SLACK_LIMITS = {
  text: 40_000,
  blocks: 50,
  sectionText: 3_000,
  fields: 10,
  field: 2_000,
  header: 150,
  contextElements: 10,
  textObject: 3_000,
  markdown: 12_000,
} as const;

type Json = Record<string, unknown>;

/**
 * The message with every string Slack limits clipped, whether it came from the default card or a `message:`
 * template: top-level `text`, and in `blocks` (and each attachment's `blocks`) header, section text and fields,
 * context elements and markdown text. Lists over their count (blocks, fields, context elements) keep their
 * first items and end with one saying how many were left out. Everything else passes unchanged.
 */
export function clipSlackMessage<T extends object>(message: T): T {
  const source = message as Json;
  const clipped: Json = { ...source };
  if (typeof source.text === 'string') clipped.text = clipSlackText(source.text, SLACK_LIMITS.text);
  if (Array.isArray(source.blocks)) clipped.blocks = clipBlocks(source.blocks);
  if (Array.isArray(source.attachments)) {
    clipped.attachments = source.attachments.map((attachment: unknown) =>
      isJson(attachment) && Array.isArray(attachment.blocks)
        ? { ...attachment, blocks: clipBlocks(attachment.blocks) }
        : attachment,
    );
  }
  return clipped as T;
}

function clipBlocks(blocks: readonly unknown[]): unknown[] {
  return keepFirst(blocks, SLACK_LIMITS.blocks, (left) => ({
    type: 'context',
    elements: [leftOut(left, 'blocks')],
  })).map(clipBlock);
}

function clipBlock(block: unknown): unknown {
  if (!isJson(block)) return block;
  switch (block.type) {
    case 'header':
      return { ...block, text: clipTextObject(block.text, SLACK_LIMITS.header) };
    case 'section': {
      const clipped: Json = { ...block };
      if ('text' in block) clipped.text = clipTextObject(block.text, SLACK_LIMITS.sectionText);
      if (Array.isArray(block.fields)) {
        clipped.fields = keepFirst(block.fields, SLACK_LIMITS.fields, (left) => leftOut(left, 'fields')).map((field) =>
          clipTextObject(field, SLACK_LIMITS.field),
        );
      }
      return clipped;
    }
    case 'context':
      if (!Array.isArray(block.elements)) return block;
      return {
        ...block,
        elements: keepFirst(block.elements, SLACK_LIMITS.contextElements, (left) => leftOut(left, 'elements')).map(
          (element) => clipTextObject(element, SLACK_LIMITS.textObject),
        ),
      };
    case 'markdown':
      return typeof block.text === 'string'
        ? { ...block, text: clipSlackText(block.text, SLACK_LIMITS.markdown) }
        : block;
    default:
      return block;
  }
}

/** A text object (`{type: 'mrkdwn', text}`) with its text clipped; anything else (an image element) as it is. */
function clipTextObject(value: unknown, max: number): unknown {
  if (!isJson(value) || typeof value.text !== 'string') return value;
  return { ...value, text: clipSlackText(value.text, max) };
}

/** The first `max - 1` items and a last one saying how many more there were, when there are over `max`. */
function keepFirst(items: readonly unknown[], max: number, note: (left: number) => unknown): readonly unknown[] {
  if (items.length <= max) return items;
  return [...items.slice(0, max - 1), note(items.length - (max - 1))];
}

function leftOut(count: number, what: string): Json {
  return { type: 'mrkdwn', text: `${ELLIPSIS} ${count} more ${what} left out (over Slack's limit)` };
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
