import { describe, expect, it } from 'vitest';
import { clipSlackMessage, SLACK_LIMITS } from '../../../src/delivery/targets/clip-slack-message.js';

const long = (length: number) => 'x'.repeat(length);
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });

describe('clipSlackMessage', () => {
  it('clips each string to the limit of its place, with an ellipsis', () => {
    const clipped = clipSlackMessage({
      text: long(45_000),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: long(3_500), emoji: true } },
        { type: 'section', text: mrkdwn(long(3_500)), fields: [mrkdwn(long(2_500)), mrkdwn('short')] },
        { type: 'context', elements: [mrkdwn(long(4_000)), { type: 'image', image_url: 'u', alt_text: 'a' }] },
        { type: 'markdown', text: long(20_000) },
      ],
    });
    expect(clipped.text).toHaveLength(SLACK_LIMITS.text);
    expect(clipped.text.endsWith('…')).toBe(true);
    expect(clipped.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: `${long(149)}…`, emoji: true } },
      { type: 'section', text: mrkdwn(`${long(2_999)}…`), fields: [mrkdwn(`${long(1_999)}…`), mrkdwn('short')] },
      {
        type: 'context',
        elements: [mrkdwn(`${long(2_999)}…`), { type: 'image', image_url: 'u', alt_text: 'a' }],
      },
      { type: 'markdown', text: `${long(11_999)}…` },
    ]);
  });

  it('keeps the first 49 of over 50 blocks and says how many were left out', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => ({ type: 'section', text: mrkdwn(`block ${i}`) }));
    const clipped = clipSlackMessage({ blocks });
    expect(clipped.blocks).toHaveLength(50);
    expect(clipped.blocks.slice(0, 49)).toEqual(blocks.slice(0, 49));
    expect(clipped.blocks[49]).toEqual({
      type: 'context',
      elements: [mrkdwn("… 11 more blocks left out (over Slack's limit)")],
    });
  });

  it('limits section fields and context elements to 10, the last saying how many more there were', () => {
    const items = Array.from({ length: 12 }, (_, i) => mrkdwn(`item ${i}`));
    const clipped = clipSlackMessage({
      blocks: [
        { type: 'section', fields: items },
        { type: 'context', elements: items },
      ],
    });
    const [section, context] = clipped.blocks as unknown as [{ fields: unknown[] }, { elements: unknown[] }];
    expect(section.fields).toEqual([...items.slice(0, 9), mrkdwn("… 3 more fields left out (over Slack's limit)")]);
    expect(context.elements).toEqual([...items.slice(0, 9), mrkdwn("… 3 more elements left out (over Slack's limit)")]);
  });

  it('clips the blocks of each attachment too, and leaves what it does not know alone', () => {
    const message = {
      text: 'short',
      unfurl_links: false,
      attachments: [
        { color: '#B00020', blocks: [{ type: 'section', text: mrkdwn(long(3_001)) }] },
        { color: '#2EB67D', text: 'legacy' },
      ],
      blocks: [{ type: 'divider' }, { type: 'actions', elements: [{ type: 'button', text: long(10) }] }, 'odd'],
    };
    const clipped = clipSlackMessage(message);
    expect(clipped).toEqual({
      ...message,
      attachments: [
        { color: '#B00020', blocks: [{ type: 'section', text: mrkdwn(`${long(2_999)}…`) }] },
        { color: '#2EB67D', text: 'legacy' },
      ],
    });
  });

  it('returns a message within every limit unchanged, and never changes its argument', () => {
    const message = { text: 'hi', blocks: [{ type: 'header', text: { type: 'plain_text', text: long(200) } }] };
    const before = structuredClone(message);
    clipSlackMessage(message);
    expect(message).toEqual(before);
    const within = { text: 'hi', blocks: [{ type: 'section', text: mrkdwn('ok') }] };
    expect(clipSlackMessage(within)).toEqual(within);
  });
});
