import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import {
  PHONE,
  capture,
  expect,
  expectNoHorizontalOverflow,
  signIn,
  test,
  watchPageErrors,
} from '../support/dashboard';
import { ROOT } from '../support/paths';
import { uploaded } from '../support/media-client';
import { LARGER_PNG } from '../support/media-fixtures';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { sharedServer } from '../support/shared';
import { makePartner, subAccountHelpers } from '../support/sub-account-fixtures';

/**
 * Every dashboard page, found from app/ so that a new page is covered the day it is added, loaded
 * at desktop and phone widths by a browser whose time zone and locale differ from the server's
 * (UTC, en): no uncaught error, no console error, no hydration warning on any of them, and at phone
 * width nothing wider than the screen. Once per width (each page twice in all, in two time zones and
 * locales); MAILSTEAD_PAGE_ERROR_LOADS=2 loads it twice per width, as CI did until 27 November.
 */
const LOADS = Number(process.env.MAILSTEAD_PAGE_ERROR_LOADS ?? 1);
const DESKTOP_WIDE = { width: 1440, height: 900 } as const;
// Far from UTC on both sides of the date line, and a locale that writes numbers and dates differently.
const BROWSER_SETTINGS = [
  { timezoneId: 'Pacific/Kiritimati', locale: 'de-DE' },
  { timezoneId: 'America/Los_Angeles', locale: 'fr-FR' },
];
const NOT_A_SECTION = 'not-a-section';
const PLAYWRIGHT_SANDBOX_PROBE =
  /^Blocked script execution in 'about:(srcdoc|blank)' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/;

// Hundreds of loads: a trace of them all is too big to keep, and the problems list names each page.
test.use({ trace: 'off' });

type Route = { pattern: string; isSignedOut: boolean; expectsNotFound: boolean };
// Pages of the sign-in layout that a signed-in person sees (a signed-out one is sent to sign in).
const SIGNED_IN_AUTH_PAGES = new Set(['/two-factor-setup']);

/** `app/(group)/[accountId]/domains/[domain]/page.tsx` -> `/[accountId]/domains/[domain]`. */
function dashboardRoutes(): Route[] {
  const found: Route[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'api') walk(path.join(dir, entry.name), [...segments, entry.name]);
      if (entry.isFile() && entry.name === 'page.tsx') {
        const pattern = `/${segments.filter((segment) => !/^\(.*\)$/.test(segment)).join('/')}`;
        const isSignedOut = segments[0] === '(auth)' && !SIGNED_IN_AUTH_PAGES.has(pattern);
        found.push({ pattern, isSignedOut, expectsNotFound: false });
      }
    }
  };
  walk(path.join(ROOT, 'app'), []);
  // No page matches an unknown section: Next's not-found answers it, and must still say so.
  found.push({ pattern: `/[accountId]/${NOT_A_SECTION}`, isSignedOut: false, expectsNotFound: true });
  // The template editor's other states: a Visual (blocks) draft and a Markdown one.
  for (const state of ['blocksTemplateId', 'markdownTemplateId'])
    found.push({ pattern: `/[accountId]/templates/[${state}]`, isSignedOut: false, expectsNotFound: false });
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** One of each thing a page can be about, made through the API on a partner account. */
async function makeEverything() {
  const stamp = Date.now().toString(36);
  const {
    api,
    accountId,
    ownerEmail: email,
  } = await makePartner(`Page errors ${stamp}, with a name long enough to crowd the header`);
  const domain = `page-errors-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${domain}` },
    sandbox: true,
    recipients: [{ email: 'a-rather-long-recipient-address-for-small-screens@example.org' }],
    subject: 'A message for the page-error walk, with a subject long enough that it has to wrap on a phone',
    tags: ['phone', 'layout'],
    text_content: 'Text only.',
  });
  expect(sent.status, sent.text).toBe(202);
  const messageId = sent.body.data[0].id as string;
  await waitForStatus(api, messageId, 'Sandbox Delivered');
  const contact = await api.post(api.account('/contacts'), {
    email: `ada-${stamp}@example.org`,
    first_name: 'Ada',
    attributes: {},
  });
  const list = await api.post(api.account('/lists'), { name: 'Readers' });
  expect(
    (await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: [contact.body.id] })).status,
  ).toBeLessThan(300);
  const template = await api.post(api.account('/templates'), {
    name: 'Welcome',
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hello</p>',
    text_content: 'Hello',
  });
  const blocksTemplate = await api.post(api.account('/templates'), {
    name: 'Visual',
    subject: 'Hi {{ first_name }}',
    format: 'blocks',
    blocks_content: {
      version: 1,
      styles: { backgroundColor: '#eeeeee' },
      blocks: [
        { id: 'title', type: 'heading', text: 'Hello {{ first_name }}', level: 1 },
        { id: 'rule', type: 'divider' },
        { id: 'go', type: 'button', text: 'Go', href: 'https://example.org' },
      ],
    },
  });
  const markdownTemplate = await api.post(api.account('/templates'), {
    name: 'Markdown',
    subject: 'News',
    format: 'markdown',
    markdown_content: '# News\n\nHello {{ first_name }}',
  });
  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Spring news',
    from: { email: `news@${domain}` },
    subject: 'Hi',
    text_content: 'Hello',
    list_ids: [list.body.id],
  });
  const segment = await api.post(api.account('/segments'), {
    name: 'Readers named Ada',
    filter: { all: [{ field: 'first_name', op: 'eq', value: 'Ada' }, { list: list.body.id }] },
  });
  const webhook = await api.post(api.account('/webhooks'), {
    name: 'Hooks',
    url: `https://hooks-${stamp}.example.com/in`,
    scope: 'global',
    on_delivered: true,
  });
  const route = await api.post(api.account('/routes'), {
    name: 'Support',
    url: `https://routes-${stamp}.example.com/in`,
    recipient: `support@${domain}`,
  });
  expect((await api.post(api.account('/api-keys'), { label: 'Reader', scopes: ['domains:read'] })).status).toBe(201);
  expect((await api.post(api.account('/smtp-credentials'), { name: 'Mailer', scope: 'global' })).status).toBe(201);
  const invited = await api.post(api.account('/members'), {
    email: uniqueEmail('invitee'),
    name: 'Invitee',
    role: 'Analyst',
  });
  // The Media page with an image in its grid.
  await uploaded(api, LARGER_PNG, { fileName: 'logo.png' });
  const sub = await subAccountHelpers(() => api).createSub();
  // Everything above is in the audit log too: the Activity page shows a full page of events.
  for (const made of [
    contact,
    list,
    segment,
    template,
    blocksTemplate,
    markdownTemplate,
    campaign,
    webhook,
    route,
    invited,
  ])
    expect(made.status, made.text).toBe(201);
  // The reset link's page: looking at a link does not spend it, so one serves every load.
  const reset = await runCli(['users', 'reset-password', email], sharedServer().cliEnv);
  expect(reset.code, reset.stderr).toBe(0);
  const signupForm = await api.post(api.account('/signup-forms'), {
    name: 'Newsletter signup',
    list_ids: [list.body.id],
  });
  expect(signupForm.status, signupForm.text).toBe(201);
  const params: Record<string, string> = {
    accountId,
    formId: signupForm.body.id,
    domain,
    messageId: encodeURIComponent(messageId),
    contactId: contact.body.id,
    listId: list.body.id,
    segmentId: segment.body.id,
    templateId: template.body.id,
    blocksTemplateId: blocksTemplate.body.id,
    markdownTemplateId: markdownTemplate.body.id,
    campaignId: campaign.body.id,
    webhookId: webhook.body.id,
    routeId: route.body.id,
    subAccountId: sub.id,
    token: new URL(invited.body.invitation.url).pathname.split('/').at(-1)!,
    resetToken: /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(reset.stdout)![1],
  };
  return { email, params };
}

