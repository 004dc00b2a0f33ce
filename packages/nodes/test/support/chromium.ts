import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The Chromium binary (Debian's `chromium` package), or undefined when not installed. */
export function chromiumBinary(): string | undefined {
  for (const candidate of [process.env.QUARRY_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (candidate && existsSync(candidate) && spawnSync(candidate, ['--version'], { timeout: 20_000 }).status === 0) return candidate;
  }
  return undefined;
}

/** Why browser tests are skipped, or undefined when they can run. */
export const chromiumSkipReason =
  chromiumBinary() === undefined ? 'chromium is not installed (apt-get install -y --no-install-recommends chromium; .ci/run installs it)' : undefined;

/** Launches headless Chromium: one per test file, closed in `afterAll`. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumBinary();
  if (!executablePath) throw new Error(chromiumSkipReason);
  const args = ['--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];
  // Chromium's sandbox refuses to start as root (CI containers).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return puppeteer.launch({ executablePath, args, headless: true });
}

/** What went wrong in a page: uncaught errors, console errors and script dialogs. */
export interface PageTrouble {
  errors: string[];
  dialogs: string[];
}

/**
 * Writes `html` to `dir/name` and opens it as a file (so that it is seen as a person opening the
 * report would see it), with network requests other than `file:` and `data:` failing the test.
 */
export async function openReport(browser: Browser, dir: string, name: string, html: string): Promise<{ page: Page; path: string; trouble: PageTrouble }> {
  const path = join(dir, name);
  await writeFile(path, html);
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  const trouble: PageTrouble = { errors: [], dialogs: [] };
  page.on('pageerror', (e) => trouble.errors.push(e instanceof Error ? e.message : String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') trouble.errors.push(m.text());
  });
  page.on('dialog', (d) => {
    trouble.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!/^(file|data):/.test(r.url())) trouble.errors.push(`network request ${r.url()}`);
  });
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  return { page, path, trouble };
}
