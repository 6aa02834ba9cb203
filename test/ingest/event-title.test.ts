import { describe, expect, it } from 'vitest';
import { eventTitle, MAX_TITLE_LENGTH } from '../../src/ingest/event-title.js';

describe('eventTitle', () => {
  it('takes data.title, else a top-level title, else null', () => {
    expect(eventTitle({ data: { title: 'Disk full' }, title: 'outer' })).toBe('Disk full');
    expect(eventTitle({ data: {}, title: 'outer' })).toBe('outer');
    expect(eventTitle({ data: { title: 42 } })).toBeNull();
    expect(eventTitle({ data: { rule: { title: 'nested deeper' } } })).toBeNull();
    expect(eventTitle({ data: {} })).toBeNull();
    expect(eventTitle(null)).toBeNull();
  });

  it('cuts long titles by code point', () => {
    const long = '😀'.repeat(MAX_TITLE_LENGTH + 5);
    const cut = eventTitle({ data: { title: long } }) ?? '';
    expect(Array.from(cut)).toHaveLength(MAX_TITLE_LENGTH);
    expect(cut.endsWith('😀')).toBe(true);
  });
});
