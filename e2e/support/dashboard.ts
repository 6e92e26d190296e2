import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test as base, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { ROOT } from './paths';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { startServer, type ServerHandle } from './server';

/** React's hydration failures: the production codes (#418 text, #419, #422, #423, #425) and the development words. */
export const HYDRATION_PROBLEM = /hydrat|Minified React error #(418|419|422|423|425)\b|did not match/i;

/** Starts recording each page's uncaught errors and hydration warnings (in `problems`). */
export function watchPageErrors(
  context: BrowserContext,
  problems: string[],
  options: { consoleErrors?: (text: string, url: string) => boolean } = {},
) {
  const watch = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      const text = message.text();
      const isReported =
        HYDRATION_PROBLEM.test(text) ||
        (message.type() === 'error' && (options.consoleErrors?.(text, message.location().url) ?? false));
      if (isReported) problems.push(`console ${message.type()} on ${page.url()}: ${text}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

/**
 * The dashboard specs' `test`: a page that throws or fails to hydrate fails the test that opened it,
 * in the default context and in every context the test makes with `browser.newContext()`.
 */
export const test = base.extend<{ failOnPageErrors: void }>({
  failOnPageErrors: [
    async ({ context, browser }, use) => {
      const problems: string[] = [];
      watchPageErrors(context, problems);
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      const patched = browser as Browser;
      patched.newContext = async (options) => {
        const created = await newContext(options);
        watchPageErrors(created, problems);
        return created;
      };
      patched.newPage = async (options) => {
        const created = await newPage(options);
        watchPageErrors(created.context(), problems);
        return created;
      };
      try {
        await use();
      } finally {
        patched.newContext = newContext;
        patched.newPage = newPage;
      }
      expect(problems, 'the pages threw or failed to hydrate').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

// Playwright empties test-results/ when a run starts; MAILSTEAD_TEST_SCREENSHOTS puts them elsewhere.
const SCREENSHOTS = process.env.MAILSTEAD_TEST_SCREENSHOTS ?? path.join(ROOT, 'test-results', 'screenshots');

export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

/**
 * Every page a test visits is kept as a screenshot in the test's artifacts, and under
 * test-results/screenshots/ by name, to look at after the run.
 */
export async function capture(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean } = {}) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  mkdirSync(SCREENSHOTS, { recursive: true });
  copyFileSync(file, path.join(SCREENSHOTS, `${name}.png`));
}

/** At a phone's width nothing may make the whole page scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect
    .soft(widths.scroll, `the page is ${widths.scroll}px wide in a ${widths.viewport}px viewport`)
    .toBeLessThanOrEqual(widths.viewport);
}

/**
 * A chart is readable when its axis labels do not run into each other: no two tick labels of one
 * axis overlap (recharts drops ticks that would not fit; this checks that it did).
 */
export async function expectChartTicksApart(page: Page, chart: string) {
  const overlaps = await page.locator(`[data-chart="${chart}"]`).evaluate((element) => {
    const found: string[] = [];
    for (const axis of element.querySelectorAll('.recharts-cartesian-axis')) {
      const boxes = [
        ...axis.querySelectorAll('.recharts-cartesian-axis-tick-value, .recharts-cartesian-axis-tick text'),
      ].map((tick) => ({ text: tick.textContent ?? '', box: tick.getBoundingClientRect() }));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i].box, boxes[j].box];
          if (
            a.width &&
            b.width &&
            a.left < b.right - 1 &&
            b.left < a.right - 1 &&
            a.top < b.bottom - 1 &&
            b.top < a.bottom - 1
          )
            found.push(`${boxes[i].text} / ${boxes[j].text}`);
        }
      }
    }
    return found;
  });
  expect.soft(overlaps, `tick labels overlap in the ${chart} chart`).toEqual([]);
}

/** A server of the spec's own (with its own scratch database on the PostgreSQL run). */
export function ownDashboardServer(name: string, env: () => Record<string, string>) {
  const handle: { server: ServerHandle | null; drop: (() => Promise<void>) | null } = { server: null, drop: null };
  test.beforeAll(async () => {
    const settings = env();
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, `mailstead_${name}`);
      handle.drop = scratch.drop;
      Object.assign(settings, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: `${name}-secret-`.padEnd(40, '0') });
    }
    handle.server = await startServer({ env: settings });
  });
  test.afterAll(async () => {
    await handle.server?.stop();
    await handle.drop?.();
  });
  return () => handle.server!;
}

/** Attribute definitions are session-only (no v2 endpoint), so specs define them on the Attributes page. */
export async function defineAttributes(
  page: Page,
  baseUrl: string,
  accountId: string,
  definitions: { key: string; type: string; label?: string }[],
) {
  await page.goto(`${baseUrl}/${accountId}/contacts/attributes`);
  await expect(page.getByRole('heading', { level: 1, name: 'Contact attributes' })).toBeVisible();
  for (const definition of definitions) {
    await page.getByRole('button', { name: 'Add attribute' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add an attribute' });
    await dialog.getByLabel('Key').fill(definition.key);
    await dialog.getByLabel('Type').selectOption(definition.type);
    if (definition.label) await dialog.getByLabel('Label').fill(definition.label);
    await dialog.getByRole('button', { name: 'Add attribute' }).click();
    await expect(page.locator(`[data-attribute-row="${definition.key}"]`)).toBeVisible();
  }
}