function urlOf(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/\[(\w+)\]/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`page ${pattern} needs a [${name}]: make one in makeEverything()`);
    return value;
  });
}

/** Loaded: the heading is there and nothing says Loading (a page that polls never goes network-idle). */
async function load(page: Page, url: string, route: Route) {
  const response = await page.goto(url);
  if (route.expectsNotFound) expect([200, 404], url).toContain(response?.status());
  else expect(response?.status(), url).toBeLessThan(400);
  await expect(page.locator('h1').first()).toBeVisible();
  if (route.expectsNotFound) await expect(page.locator('h1').first()).toHaveText('Not found');
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

async function newContext(
  browser: Browser,
  settings: (typeof BROWSER_SETTINGS)[number],
  viewport: { width: number; height: number },
  problems: string[],
) {
  const context = await browser.newContext({ ...settings, viewport, ignoreHTTPSErrors: true });
  // Every console error counts but one: Playwright's own probe of a sandboxed preview frame
  // (microsoft/playwright#33343), which a person's browser never logs.
  // The not-found page's own 404 is Chromium's resource log, not a problem of the page.
  watchPageErrors(context, problems, {
    consoleErrors: (text, url) =>
      !PLAYWRIGHT_SANDBOX_PROBE.test(text) && !(url.endsWith(`/${NOT_A_SECTION}`) && /status of 404/.test(text)),
  });
  return context;
}

test('every dashboard page loads without a page error, console error or hydration warning, at 1440 and 390 px, in another time zone and locale', async ({
  browser,
}, testInfo) => {
  const routes = dashboardRoutes();
  test.setTimeout(120_000 + routes.length * LOADS * BROWSER_SETTINGS.length * 2 * 6_000);
  expect(routes.length).toBeGreaterThan(25);
  const { baseUrl } = sharedServer();
  const { email, params } = await makeEverything();
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];
  try {
    for (const [index, viewport] of [DESKTOP_WIDE, PHONE].entries()) {
      const settings = BROWSER_SETTINGS[index % BROWSER_SETTINGS.length];
      const signedOut = await newContext(browser, settings, viewport, problems);
      const signedIn = await newContext(browser, settings, viewport, problems);
      contexts.push(signedOut, signedIn);
      const outPage = await signedOut.newPage();
      const inPage = await signedIn.newPage();
      await signIn(inPage, baseUrl, email, OWNER_PASSWORD);
      for (const route of routes) {
        const page = route.isSignedOut ? outPage : inPage;
        const url = `${baseUrl}${urlOf(route.pattern, params)}`;
        for (let loaded = 0; loaded < LOADS; loaded++) {
          const before = problems.length;
          await test.step(`${route.pattern} at ${viewport.width} px, load ${loaded + 1}`, () => load(page, url, route));
          if (problems.length > before)
            problems.push(
              `  ^ while loading ${route.pattern} at ${viewport.width} px (${settings.timezoneId}, ${settings.locale})`,
            );
        }
        if (viewport.width === PHONE.width) await expectNoHorizontalOverflow(page);
        // Each page at each width, to look at after the run.
        await capture(
          page,
          testInfo,
          `page${route.pattern.replace(/[[\]]/g, '').replace(/\//g, '-')}-${viewport.width}`,
        );
      }
    }
  } finally {
    for (const context of contexts) await context.close();
  }
  expect(problems).toEqual([]);
});
