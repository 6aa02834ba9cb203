import { describe, expect, it } from 'vitest';
import { setEnvLine } from '../../../src/cli/subscribe/set-env-line.js';

describe('setEnvLine', () => {
  it('appends to an empty file or one without the variable', () => {
    expect(setEnvLine('', 'A', '1')).toBe('A=1\n');
    expect(setEnvLine('B=2', 'A', '1')).toBe('B=2\nA=1\n');
    expect(setEnvLine('B=2\n', 'A', '1')).toBe('B=2\nA=1\n');
  });

  it('replaces the first assignment in place (export form too) and drops later ones', () => {
    expect(setEnvLine('# c\nexport A=old\nB=2\n A = older\n', 'A', 'new')).toBe('# c\nA=new\nB=2\n');
  });

  it('leaves variables that only start with the name, and comments, alone', () => {
    expect(setEnvLine('AB=1\n# A=commented\n', 'A', 'x')).toBe('AB=1\n# A=commented\nA=x\n');
  });

  it('reads CRLF files', () => {
    expect(setEnvLine('B=2\r\nA=old\r\n', 'A', 'new')).toBe('B=2\nA=new\n');
  });
});
