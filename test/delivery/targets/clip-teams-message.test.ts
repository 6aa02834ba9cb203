import { describe, expect, it } from 'vitest';
import { clipTeamsMessage, TEAMS_LIMITS } from '../../../src/delivery/targets/clip-teams-message.js';
import { teamsPayload, type TeamsPayload } from '../../../src/delivery/targets/teams-payload.js';
import { escapeTeamsMarkdown } from '../../../src/templates/escape-teams-markdown.js';

const long = (length: number, char = 'x') => char.repeat(length);
const text = (value: string) => ({ type: 'TextBlock', text: value, wrap: true });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const body = (payload: TeamsPayload) => (payload.attachments[0]?.content as { body: unknown[] }).body;

describe('clipTeamsMessage', () => {
  it('clips each text to the limit of its place, at any depth, with an ellipsis', () => {
    const payload = teamsPayload({
      type: 'AdaptiveCard',
      body: [
        text(long(6_000)),
        {
          type: 'FactSet',
          facts: [
            { title: long(300), value: long(2_500) },
            { title: 'Host', value: 'web-1' },
          ],
        },
        {
          type: 'ColumnSet',
          columns: [
            { type: 'Column', items: [{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: long(5_001) }] }] },
          ],
        },
        { type: 'Image', url: 'https://example.com/a.png', altText: 'a' },
      ],
    });
    expect(body(clipTeamsMessage(payload))).toEqual([
      text(`${long(4_999)}…`),
      {
        type: 'FactSet',
        facts: [
          { title: `${long(199)}…`, value: `${long(1_999)}…` },
          { title: 'Host', value: 'web-1' },
        ],
      },
      {
        type: 'ColumnSet',
        columns: [
          {
            type: 'Column',
            items: [{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: `${long(4_999)}…` }] }],
          },
        ],
      },
      { type: 'Image', url: 'https://example.com/a.png', altText: 'a' },
    ]);
    // The input is not changed.
    expect((body(payload)[0] as { text: string }).text).toHaveLength(6_000);
  });

  it('keeps the payload under its size, the long texts sharing the cut and the short ones spared', () => {
    const description = escapeTeamsMarkdown(long(45_000, '<'));
    const payload = teamsPayload({
      type: 'AdaptiveCard',
      body: [text('**Ransomware on host-7**'), ...Array.from({ length: 8 }, () => text(description)), text('footer')],
    });
    expect(bytes(payload)).toBeGreaterThan(700_000);
    const clipped = clipTeamsMessage(payload);
    expect(bytes(clipped)).toBeLessThanOrEqual(TEAMS_LIMITS.payloadBytes);
    const texts = body(clipped).map((element) => (element as { text: string }).text);
    expect(texts[0]).toBe('**Ransomware on host-7**');
    expect(texts[9]).toBe('footer');
    for (const cut of texts.slice(1, 9)) {
      expect(cut).toMatch(/^(\\<)+…$/); // never between a backslash and its character
      expect(cut.length).toBeGreaterThan(1_000);
      expect(Math.abs(cut.length - (texts[1]?.length ?? 0))).toBeLessThanOrEqual(1);
    }
    expect(bytes(clipped)).toBeGreaterThan(TEAMS_LIMITS.payloadBytes - 500); // no more is cut than needed
  });

  it('leaves out the last body elements, never the first, when many short ones are too many', () => {
    const elements = Array.from({ length: 500 }, (_, n) => text(`event ${n}: ${long(150)}`));
    const clipped = clipTeamsMessage(teamsPayload({ type: 'AdaptiveCard', body: elements }));
    expect(bytes(clipped)).toBeLessThanOrEqual(TEAMS_LIMITS.payloadBytes);
    const kept = body(clipped);
    const shown = kept.length - 1;
    expect(kept.slice(0, shown)).toEqual(elements.slice(0, shown));
    expect(kept[shown]).toMatchObject({ text: `… ${500 - shown} more elements left out (over Teams' size limit)` });
    expect(shown).toBeGreaterThan(100);
  });

  it('clips every Adaptive Card of a whole payload and passes other attachments and fields unchanged', () => {
    const other = { contentType: 'text/plain', contentUrl: null, content: long(6_000) };
    const payload = {
      type: 'message',
      summary: long(6_000),
      attachments: [teamsPayload({ type: 'AdaptiveCard', body: [text(long(6_000))] }).attachments[0], other],
    };
    const clipped = clipTeamsMessage(payload);
    expect(clipped.summary).toBe(payload.summary);
    expect(clipped.attachments[1]).toEqual(other);
    expect((clipped.attachments[0]?.content as { body: { text: string }[] }).body[0]?.text).toHaveLength(
      TEAMS_LIMITS.text,
    );
  });

  it('leaves a payload within its limits as it is', () => {
    const payload = teamsPayload({ type: 'AdaptiveCard', body: [text('short'), { type: 'FactSet', facts: [] }] });
    expect(clipTeamsMessage(payload)).toEqual(payload);
  });
});
