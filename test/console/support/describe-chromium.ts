import { existsSync } from 'node:fs';
import { describe } from 'vitest';
import { CHROMIUM } from './open-browser.js';

/**
 * A describe block that drives Debian's Chromium. Without /usr/bin/chromium it is reported as skipped, with the
 * reason in its name and on stderr, and the run still passes; .ci/run installs it, so CI always runs these.
 */
export function describeChromium(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
    return;
  }
  const why = `SKIPPED: no ${CHROMIUM} (apt-get install chromium)`;
  console.warn(`\n*** ${name}: ${why}\n`);
  describe.skip(`${name} — ${why}`, body);
}
