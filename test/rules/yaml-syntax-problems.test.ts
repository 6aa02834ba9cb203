import { describe, expect, it } from 'vitest';
import { rulesLoader } from './support/load-rules-text.js';

const { load } = rulesLoader();

const HEAD = `targets:
  soc-alerts: { type: http, url: "https://soc.example/hook" }
routes:
`;

/** `line:column message` of each problem (line numbers count the three lines of HEAD). */
function syntaxProblems(text: string): string[] {
  const result = load(text);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`);
}

describe('YAML mistakes in plain words, on the line of the mistake', () => {
  it.each([
    [
      'a key indented one space too far, after a list value',
      `${HEAD}  - name: r\n    match: { event: agent.offline }\n     to: [soc-alerts]\n`,
      '6:6 yaml_syntax: bad indentation: "to" starts at column 6, but "match" on line 5 starts at column 5; keys of one map must start in the same column',
    ],
    [
      'a key indented too far after a plain value (the parser blames the line above)',
      `${HEAD}  - name: r\n    to: soc-alerts\n      stop: true\n`,
      '6:7 yaml_syntax: bad indentation: "stop" starts at column 7, but "to" on line 5 starts at column 5; keys of one map must start in the same column',
    ],
    [
      'a key indented too far right after "- name"',
      `${HEAD}  - name: r\n      to: [soc-alerts]\n`,
      '5:7 yaml_syntax: bad indentation: "to" starts at column 7, but "name" on line 4 starts at column 5; keys of one map must start in the same column',
    ],
    [
      'a key indented too little, after a nested map',
      `${HEAD}  - name: r\n    match:\n      event: agent.offline\n   to: [soc-alerts]\n`,
      '7:4 yaml_syntax: bad indentation: "to" starts at column 4, but "match" on line 5 starts at column 5; keys of one map must start in the same column',
    ],
    [
      'a mis-indented key after a comment (the parser blames the comment)',
      `${HEAD}  - name: r\n    # page the on-call\n     to: [soc-alerts]\n`,
      '6:6 yaml_syntax: bad indentation: "to" starts at column 6, but "name" on line 4 starts at column 5; keys of one map must start in the same column',
    ],
    [
      'a list item out of line',
      `${HEAD}  - name: r\n    to: [soc-alerts]\n   - name: s\n    to: [soc-alerts]\n`,
      '6:4 yaml_syntax: bad indentation: this "-" is at column 4, but the "-" on line 4 is at column 3; items of one list must start in the same column',
    ],
    [
      'a tab used for indentation',
      `${HEAD}  - name: r\n\tto: [soc-alerts]\n`,
      '5:1 yaml_syntax: a tab indents this line: YAML indentation must be spaces',
    ],
    [
      'a missing space after "-"',
      `${HEAD}  -name: r\n   to: [soc-alerts]\n`,
      '4:4 yaml_syntax: a space is missing after "-" (write - key: value)',
    ],
    [
      'a missing colon after a key',
      `targets:\n  soc-alerts: { type: http, url: "https://soc.example/hook" }\nroutes\n  - { name: r, to: soc-alerts }\n`,
      '3:1 yaml_syntax: this key needs a ":" after it (key: value)',
    ],
    [
      'an unclosed flow map (the parser notices at the next key)',
      `targets:\n  soc-alerts: { type: http, url: "https://soc.example/hook"\nroutes: []\n`,
      '2:15 yaml_syntax: this "{" is not closed: add "}" at the end of the value',
    ],
    [
      'a value with ": " in it',
      `${HEAD}  - name: page: now\n    to: [soc-alerts]\n`,
      '4:11 yaml_syntax: this value contains ": ": put the value in quotes',
    ],
    [
      'a missing space after ":"',
      `${HEAD}  - name:r\n    to: [soc-alerts]\n`,
      '4:10 yaml_syntax: a space is missing after ":" (write key: value)',
    ],
    ['an unclosed quote', `${HEAD}  - name: "r\n    to: [soc-alerts]\n`, '4:11 yaml_syntax: this " is never closed'],
  ])('%s', (_what, text, expected) => {
    expect(syntaxProblems(text)).toEqual([expected]);
  });

  it('reports only the first syntax error: the parser misreads what follows one', () => {
    const text = `${HEAD}  - name: r\n     to: [soc-alerts]\n  - name: s\n      to: [soc-alerts]\n`;
    expect(syntaxProblems(text)).toEqual([expect.stringMatching(/^5:6 yaml_syntax: bad indentation: "to"/)]);
  });
});
