import { LineCounter, parseDocument } from 'yaml';
const cases = {
  plainThenDeeper: `routes:
  - name: r
    to: a
      stop: true
`,
  nameThenDeeperKey: `routes:
  - name: r
      to: [a]
`,
  matchDeeper: `routes:
  - name: r
    match:
      event: x
        severity: high
    to: [a]
`,
  flowThenDeeper: `routes:
  - name: r
    to: [a]
        stop: true
`,
  comment: `routes:
  - name: r
    # comment
     to: [a]
`,
  topLevelIndented: `targets: {}
 routes: []
`,
  dashNoSpace: `routes:
  -name: r
   to: [a]
`,
  keyNoSpace: `routes:
  - name:r
    to: [a]
`,
  targetsDeeper: `targets:
  a:
    type: http
     url: "https://a"
`,
  quotedThenDeeper: `routes:
  - name: "r"
      to: [a]
`,
};
for (const [name, text] of Object.entries(cases)) {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  console.log('==', name);
  for (const e of doc.errors) { const p = lc.linePos(e.pos[0]); const q = lc.linePos(e.pos[1]); console.log(' ', e.code, `${p.line}:${p.col}-${q.line}:${q.col}`, JSON.stringify(e.message)); }
  if (!doc.errors.length) console.log('  OK', JSON.stringify(doc.toJS()));
}
