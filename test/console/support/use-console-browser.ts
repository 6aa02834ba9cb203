import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { buildConsole } from './build-console.js';
import { startConsoleDaemon, type ConsoleDaemon } from './console-daemon.js';
import { launchChromium } from './open-browser.js';

export interface ConsoleBrowser {
  readonly browser: () => Browser;
  /** A daemon for the current test, closed after it. */
  readonly start: () => Promise<ConsoleDaemon>;
}

/** For a test file: the console built and Chromium started once, a fresh daemon and journal per test. */
export function useConsoleBrowser(): ConsoleBrowser {
  const tempDir = useTempDirs();
  let consoleDir: string | undefined;
  let browser: Browser | undefined;
  let running: ConsoleDaemon | undefined;
  beforeAll(async () => {
    consoleDir = await buildConsole();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (consoleDir !== undefined) rmSync(path.dirname(consoleDir), { recursive: true, force: true });
  });
  afterEach(async () => {
    // Pages first, so no page keeps polling the daemon while it shuts down.
    for (const context of browser?.contexts() ?? []) await context.close();
    await running?.close();
    running = undefined;
  });
  return {
    browser: () => {
      if (browser === undefined) throw new Error('Chromium did not start');
      return browser;
    },
    async start() {
      if (consoleDir === undefined) throw new Error('the console was not built');
      running = await startConsoleDaemon(tempDir(), consoleDir);
      return running;
    },
  };
}
