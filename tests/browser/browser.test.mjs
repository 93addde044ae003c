// browser.test.mjs - the web page in headless Chromium (Debian's chromium,
// driven by playwright-core): start `musket serve` and run the page's tests
// (suite.mjs: a game against the computer by clicking, the log, two
// browsers live, a decision, a flat map of sheets, facing markers,
// screenshots). Skips (exit 0, saying why) when Chromium or playwright-core
// is missing.
//
// Usage: node tests/browser/browser.test.mjs path/to/musket [screenshot.png]
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite, startServer, tally } from './suite.mjs';

const musket = process.argv[2];
const shot = process.argv[3] || join(tmpdir(), 'musket-browser-screenshot.png');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  console.log(`browser test: SKIPPED: ${why}`);
  process.exit(0);
}
if (!musket) { console.error('usage: node browser.test.mjs path/to/musket [screenshot.png]'); process.exit(2); }
if (!existsSync(chromiumPath)) skip(`no Chromium at ${chromiumPath} (Debian package chromium)`);
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  skip('playwright-core is not installed (run tests/browser/install.sh)');
}

// The page adapter of suite.mjs over a playwright page.
function adapter(page, errors) {
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return {
    raw: page,
    goto: (url) => page.goto(url),
    click: (sel) => page.click(sel),
    clickAt: (x, y) => page.mouse.click(x, y),
    select: (sel, value) => page.selectOption(sel, value),
    fill: (sel, value) => page.fill(sel, value),
    waitSel: (sel, o = {}) => page.waitForSelector(sel, o.attached ? { state: 'attached' } : {}),
    waitFor: (fn, arg = null, timeout = 30000) => page.waitForFunction(fn, arg, { timeout }),
    eval: (fn, arg) => page.evaluate(fn, arg),
    screenshot: (path, fullPage = true) => page.screenshot({ path, fullPage }),
  };
}

const t = tally('browser test');
let server, browser;
const others = [];
const watchdog = setTimeout(() => { console.log('FAILED: browser test timed out'); finish(1); }, 300000);   // the sanitizer build on a loaded machine is slow
async function finish(code) {
  for (const b of [browser, ...others]) if (b) await b.close().catch(() => {});
  if (server) server.stop();
  process.exit(code);
}

const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let first = null;
try {
  server = await startServer(musket);
  // A fresh profile folder each run (playwright passes it as --user-data-dir).
  const launch = (dir, viewport) => chromium.launchPersistentContext(join(server.work, dir), {
    executablePath: chromiumPath, headless: true, viewport,
    bypassCSP: true,   // playwright's waitForFunction polls with eval; the page itself needs none
    args,
  });
  browser = await launch('profile', { width: 1400, height: 900 });
  const errors = [];
  const driver = {
    errors,
    page: async () => (first = adapter(browser.pages()[0] || await browser.newPage(), errors)),
    newPage: async () => adapter(await browser.newPage(), errors),
    // Another browser (its own profile, so its own localStorage).
    isolatedPage: async () => {
      const other = await launch(`profile${others.length + 2}`, { width: 1200, height: 800 });
      others.push(other);
      return adapter(other.pages()[0] || await other.newPage(), errors);
    },
  };
  await runSuite(driver, server.base, t, shot);
} catch (e) {
  t.failed++;
  console.log(`FAILED: ${e.stack || e}`);
  if (first) {
    await first.screenshot(shot).catch(() => {});
    console.log(`browser test: screenshot of the failure ${shot}`);
  }
}
clearTimeout(watchdog);
console.log(`browser test: ${t.failed ? 'FAILED' : 'ok'}`);
await finish(t.failed ? 1 : 0);
