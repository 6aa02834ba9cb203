import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The name of the variable the demo config reads the source secret from (kept out of the file). */
export const DEMO_SECRET_VARIABLE = 'MONITOR_WEBHOOK_SECRET';

/**
 * Writes the demo's daemon config into `dir` and returns its path: loopback on a free port, the given rules,
 * the journal beside it, one source `monitor` whose secret comes from the environment, and the admin listener
 * (loopback, a free port: the console) with one key of every scope, of which only the hash is written.
 */
export function writeDemoConfig(dir: string, rulesPath: string, adminKeyHash: string): string {
  const file = path.join(dir, 'switchyard.yaml');
  // JSON strings are valid YAML scalars, so any path (spaces, quotes, a Windows drive) stays one value.
  writeFileSync(
    file,
    `# Written by \`switchyard demo\`; removed when it ends unless --keep.
listen: { host: 127.0.0.1, port: 0 }
rules: ${JSON.stringify(rulesPath)}
store: { sqlite: { path: ./journal.db } }
sources:
  monitor:
    secrets: ['\${${DEMO_SECRET_VARIABLE}}']
admin:
  listen: { host: 127.0.0.1, port: 0 }
  keys: [{ name: demo, hash: ${JSON.stringify(adminKeyHash)}, scopes: [read, replay, silence] }]
log: { level: info }
`,
  );
  return file;
}
