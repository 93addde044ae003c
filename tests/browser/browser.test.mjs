// browser.test.mjs - the web page in headless Chromium: start `musket serve`,
// open the page, start a game against the computer in the new-game dialog,
// move a unit and fire by clicking on the map, see the log grow, take a
// screenshot. Skips (exit 0, saying why) when Chromium or playwright-core
// is missing.
//
// Usage: node tests/browser/browser.test.mjs path/to/musket [screenshot.png]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

const work = mkdtempSync(join(tmpdir(), 'musket-browser-'));
const port = 20000 + (process.pid % 1000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(musket, ['serve', '--port', String(port), '--db', join(work, 'b.db'), '--ai-delay', '0'], { stdio: ['ignore', 'inherit', 'pipe'] });
// Ours is up once it says where it listens (not just any program on the port).
let listening = false;
server.stderr.on('data', (d) => { process.stderr.write(d); if (/musket serve: http:\/\//.test(String(d))) listening = true; });
let exited = false;
server.on('exit', () => { exited = true; });
let browser;
let failed = 0;
const check = (ok, what) => { if (ok) console.log(`ok: ${what}`); else { failed++; console.log(`FAILED: ${what}`); } };

async function finish(code) {
  if (browser) await browser.close().catch(() => {});
  server.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
  process.exit(code);
}
const watchdog = setTimeout(() => { console.log('FAILED: browser test timed out'); finish(1); }, 90000);

try {
  for (let i = 0; ; i++) {
    if (listening) { try { if ((await fetch(`${base}/api/hello`)).ok) break; } catch { /* not yet */ } }
    if (i > 100 || exited) throw new Error(`the server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // A fresh profile folder each run (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    bypassCSP: true,   // playwright's waitForFunction polls with eval; the page itself needs none
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  // The page opens with the new-game dialog.
  await page.goto(`${base}/`);
  await page.waitForSelector('#new-dialog[open]');
  await page.waitForSelector('#nd-scenario option[value="htl/tutorial"]', { state: 'attached' });
  await page.selectOption('#nd-scenario', 'htl/tutorial');
  await page.selectOption('select[name="seat-american"]', 'here');
  await page.selectOption('select[name="seat-british"]', 'ai');
  await page.selectOption('select[name="engine-british"]', 'random');
  check(await page.locator('#nd-options input[type=checkbox]').count() > 0, 'the dialog lists the optional rules');
  await page.click('details summary');
  await page.fill('#nd-seed', '3');
  await page.click('#nd-start');
  await page.waitForSelector('svg#map polygon.hex');
  check(await page.locator('svg#map polygon.hex').count() === 13 * 9, 'the map has 13 x 9 hexes');
  check(await page.locator('#legend span').count() > 3, 'the legend lists terrains and sides');

  // The British (computer) move first; then it is our turn.
  await page.waitForFunction(() => document.getElementById('banner').textContent.startsWith('Your move'), null, { timeout: 20000 });
  check((await page.locator('#log li').count()) > 0, 'the computer\'s first turn is in the log');
  check((await page.textContent('#you')) === 'american', 'the header says who we are');

  const logCount = () => page.locator('#log li').count();
  const ourUnits = async () => page.$$eval('g.counter[data-side="american"]:not(.vp):not(.leader)', (gs) => gs.map((g) => g.dataset.unit));

  let undoTested = false;
  // Moves the unit toward the nearest enemy; true if it moved.
  async function moveTowardEnemy(unit) {
    await page.click(`g.counter[data-unit="${unit}"]`);
    const target = await page.evaluate(() => {
      const centre = (el) => { const b = el.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
      const enemies = [...document.querySelectorAll('g.counter[data-side="british"]')].map(centre);
      let best = null, bestD = Infinity;
      for (const h of document.querySelectorAll('polygon.hl-move')) {
        const [x, y] = centre(h);
        const d = Math.min(...enemies.map(([ex, ey]) => Math.hypot(ex - x, ey - y)));
        if (d < bestD) { bestD = d; best = h.dataset.hex; }
      }
      return best;
    });
    if (!target) { await page.click(`g.counter[data-unit="${unit}"]`); return false; }
    const before = await logCount();
    await page.click(`polygon.hl-move[data-hex="${target}"]`);
    // Two ways into one hex (with or without a leader, at two costs): the
    // panel then lists them; take the first.
    await page.waitForFunction(([n, hex]) => document.querySelectorAll('#log li').length > n ||
      document.getElementById('unit-actions').dataset.filter === hex ||
      document.getElementById('banner').classList.contains('error'), [before, target]);
    if ((await logCount()) === before && (await page.getAttribute('#unit-actions', 'data-filter')) === target)
      await page.click('#unit-actions button[data-type="move"] >> nth=0');
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n ||
      document.getElementById('banner').classList.contains('error'), before);
    if ((await logCount()) === before) throw new Error(`move refused: ${await page.textContent('#banner')}`);
    if (!undoTested) {
      // A move rolls no dice: it can be taken back, once.
      undoTested = true;
      await page.waitForFunction(() => !document.getElementById('btn-undo').disabled);
      await page.click('#btn-undo');
      await page.waitForFunction(() => /took back the last action/.test(document.getElementById('log').textContent));
      check(true, 'undo takes back a move');
      return moveTowardEnemy(unit);
    }
    return true;
  }

  // Fires with the first of our units that has a target; true if it fired.
  async function fireIfPossible() {
    for (const unit of await ourUnits()) {
      if (!(await page.locator(`g.counter[data-unit="${unit}"]`).count())) continue;
      await page.click(`g.counter[data-unit="${unit}"]`);
      const fire = page.locator('polygon.hl-fire');
      if (await fire.count()) {
        check(await page.locator('#unit-actions .odds').count() > 0, 'the chance of each number of hits is shown before firing');
        const before = await logCount();
        const hex = await fire.first().getAttribute('data-hex');
        await fire.first().click();
        // Fire and close combat at one hex: the panel asks which; fire.
        await page.waitForFunction(([n, h]) => document.querySelectorAll('#log li').length > n ||
          document.getElementById('unit-actions').dataset.filter === h, [before, hex]);
        if ((await logCount()) === before)
          await page.click('#unit-actions button[data-type="fire"] >> nth=0');
        await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
        const text = await page.textContent('#log');
        check(/fire at [A-Z]+\d+: d6: \[/.test(text), 'the fire roll is in the log with its dice');
        return true;
      }
      await page.click(`g.counter[data-unit="${unit}"]`);   // deselect
    }
    return false;
  }

  let moved = false, fired = false;
  for (let round = 0; round < 8 && !fired; round++) {
    await page.waitForFunction(() => document.getElementById('banner').textContent.startsWith('Your move') || /Game over/.test(document.getElementById('banner').textContent), null, { timeout: 20000 });
    if (/Game over/.test(await page.textContent('#banner'))) break;
    fired = await fireIfPossible();
    if (fired) break;
    for (const unit of await ourUnits()) {
      if (await page.locator('#btn-end').isDisabled()) break;
      const ok = await moveTowardEnemy(unit);
      moved = moved || ok;
      if (ok) {
        const text = await page.textContent('#log');
        check(/american: Move /.test(text), 'our move is in the log');
      }
      if (await fireIfPossible()) { fired = true; break; }
    }
    if (fired) break;
    if (!(await page.locator('#btn-end').isDisabled())) {
      const before = await logCount();
      await page.click('#btn-end');
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    }
  }
  check(moved, 'a unit moved by clicking it and a highlighted hex');
  check(fired, 'a unit fired by clicking a highlighted target');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`browser test: screenshot ${shot}`);

  // Two browsers, one seat each (an invite link): what one plays appears in
  // the other's page without reloading.
  const created = await (await fetch(`${base}/api/games`, { method: 'POST', body: JSON.stringify({ scenario: 'htl/tutorial', seed: 5, seats: ['human', 'human'] }) })).json();
  const link = (side) => base + created.seats.find((x) => x.side === side).link;
  const other = await chromium.launchPersistentContext(join(work, 'profile2'), {
    executablePath: chromiumPath, headless: true, bypassCSP: true, viewport: { width: 1200, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const us = await browser.newPage();
    us.on('pageerror', (e) => errors.push(String(e)));
    await us.goto(link('american'));
    const them = other.pages()[0] || await other.newPage();
    them.on('pageerror', (e) => errors.push(String(e)));
    await them.goto(link('british'));
    await us.waitForFunction(() => /Waiting for british/.test(document.getElementById('banner').textContent));
    await them.waitForFunction(() => document.getElementById('banner').textContent.startsWith('Your move'));
    await them.click('#btn-end');
    await us.waitForFunction(() => /british: End turn/.test(document.getElementById('log').textContent) &&
      document.getElementById('banner').textContent.startsWith('Your move'), null, { timeout: 10000 });
    check(true, 'a second browser\'s action reaches the first one live');
    await us.click('#btn-end');
    await them.waitForFunction(() => /american: End turn/.test(document.getElementById('log').textContent), null, { timeout: 10000 });
    check(true, 'and back');
  } finally {
    await other.close();
  }

  // A decision in the middle of an action, asked in the page: a hit on a hex
  // whose two units have equal MP is the owner's to place (HtL 8.2.2). Find
  // a seed where the first fire hits, through the API, then play it in the
  // page with both seats in this browser (hotseat).
  const tie = {
    ruleset: 'htl', id: 'test/tie', title: 'Tied hit', turns: 2, first: 'british',
    map: { orientation: 'pointy', shifted: 'even', cols: 6, rows: 6, terrain: {} },
    sides: [{ id: 'american', cap: 4, home: 'south' }, { id: 'british', cap: 4, home: 'north' }],
    units: [{ id: 'A-1', side: 'american', kind: 'regular', mp: 3, hex: 'C4' },
      { id: 'A-ART', side: 'american', kind: 'artillery', mp: 3, hex: 'C4' },
      { id: 'B-1', side: 'british', kind: 'regular', mp: 4, hex: 'C3' }],
  };
  const post = async (path, body, token) => (await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: token ? { Authorization: `Bearer ${token}` } : {} })).json();
  let seed = null;
  for (let s = 1; s < 60 && seed === null; s++) {
    const g = await post('/api/games', { scenario: tie, seed: s, seats: ['human', 'human'] });
    const r = await post(`/api/games/${g.game}/act`, { action: { type: 'fire', unit: 'B-1', target: 'C4' } }, g.seats[1].token);
    if (r.ok && r.state.pending && r.state.pending.decision === 'hit') seed = s;
  }
  check(seed !== null, 'a seed where the first fire needs a decision');
  if (seed !== null) {
    const g = await post('/api/games', { scenario: tie, seed, seats: ['human', 'human'] });
    const hot = await browser.newPage();
    hot.on('pageerror', (e) => errors.push(String(e)));
    await hot.goto(`${base}/`);
    await hot.evaluate(([id, a, b]) => localStorage.setItem(`musket:game:${id}`, JSON.stringify({ tokens: { american: a, british: b }, invites: {} })), [g.game, g.seats[0].token, g.seats[1].token]);
    await hot.goto(base + g.seats[1].link);
    await hot.waitForFunction(() => document.getElementById('banner').textContent.startsWith('Your move'));
    await hot.click('g.counter[data-unit="B-1"]');
    await hot.click('polygon.hl-fire[data-hex="C4"]');
    await hot.waitForSelector('#unit-actions[data-filter="C4"] button[data-type="fire"]');
    await hot.click('#unit-actions button[data-type="fire"]');
    await hot.waitForSelector('#decision:not([hidden]) #decision-choices button');
    const choices = await hot.$$eval('#decision-choices button', (bs) => bs.map((b) => b.dataset.choice));
    check(choices.includes('A-1') && choices.includes('A-ART'), `the decision lists both tied units (${choices})`);
    await hot.screenshot({ path: shot.replace(/\.png$/, '') + '-decision.png' });
    await hot.click('#decision-choices button[data-choice="A-ART"]');
    await hot.waitForFunction(() => /A-ART takes a hit/.test(document.getElementById('log').textContent));
    check(true, 'the chosen unit takes the hit');
  }
  check(errors.length === 0, `no errors in the page${errors.length ? ': ' + errors.join(' | ') : ''}`);
} catch (e) {
  failed++;
  console.log(`FAILED: ${e.stack || e}`);
  if (browser && browser.pages()[0]) {
    await browser.pages()[0].screenshot({ path: shot, fullPage: true }).catch(() => {});
    console.log(`browser test: screenshot of the failure ${shot}`);
  }
}
clearTimeout(watchdog);
console.log(`browser test: ${failed ? 'FAILED' : 'ok'}`);
await finish(failed ? 1 : 0);
