import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const RECORDER = fileURLToPath(new URL('../helpers/record-imports/register.mjs', import.meta.url));

/** The packages a process resolved, from the recorder's list of URLs. */
function packagesIn(file: string): Set<string> {
  const names = new Set<string>();
  for (const url of readFileSync(file, 'utf8').split('\n')) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}

describe('what the daemon loads', () => {
  it('with a SQLite journal and only an HTTP target, loads neither pg, the Slack Web API, nodemailer nor smtp-server', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      'targets:\n  tickets: { type: http, url: "http://127.0.0.1:9/events" }\nroutes:\n' +
        '  - name: all\n    match: { event: "incident.*" }\n    to: [tickets]\n',
    );
    const config = path.join(dir, 'switchyard.yaml');
    writeFileSync(
      config,
      'listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\n' +
        'sources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
    );
    const imports = path.join(dir, 'imports.txt');
    const cli = spawnCli(['serve', '--config', config], {
      MONITOR_SECRET: SOURCE_SECRET,
      NODE_OPTIONS: `--import ${RECORDER}`,
      RECORD_IMPORTS_FILE: imports,
    });
    await cli.waitFor('switchyard listening');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);

    const loaded = packagesIn(imports);
    expect(loaded).toContain('better-sqlite3'); // the recorder saw the daemon's imports
    for (const name of ['pg', '@slack/web-api', 'nodemailer', 'smtp-server']) expect(loaded).not.toContain(name);
  });
});
