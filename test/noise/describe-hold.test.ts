import { describe, expect, it } from 'vitest';
import { describeHold } from '../../src/noise/describe-hold.js';

describe('describeHold', () => {
  it('says why a held delivery was not sent, the same way everywhere', () => {
    expect(describeHold('silenced', 'sil_1')).toBe('silenced by sil_1');
    expect(describeHold('muted', 'maintenance-window')).toBe('muted by interval maintenance-window');
    expect(describeHold('suppressed', 'target:soc-slack')).toBe('suppressed by throttle target:soc-slack');
    expect(describeHold('grouped', 'dig_1')).toBe('grouped into digest dig_1');
    expect(describeHold('dead', null)).toBeUndefined();
    expect(describeHold('pending', null)).toBeUndefined();
  });
});
