import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../../src/rules/check/closest-name.js';

describe('closestName', () => {
  it.each([
    ['soc-alert', ['pager', 'soc-alerts'], 'soc-alerts'], // a missing character
    ['soc-alretst', ['soc-alerts'], 'soc-alerts'], // two edits on a long name
    ['pagr', ['chat', 'pager'], 'pager'],
    ['chanel', ['type', 'channel', 'username'], 'channel'],
    ['hihg', ['low', 'high'], 'high'], // a swap of adjacent characters is one edit
    ['SOC-Alerts', ['soc-alerts'], 'soc-alerts'], // case is ignored
    ['incident.create', ['incident.created', 'incident.resolved'], 'incident.created'],
  ])('suggests %s -> %s', (word, candidates, expected) => {
    expect(closestName(word, candidates)).toBe(expected);
  });

  it.each([
    ['a', ['b']], // one edit is all of a short name
    ['page', ['chat']],
    ['pgr', ['pager']], // two edits on a short name
    ['critcial-team', ['soc-alerts']],
    ['x', []],
  ])('suggests nothing for %s among %j', (word, candidates) => {
    expect(closestName(word, candidates)).toBeUndefined();
  });

  it('prefers the closest candidate, then the earlier one', () => {
    expect(closestName('alerts-1', ['alerts-12', 'alerts-2', 'alerts-1x'])).toBe('alerts-12');
    expect(closestName('soc-alerts', ['soc-alerts-x', 'soc-alert'])).toBe('soc-alert');
  });

  it('words the suggestion for a message', () => {
    expect(didYouMean('pagr', ['pager'])).toBe(': did you mean "pager"?');
    expect(didYouMean('zzz', ['pager'])).toBe('');
  });
});
