// firefox.test.mjs - the web page in headless Firefox (Debian's firefox-esr,
// driven by puppeteer-core over WebDriver BiDi, the W3C protocol Firefox
// speaks itself: no patched browser, no geckodriver): start `musket serve`
// and run the same tests as in Chromium (suite.mjs). Skips (exit 0, saying
// why) when Firefox or puppeteer-core is missing.
//
// Usage: node tests/browser/firefox.test.mjs path/to/musket [screenshot.png]
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite, startServer, tally } from './suite.mjs';

const musket = process.argv[2];
const shot = process.argv[3] || join(tmpdir(), 'musket-firefox-screenshot.png');
const firefoxPath = process.env.FIREFOX || '/usr/bin/firefox-esr';

function skip(why) {
  console.log(`firefox test: SKIPPED: ${why}`);
  process.exit(0);
}
if (!musket) { console.error('usage: node firefox.test.mjs path/to/musket [screenshot.png]'); process.exit(2); }
if (!existsSync(firefoxPath)) skip(`no Firefox at ${firefoxPath} (Debian package firefox-esr)`);
let puppeteer;
try {
  puppeteer = (await import('puppeteer-core')).default;
} catch {
  skip('puppeteer-core is not installed (run tests/browser/install.sh)');
}

// The page adapter of suite.mjs over a puppeteer page. Clicks go through
// the mouse at the element's centre, as a person's would.
async function adapter(page, errors, viewport) {
  await page.setViewport(viewport);
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const visible = (sel) => page.waitForSelector(sel, { visible: true, timeout: 30000 });
  return {
    raw: page,
    goto: (url) => page.goto(url),
    // A redraw (a live update) may replace the element between finding and
    // clicking it; a person clicks again, and so does this, a few times.
    // Firefox says so as "detached"; when the node went before its box
    // was measured, "not clickable" (seen once in CI under ASan); and when
    // it went before puppeteer's viewport check, "IntersectionObserver.observe:
    // Argument 1 is not an object" (seen once under ASan, 6 December).
    click: async (sel) => {
      for (let k = 0; ; k++) {
        try { await visible(sel); await page.click(sel); return; } catch (e) {
          if (k >= 3 || !/detached|not clickable|IntersectionObserver/i.test(String(e))) throw e;
        }
      }
    },
    clickAt: (x, y) => page.mouse.click(x, y),
    select: async (sel, value) => { await page.waitForSelector(sel); await page.select(sel, value); },
    fill: async (sel, value) => { await visible(sel); await page.locator(sel).fill(value); },
    waitSel: (sel, o = {}) => page.waitForSelector(sel, { visible: !o.attached, timeout: 30000 }),
    waitFor: (fn, arg = null, timeout = 30000) => page.waitForFunction(fn, { timeout, polling: 50 }, arg),
    eval: (fn, arg) => page.evaluate(fn, arg),
    screenshot: (path, fullPage = true) => page.screenshot({ path, fullPage }),
  };
}

const t = tally('firefox test');
let server, browser;
const watchdog = setTimeout(() => { console.log('FAILED: firefox test timed out'); finish(1); }, 300000);   // the sanitizer build on a loaded machine is slow
async function finish(code) {
  if (browser) await browser.close().catch(() => {});
  if (server) server.stop();
  process.exit(code);
}

let first = null;
try {
  server = await startServer(musket);
  browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: firefoxPath,
    headless: true,
    userDataDir: join(server.work, 'firefox-profile'),   // a fresh profile each run
    // No updates, telemetry or first-run pages in a test.
    extraPrefsFirefox: { 'app.update.auto': false, 'datareporting.policy.dataSubmissionEnabled': false, 'browser.shell.checkDefaultBrowser': false },
  });
  const errors = [];
  const driver = {
    errors,
    page: async () => (first = await adapter((await browser.pages())[0] || await browser.newPage(), errors, { width: 1400, height: 900 })),
    newPage: async () => adapter(await browser.newPage(), errors, { width: 1400, height: 900 }),
    // Another browser: a context of its own (a Firefox user context: its
    // own cookies and localStorage) in a window of its own, so that both
    // pages are on the screen at once.
    isolatedPage: async () => adapter(await (await browser.createBrowserContext()).newPage({ type: 'window' }), errors, { width: 1200, height: 800 }),
  };
  console.log(`firefox test: ${await browser.version()}`);
  await runSuite(driver, server.base, t, shot);
} catch (e) {
  t.failed++;
  console.log(`FAILED: ${e.stack || e}`);
  if (first) {
    await first.screenshot(shot).catch(() => {});
    console.log(`firefox test: screenshot of the failure ${shot}`);
  }
}
clearTimeout(watchdog);
console.log(`firefox test: ${t.failed ? 'FAILED' : 'ok'}`);
await finish(t.failed ? 1 : 0);
