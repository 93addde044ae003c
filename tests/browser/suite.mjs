// suite.mjs - the web page's browser tests, written once for any browser:
// browser.test.mjs runs them in Chromium (playwright-core), firefox.test.mjs
// in Firefox (puppeteer-core over WebDriver BiDi). Each gives a driver:
//
//   driver.page()          the first tab, as a page adapter (below)
//   driver.newPage()       another tab sharing its storage
//   driver.isolatedPage()  a tab with storage of its own (another browser)
//   driver.close()
//
// and a page adapter: goto(url), click(selector) (the first match, with the
// mouse), clickAt(x, y) (the mouse at viewport coordinates), select(selector,
// value), fill(selector, text), waitSel(selector, {attached}), waitFor(fn,
// arg, timeoutMs) (until fn(arg) is true in the page), eval(fn, arg),
// screenshot(path), errors (a list the page's errors are added to).
//
// What runs: a game against the computer started in the new-game dialog,
// played by clicking (move, undo, fire with the odds shown, the log with the
// dice), a screenshot; two browsers with one invite link each, seeing each
// other's actions live; a decision in the middle of an action (a tied hit)
// placed with buttons; a flat-topped map of two sheets (BAR's layout, labels
// such as W0201): hex shapes, labels, every hex's click target, a move across
// the seam by clicking; counters' facing markers (H&M 13 Facing), and a
// Horse & Musket battle with its Facing rule where the server has it; the
// replay viewer of a finished game; a Monmouth (BAR) game against the
// computer on its 78 x 51 map: terrain, roads, hexsides, elevation and
// buildings as the scenario has them, the header's clock, a Command
// activated by its button, a unit moved and turned by clicking, the
// segments ended by the end button, the computer's answer in the log; a
// Monmouth decision of the reactive side (Retreat Before Close Combat) made
// with the decision panel's buttons; a Monmouth set-up piece placed by
// clicks (the option bar.deploy).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ---- the server and the tally ------------------------------------------------

export async function startServer(musket) {
  const work = mkdtempSync(join(tmpdir(), 'musket-browser-'));
  const port = 20000 + (process.pid % 1000);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(musket, ['serve', '--port', String(port), '--db', join(work, 'b.db'), '--ai-delay', '0'], { stdio: ['ignore', 'inherit', 'pipe'] });
  // Ours is up once it says where it listens (not just any program on the port).
  let listening = false, exited = false;
  server.stderr.on('data', (d) => { process.stderr.write(d); if (/musket serve: http:\/\//.test(String(d))) listening = true; });
  server.on('exit', () => { exited = true; });
  const stop = () => { server.kill('SIGTERM'); rmSync(work, { recursive: true, force: true }); };
  for (let i = 0; ; i++) {
    if (listening) { try { if ((await fetch(`${base}/api/hello`)).ok) break; } catch { /* not yet */ } }
    if (i > 100 || exited) { stop(); throw new Error(`the server did not start on port ${port}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, work, stop };
}

export function tally(name) {
  const t = { failed: 0, name };
  t.check = (ok, what) => { if (ok) console.log(`ok: ${what}`); else { t.failed++; console.log(`FAILED: ${what}`); } };
  return t;
}

const post = async (base, path, body, token) => (await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: token ? { Authorization: `Bearer ${token}` } : {} })).json();
const get = async (base, path, token) => (await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } })).json();
const count = (P, sel) => P.eval((s) => document.querySelectorAll(s).length, sel);
const text = (P, sel) => P.eval((s) => document.querySelector(s).textContent, sel);
const attr = (P, sel, name) => P.eval(([s, n]) => document.querySelector(s).getAttribute(n), [sel, name]);
const disabled = (P, sel) => P.eval((s) => document.querySelector(s).disabled, sel);

// ---- a game against the computer, played by clicking ----------------------------

async function againstComputer(P, base, check, shot) {
  // The page opens with the new-game dialog.
  await P.goto(`${base}/`);
  await P.waitSel('#new-dialog[open]');
  await P.waitSel('#nd-scenario option[value="htl/tutorial"]', { attached: true });
  await P.select('#nd-scenario', 'htl/tutorial');
  await P.select('select[name="seat-american"]', 'here');
  await P.select('select[name="seat-british"]', 'ai');
  await P.select('select[name="engine-british"]', 'random');
  check(await count(P, '#nd-options input[type=checkbox]') > 0, 'the dialog lists the optional rules');
  await P.click('details summary');
  await P.fill('#nd-seed', '3');
  await P.click('#nd-start');
  await P.waitSel('svg#map polygon.hex');
  check(await count(P, 'svg#map polygon.hex') === 13 * 9, 'the map has 13 x 9 hexes');
  check(await count(P, '#legend span') > 3, 'the legend lists terrains and sides');

  // The British (computer) move first; then it is our turn.
  await P.waitFor(() => document.getElementById('banner').textContent.startsWith('Your move'), null, 20000);
  check(await count(P, '#log li') > 0, 'the computer\'s first turn is in the log');
  check(await text(P, '#you') === 'american', 'the header says who we are');

  const logCount = () => count(P, '#log li');
  const ourUnits = () => P.eval(() => [...document.querySelectorAll('g.counter[data-side="american"]:not(.vp):not(.leader)')].map((g) => g.dataset.unit));

  let undoTested = false;
  // Moves the unit toward the nearest enemy; true if it moved.
  async function moveTowardEnemy(unit) {
    await P.click(`g.counter[data-unit="${unit}"]`);
    const target = await P.eval(() => {
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
    if (!target) { await P.click(`g.counter[data-unit="${unit}"]`); return false; }
    const before = await logCount();
    await P.click(`polygon.hl-move[data-hex="${target}"]`);
    // Two ways into one hex (with or without a leader, at two costs): the
    // panel then lists them; take the first.
    await P.waitFor(([n, hex]) => document.querySelectorAll('#log li').length > n ||
      document.getElementById('unit-actions').dataset.filter === hex ||
      document.getElementById('banner').classList.contains('error'), [before, target]);
    if ((await logCount()) === before && (await attr(P, '#unit-actions', 'data-filter')) === target)
      await P.click('#unit-actions button[data-type="move"]');
    await P.waitFor((n) => document.querySelectorAll('#log li').length > n ||
      document.getElementById('banner').classList.contains('error'), before);
    if ((await logCount()) === before) throw new Error(`move refused: ${await text(P, '#banner')}`);
    if (!undoTested) {
      // A move rolls no dice: it can be taken back, once.
      undoTested = true;
      await P.waitFor(() => !document.getElementById('btn-undo').disabled);
      await P.click('#btn-undo');
      await P.waitFor(() => /took back the last action/.test(document.getElementById('log').textContent));
      check(true, 'undo takes back a move');
      return moveTowardEnemy(unit);
    }
    return true;
  }

  // Fires with the first of our units that has a target; true if it fired.
  async function fireIfPossible() {
    for (const unit of await ourUnits()) {
      if (!(await count(P, `g.counter[data-unit="${unit}"]`))) continue;
      await P.click(`g.counter[data-unit="${unit}"]`);
      if (await count(P, 'polygon.hl-fire')) {
        check(await count(P, '#unit-actions .odds') > 0, 'the chance of each number of hits is shown before firing');
        const before = await logCount();
        const hex = await attr(P, 'polygon.hl-fire', 'data-hex');
        await P.click('polygon.hl-fire');
        // Fire and close combat at one hex: the panel asks which; fire.
        await P.waitFor(([n, h]) => document.querySelectorAll('#log li').length > n ||
          document.getElementById('unit-actions').dataset.filter === h, [before, hex]);
        if ((await logCount()) === before) await P.click('#unit-actions button[data-type="fire"]');
        await P.waitFor((n) => document.querySelectorAll('#log li').length > n, before);
        check(/fire at [A-Z]+\d+: d6: \[/.test(await text(P, '#log')), 'the fire roll is in the log with its dice');
        return true;
      }
      await P.click(`g.counter[data-unit="${unit}"]`);   // deselect
    }
    return false;
  }

  let moved = false, fired = false;
  for (let round = 0; round < 8 && !fired; round++) {
    await P.waitFor(() => document.getElementById('banner').textContent.startsWith('Your move') || /Game over/.test(document.getElementById('banner').textContent), null, 20000);
    if (/Game over/.test(await text(P, '#banner'))) break;
    fired = await fireIfPossible();
    if (fired) break;
    for (const unit of await ourUnits()) {
      if (await disabled(P, '#btn-end')) break;
      const ok = await moveTowardEnemy(unit);
      moved = moved || ok;
      if (ok) check(/american: Move /.test(await text(P, '#log')), 'our move is in the log');
      if (await fireIfPossible()) { fired = true; break; }
    }
    if (fired) break;
    if (!(await disabled(P, '#btn-end'))) {
      const before = await logCount();
      await P.click('#btn-end');
      await P.waitFor((n) => document.querySelectorAll('#log li').length > n, before);
    }
  }
  check(moved, 'a unit moved by clicking it and a highlighted hex');
  check(fired, 'a unit fired by clicking a highlighted target');
  // The map is drawn at its proper size (an SVG sized by its viewBox).
  const box = await P.eval(() => { const m = document.getElementById('map'); const r = m.getBoundingClientRect(); const v = m.viewBox.baseVal; return [r.width, r.height, v.width / v.height]; });
  check(box[0] > 600 && Math.abs(box[0] / box[1] - box[2]) < 0.05, `the map is drawn at its shape (${Math.round(box[0])} x ${Math.round(box[1])} px)`);
  await P.screenshot(shot);
  console.log(`screenshot: ${shot}`);
}

// ---- two browsers, one seat each ---------------------------------------------------

async function twoBrowsers(D, base, check) {
  const created = await post(base, '/api/games', { scenario: 'htl/tutorial', seed: 5, seats: ['human', 'human'] });
  const link = (side) => base + created.seats.find((x) => x.side === side).link;
  const us = await D.newPage();
  await us.goto(link('american'));
  const them = await D.isolatedPage();
  await them.goto(link('british'));
  await us.waitFor(() => /Waiting for british/.test(document.getElementById('banner').textContent));
  await them.waitFor(() => document.getElementById('banner').textContent.startsWith('Your move'));
  await them.click('#btn-end');
  await us.waitFor(() => /british: End turn/.test(document.getElementById('log').textContent) &&
    document.getElementById('banner').textContent.startsWith('Your move'), null, 10000);
  check(true, 'a second browser\'s action reaches the first one live');
  await us.click('#btn-end');
  await them.waitFor(() => /american: End turn/.test(document.getElementById('log').textContent), null, 10000);
  check(true, 'and back');
}

// Opens game g in a tab of this browser with both seats' tokens (hotseat),
// at the seat of side index `at`.
async function hotseat(D, base, g, at) {
  const P = await D.newPage();
  await P.goto(`${base}/`);
  await P.eval(([id, a, b]) => localStorage.setItem(`musket:game:${id}`, JSON.stringify({ tokens: { [a[0]]: a[1], [b[0]]: b[1] }, invites: {} })),
    [g.game, [g.seats[0].side, g.seats[0].token], [g.seats[1].side, g.seats[1].token]]);
  await P.goto(base + g.seats[at].link);
  await P.waitFor(() => document.getElementById('banner').textContent.startsWith('Your move'));
  return P;
}

// ---- a decision in the middle of an action ------------------------------------------

// A hit on a hex whose two units have equal MP is the owner's to place
// (HtL 8.2.2). Find a seed where the first fire hits, through the API, then
// play it in the page with both seats in this browser (hotseat).
async function tiedHit(D, base, check, shot) {
  const tie = {
    ruleset: 'htl', id: 'test/tie', title: 'Tied hit', turns: 2, first: 'british',
    map: { orientation: 'pointy', shifted: 'even', cols: 6, rows: 6, terrain: {} },
    sides: [{ id: 'american', cap: 4, home: 'south' }, { id: 'british', cap: 4, home: 'north' }],
    units: [{ id: 'A-1', side: 'american', kind: 'regular', mp: 3, hex: 'C4' },
      { id: 'A-ART', side: 'american', kind: 'artillery', mp: 3, hex: 'C4' },
      { id: 'B-1', side: 'british', kind: 'regular', mp: 4, hex: 'C3' }],
  };
  let seed = null;
  for (let s = 1; s < 60 && seed === null; s++) {
    const g = await post(base, '/api/games', { scenario: tie, seed: s, seats: ['human', 'human'] });
    const r = await post(base, `/api/games/${g.game}/act`, { action: { type: 'fire', unit: 'B-1', target: 'C4' } }, g.seats[1].token);
    if (r.ok && r.state.pending && r.state.pending.decision === 'hit') seed = s;
  }
  check(seed !== null, 'a seed where the first fire needs a decision');
  if (seed === null) return;
  const g = await post(base, '/api/games', { scenario: tie, seed, seats: ['human', 'human'] });
  const P = await hotseat(D, base, g, 1);
  await P.click('g.counter[data-unit="B-1"]');
  await P.click('polygon.hl-fire[data-hex="C4"]');
  await P.waitSel('#unit-actions[data-filter="C4"] button[data-type="fire"]');
  await P.click('#unit-actions button[data-type="fire"]');
  await P.waitSel('#decision:not([hidden]) #decision-choices button');
  const choices = await P.eval(() => [...document.querySelectorAll('#decision-choices button')].map((b) => b.dataset.choice));
  check(choices.includes('A-1') && choices.includes('A-ART'), `the decision lists both tied units (${choices})`);
  await P.screenshot(shot.replace(/\.png$/, '') + '-decision.png', false);
  await P.click('#decision-choices button[data-choice="A-ART"]');
  await P.waitFor(() => /A-ART takes a hit/.test(document.getElementById('log').textContent));
  check(true, 'the chosen unit takes the hit');
}

// ---- a flat-topped map of two sheets ----------------------------------------------------

async function flatMap(D, base, check, shot) {
  // BAR's layout: flat-topped hexes in columns, sheets W and E joined west
  // to east, labels sheet + column + row. Hold the Line plays on any map.
  const sc = {
    ruleset: 'htl', id: 'test/flat', title: 'Two flat sheets', turns: 3, first: 'british',
    map: { orientation: 'flat', shifted: 'even', rows: 6, sheets: [{ id: 'W', cols: 5 }, { id: 'E', cols: 5 }],
      terrain: { W0203: 'forest', w0402: 'town', E0104: 'hill', E0405: 'swamp' } },
    sides: [{ id: 'american', cap: 4, home: 'west' }, { id: 'british', cap: 4, home: 'east' }],
    units: [{ id: 'A-1', side: 'american', kind: 'regular', mp: 4, hex: 'W0204' },
      { id: 'A-2', side: 'american', kind: 'light', mp: 3, hex: 'W0305' },
      { id: 'B-1', side: 'british', kind: 'regular', mp: 4, hex: 'E0103' },
      { id: 'B-2', side: 'british', kind: 'artillery', mp: 3, hex: 'E0305' }],
  };
  const g = await post(base, '/api/games', { scenario: sc, seed: 4, seats: ['human', 'human'] });
  check(g.ok, `the server takes a map of flat sheets${g.ok ? '' : ': ' + JSON.stringify(g.error)}`);
  if (!g.ok) return;
  const P = await hotseat(D, base, g, 1);
  const drawn = await P.eval(() => {
    const svg = document.getElementById('map');
    const polys = [...svg.querySelectorAll('polygon.hex')];
    const labels = [...svg.querySelectorAll('text.hex-label')].map((t) => t.textContent);
    // A flat-topped hex: its two highest corners make a level top edge.
    const pts = polys[0].getAttribute('points').split(' ').map((p) => p.split(',').map(Number)).sort((a, b) => a[1] - b[1]);
    return {
      orientation: svg.dataset.orientation, n: polys.length, hexes: polys.map((p) => p.dataset.hex), labels,
      levelTop: Math.abs(pts[0][1] - pts[1][1]) < 0.01, seams: svg.querySelectorAll('path.sheet-seam').length,
      terrain: polys.filter((p) => p.dataset.terrain !== 'clear').map((p) => `${p.dataset.hex} ${p.dataset.terrain}`).sort().join(', '),
    };
  });
  check(drawn.orientation === 'flat' && drawn.n === 60, `60 flat hexes drawn (${drawn.n})`);
  check(drawn.levelTop, 'the hexes are flat-topped');
  check(drawn.seams === 1, 'the seam between the sheets is drawn');
  check(JSON.stringify(drawn.hexes) === JSON.stringify(drawn.labels) && drawn.hexes.includes('W0101') && drawn.hexes.includes('W0506') &&
    drawn.hexes.includes('E0101') && drawn.hexes.includes('E0506') && !drawn.hexes.includes('A1'), 'every hex is labelled with its sheet, column and row');
  check(drawn.terrain === 'E0104 hill, E0405 swamp, W0203 forest, W0402 town', `terrain where the scenario puts it (${drawn.terrain})`);
  // Every hex's click target: the element at its centre on the screen
  // belongs to that hex (its polygon, or a counter standing in it).
  const targets = await P.eval(() => {
    const wrong = [];
    for (const p of document.querySelectorAll('svg#map polygon.hex')) {
      const r = p.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const owner = at && at.closest('[data-hex]');
      if (!owner || owner.dataset.hex !== p.dataset.hex) wrong.push(`${p.dataset.hex}->${owner ? owner.dataset.hex : 'nothing'}`);
    }
    return wrong;
  });
  check(targets.length === 0, `each hex's centre on the screen is that hex${targets.length ? ': ' + targets.join(' ') : ''}`);
  // Counters stand in their hexes.
  const placed = await P.eval(() => [...document.querySelectorAll('g.counter')].every((g) => {
    const hex = document.querySelector(`polygon.hex[data-hex="${g.dataset.hex}"]`).getBoundingClientRect();
    const c = g.querySelector('.body').getBoundingClientRect();
    const x = c.left + c.width / 2, y = c.top + c.height / 2;
    return x > hex.left && x < hex.right && y > hex.top && y < hex.bottom;
  }));
  check(placed, 'each counter is drawn in its hex');

  // Select B-1 and move it across the seam, with the mouse at screen points.
  const centreOf = (sel) => P.eval((s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }, sel);
  let [x, y] = await centreOf('g.counter[data-unit="B-1"] rect.body');
  await P.clickAt(x, y);
  await P.waitSel('polygon.hl-move');
  const legal = await get(base, `/api/games/${g.game}/legal`, g.seats[1].token);
  const engineMoves = legal.actions.filter((a) => a.type === 'move' && a.unit === 'B-1').map((a) => a.path[a.path.length - 1]).sort();
  const shown = (await P.eval(() => [...document.querySelectorAll('polygon.hl-move')].map((p) => p.dataset.hex))).sort();
  check(JSON.stringify(engineMoves) === JSON.stringify(shown), `the highlighted moves are the engine's (${shown.join(' ')})`);
  const across = shown.find((h) => h.startsWith('W'));
  check(Boolean(across), 'a move across the seam is offered');
  if (!across) return;
  [x, y] = await centreOf(`polygon.hl-move[data-hex="${across}"]`);
  await P.clickAt(x, y);
  await P.waitFor((h) => document.querySelector('g.counter[data-unit="B-1"]').dataset.hex === h &&
    /Move B-1/.test(document.getElementById('log').textContent), across, 10000);
  check(true, `B-1 moved to ${across} by a click on the hex`);
  check(new RegExp(`Move B-1 E0103-${across}`).test(await text(P, '#log')), 'the move is in the log with sheet labels');
  await P.screenshot(shot.replace(/\.png$/, '') + '-flat.png');
}

// ---- facing (H&M 13) ------------------------------------------------------------------------

// Units with "facing" get a front marker pointing that way (degrees
// clockwise from map-up); units without none. Drawn with the page's own
// module into a page of its own, and measured as the browser lays it out.
async function facing(D, base, check, shot) {
  const P = await D.newPage();
  await P.goto(`${base}/`);
  await P.waitSel('#new-dialog[open]');
  const res = await P.eval(async () => {
    const m = await import('/hexmap.js');
    document.getElementById('new-dialog').close();
    const svg = document.getElementById('map');
    const scenario = { ruleset: 'hm', map: { orientation: 'pointy', shifted: 'even', cols: 6, rows: 3 }, sides: [{ id: 'red' }, { id: 'blue' }] };
    const degs = [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330];
    const units = degs.map((f, i) => ({ id: `U${f}`, side: i % 2 ? 'blue' : 'red', kind: 'infantry', mp: 3, mp_start: 3, hex: m.colLabel(i % 6) + (1 + Math.floor(i / 6)), facing: f }));
    units.push({ id: 'NOF', side: 'red', kind: 'infantry', mp: 3, mp_start: 3, hex: 'C3' });
    m.draw(svg, { scenario, state: { units }, highlights: new Map() });
    return [...svg.querySelectorAll('g.counter')].map((g) => {
      const mk = g.querySelector('polygon.facing');
      if (!mk) return { id: g.dataset.unit, marker: false };
      // Screen pixels: the counter's half side, its centre, the marker's.
      const body = g.querySelector('rect.body'), b = body.getBoundingClientRect(), k = mk.getBoundingClientRect();
      const half = body.getBBox().width / 2 * g.ownerSVGElement.getScreenCTM().a;
      const dx = (k.left + k.width / 2) - (b.left + b.width / 2), dy = (k.top + k.height / 2) - (b.top + b.height / 2);
      return { id: g.dataset.unit, marker: true, facing: Number(g.dataset.facing), angle: ((Math.atan2(dx, -dy) * 180 / Math.PI) + 360) % 360, dist: Math.hypot(dx, dy) / half };
    });
  });
  const off = (a, b) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
  const withMarker = res.filter((r) => r.marker);
  check(withMarker.length === 12 && !res.find((r) => r.id === 'NOF').marker, 'a front marker on each unit with a facing, none without');
  const bad = withMarker.filter((r) => off(r.angle, r.facing) > 8 || r.dist < 1);
  check(bad.length === 0, `each marker lies outside its counter, the way it faces${bad.length ? ': ' + bad.map((r) => `${r.id} at ${r.angle.toFixed(0)}`).join(', ') : ''}`);
  await P.screenshot(shot.replace(/\.png$/, '') + '-facing.png', false);

  // The real thing, where the server has it: Horse & Musket with its Facing
  // rule gives each unit's "facing" in the STATE (not yet in every build,
  // so its absence is reported, not failed).
  const cat = await (await fetch(`${base}/api/scenarios`)).json();
  const hm = (cat.rulesets || []).find((r) => r.id === 'hm');
  const sc = (cat.scenarios || []).find((x) => x.ruleset === 'hm' && x.sides);
  if (!hm || !sc || !hm.options.some((o) => o.id === 'hm.facing')) { console.log('facing: no hm.facing rule in this build; the drawn markers alone are checked'); return; }
  const g = await post(base, '/api/games', { scenario: sc.id, options: { 'hm.facing': true }, seed: 1, seats: ['human', 'human'] });
  const faced = g.ok ? g.state.units.filter((u) => typeof u.facing === 'number' && u.hex) : [];
  if (!faced.length) { console.log(`facing: ${sc.id} with hm.facing gives no facing (${g.ok ? 'no field' : g.error.message})`); return; }
  const H = await hotseat(D, base, g, g.seats.findIndex((x) => x.side === g.state.to_move));
  const drawn = await H.eval(() => Object.fromEntries([...document.querySelectorAll('g.counter[data-facing]')].map((c) => [c.dataset.unit, [Number(c.dataset.facing), c.querySelector('g.turned').getAttribute('transform')]])));
  const wrong = faced.filter((u) => !drawn[u.id] || drawn[u.id][0] !== u.facing || !drawn[u.id][1].startsWith(`rotate(${u.facing} `));
  check(wrong.length === 0, `${sc.id} with hm.facing: each of ${faced.length} units is drawn turned as its STATE faces${wrong.length ? ': not ' + wrong.map((u) => u.id).join(', ') : ''}`);
  await H.screenshot(shot.replace(/\.png$/, '') + '-hm-facing.png');
}

// ---- the replay viewer ----------------------------------------------------------------------

// A game the computers play to the end, opened with &replay=1: the slider's
// ends show the first and the last position, as the API gives them.
async function replayViewer(D, base, check) {
  const g = await post(base, '/api/games', { scenario: 'htl/tutorial', seed: 9, seats: [{ ai: 'random' }, { ai: 'random' }] });
  let st = null;
  for (let i = 0; i < 300 && !(st && st.state.over); i++) {
    st = await get(base, `/api/games/${g.game}/state`, g.spectator);
    if (!st.state.over) await new Promise((r) => setTimeout(r, 100));
  }
  check(st && st.state.over, 'the computers finish a game');
  if (!(st && st.state.over)) return;
  const P = await D.newPage();
  await P.goto(`${base}${g.spectator_link}&replay=1`);
  await P.waitSel('#replay-bar #rp-slider');
  await P.waitFor(() => /^action 0 of \d+$/.test(document.getElementById('rp-pos').textContent));
  const where = () => P.eval(() => [...document.querySelectorAll('g.counter')].map((c) => `${c.dataset.unit}@${c.dataset.hex}`).sort().join(' '));
  const placed = (state) => state.units.filter((u) => u.hex).map((u) => `${u.id}@${u.hex}`).sort().join(' ');
  check(await where() === placed(g.state), 'the replay starts at the first position');
  await P.click('#rp-next');
  await P.waitFor(() => /^action 1 of /.test(document.getElementById('rp-pos').textContent));
  await P.click('#rp-last');
  await P.waitFor(() => { const m = /^action (\d+) of (\d+)$/.exec(document.getElementById('rp-pos').textContent); return m && m[1] === m[2]; });
  check(await where() === placed(st.state), 'the replay ends at the last position');
  await P.click('#rp-first');
  await P.waitFor(() => /^action 0 of /.test(document.getElementById('rp-pos').textContent));
  check(await where() === placed(g.state), 'and goes back to the first');
}

// ---- Monmouth (BAR) against the computer --------------------------------------------------

// A click with the mouse at the middle of an SVG element of the big,
// scrolled map (its body for a counter), brought into view first as a
// person would scroll to it (Firefox's WebDriver BiDi will not scroll to a
// <g> by itself).
async function clickSvg(P, sel) {
  await P.waitSel(sel, { attached: true });
  const [x, y] = await P.eval((s) => {
    const e = document.querySelector(s);
    const target = e.querySelector('.body') || e;
    target.scrollIntoView({ block: 'center', inline: 'center' });
    const r = target.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  }, sel);
  await P.clickAt(x, y);
}

// The Monmouth game's own page is the one to see when it fails (the
// failure screenshot of the runner is the first tab's).
async function barGame(D, base, check, shot) {
  const pages = [];
  try {
    await barGamePlay(D, base, check, shot, pages);
  } catch (e) {
    if (pages[0]) {
      const banner = await pages[0].eval(() => document.getElementById('banner').textContent).catch(() => '?');
      console.log(`bar: the page said "${banner}" when it failed; screenshot ${shot.replace(/\.png$/, '')}-bar-failed.png`);
      await pages[0].screenshot(shot.replace(/\.png$/, '') + '-bar-failed.png', false).catch(() => {});
    }
    throw e;
  }
}

async function barGamePlay(D, base, check, shot, pages) {
  const cat = await (await fetch(`${base}/api/scenarios`)).json();
  const ids = ['bar/1-lees-repulse', 'bar/2-washingtons-stand', 'bar/3-grand-battle', 'bar/4-general-engagement'];
  if (!(cat.scenarios || []).some((x) => x.id === ids[0])) { console.log('bar: no bar/1-lees-repulse in this build; skipped'); return; }
  // A browser of its own: the tabs the tests before opened hold their live
  // streams, and a browser opens only about six connections to one server.
  const P = await D.isolatedPage();
  pages.push(P);
  await P.goto(`${base}/`);
  await P.waitSel('#new-dialog[open]');
  await P.waitSel(`#nd-scenario option[value="${ids[0]}"]`, { attached: true });
  const offered = await P.eval((l) => l.filter((id) => document.querySelector(`#nd-scenario option[value="${id}"]`)).length, ids);
  check(offered === 4, `the new-game dialog offers the four Monmouth scenarios (${offered})`);
  await P.select('#nd-scenario', ids[0]);
  await P.select('select[name="seat-american"]', 'here');
  await P.select('select[name="seat-british"]', 'ai');
  await P.select('select[name="engine-british"]', 'random');
  await P.click('details summary');
  await P.fill('#nd-seed', '3');
  await P.click('#nd-start');
  await P.waitSel('svg#map polygon.hex');
  const [game, token] = await P.eval(() => { const q = new URLSearchParams(location.search); return [q.get('game'), q.get('token')]; });
  const info = await get(base, `/api/games/${game}`, token);
  const map = info.scenario.map;

  // The map: what the scenario has, where it has it.
  const drawn = await P.eval(() => {
    const svg = document.getElementById('map');
    const by = (sel, a) => { const o = {}; for (const e of svg.querySelectorAll(sel)) o[e.getAttribute(a)] = (o[e.getAttribute(a)] || 0) + 1; return o; };
    const segs = (sel) => { const o = {}; for (const p of svg.querySelectorAll(sel)) o[p.dataset.kind || p.getAttribute('class')] = (p.getAttribute('d').match(/M/g) || []).length; return o; };
    return {
      hexes: svg.querySelectorAll('polygon.hex').length, terrain: by('polygon.hex', 'data-terrain'), levels: svg.querySelectorAll('polygon.hex[data-level]').length,
      sides: segs('.hexsides path'), major: (svg.querySelector('path.road-major')?.getAttribute('d').match(/M/g) || []).length,
      minor: (svg.querySelector('path.road-minor')?.getAttribute('d').match(/M/g) || []).length, buildings: svg.querySelectorAll('.building').length,
      legend: document.getElementById('legend').textContent,
    };
  });
  check(drawn.hexes === 78 * 51, `the Monmouth map has 78 x 51 hexes (${drawn.hexes})`);
  const want = {};
  for (const t of Object.values(map.terrain)) want[t] = (want[t] || 0) + 1;
  const terrainOk = Object.entries(want).every(([t, n]) => drawn.terrain[t] === n) && drawn.terrain.open === drawn.hexes - Object.keys(map.terrain).length;
  check(terrainOk, `each terrain in as many hexes as the scenario gives (${Object.entries(drawn.terrain).map(([t, n]) => `${t} ${n}`).join(', ')})`);
  check(drawn.levels === Object.values(map.elevation).filter((v) => v > 0).length, `elevation shading in ${drawn.levels} hexes`);
  const wantSides = {};
  for (const v of Object.values(map.hexsides)) for (const k of Array.isArray(v) ? v : [v]) wantSides[k] = (wantSides[k] || 0) + 1;
  check(Object.entries(wantSides).every(([k, n]) => drawn.sides[k] === n), `every hexside drawn (${Object.entries(drawn.sides).map(([k, n]) => `${k} ${n}`).join(', ')})`);
  const roads = Object.values(map.roads);
  check(drawn.major === roads.filter((r) => r === 'major').length && drawn.minor === roads.filter((r) => r === 'minor').length, `roads drawn: ${drawn.major} major, ${drawn.minor} minor segments`);
  check(drawn.buildings === Object.keys(map.features).length, `${drawn.buildings} buildings drawn`);
  check(/woods/.test(drawn.legend) && /creek hexside/.test(drawn.legend) && /major road/.test(drawn.legend) && /strength points/.test(drawn.legend) && !/R regular/.test(drawn.legend), 'the legend is BAR\'s: its terrain, hexsides, roads and counter key');

  // The header and the counters.
  await P.waitFor(() => document.getElementById('banner').textContent.startsWith('Your move'), null, 20000);
  const st = (await get(base, `/api/games/${game}/state`, token)).state;
  const head = await P.eval(() => ({ time: document.getElementById('time').textContent, endturn: document.getElementById('endturn').textContent,
    loss: document.getElementById('chip-loss').hidden ? null : document.getElementById('loss').textContent, points: document.getElementById('chip-points').hidden }));
  check(head.time === st.time && head.endturn === `${st.end_turn_marker} / ${st.end_turn_number}` && /american 0/.test(head.loss || '') && head.points,
    `the header shows the time, the End Turn track and the losses (${head.time}; ${head.endturn}; ${head.loss})`);
  const counters = await P.eval(() => Object.fromEntries([...document.querySelectorAll('g.counter')].map((g) => [g.dataset.unit,
    [g.dataset.hex, g.querySelector('text.sp')?.textContent ?? null, g.querySelector('text.form')?.textContent ?? null, g.dataset.facing ?? null]])));
  const onMap = st.units.filter((u) => u.hex);
  const wrongC = onMap.filter((u) => { const c = counters[u.id]; return !c || c[0] !== u.hex || (u.kind !== 'leader' && (c[3] !== String(u.facing) || c[1] !== String(u.sp) || !c[2])); });
  check(onMap.length > 0 && wrongC.length === 0 && Object.keys(counters).length === onMap.length,
    `each of ${onMap.length} pieces on the map is drawn in its hex (units with their facing, SP and formation)${wrongC.length ? ': not ' + wrongC.slice(0, 4).map((u) => u.id).join(', ') : ''}`);
  const waiting = st.units.filter((u) => !u.hex && u.arrives);
  const reinf = await P.eval(() => (document.getElementById('reinforcements').hidden ? '' : document.getElementById('reinf-list').textContent));
  check(waiting.length > 0 && waiting.every((u) => reinf.includes(u.id)) && reinf.includes(waiting[0].arrives), `the ${waiting.length} reinforcements are listed with their time, none drawn`);

  // Our activations: a Command activated with its button, a piece moved
  // by clicking its stack and a highlighted hex and turned with a button of
  // its list, the segments ended with the end button; then our other
  // Commands are activated and ended until the computer answers with an
  // activation of its own (the British may have none left this turn). The
  // rules may leave a Command nothing to move (a failed Initiative, a
  // rout): then the next one is tried.
  const computerLines = () => P.eval(() => [...document.querySelectorAll('#log li.action')].filter((l) => /^british \(computer\): /.test(l.textContent)).length);
  const keep = await P.eval(() => { document.querySelector('svg#map polygon.hex').__musketKeep = true; return true; });
  let moved = false, answered = false, firstRound = true, over = false, sinceMove = 0, ended = false;
  for (let round = 0; round < 30 && !(moved && answered) && !over; round++) {
    // Our activation to choose (or the end of the game).
    await P.waitFor(() => /Game over/.test(document.getElementById('banner').textContent) ||
      [...document.querySelectorAll('#decision:not([hidden]) #decision-choices button:not([disabled])')].some((b) => b.offsetParent !== null) ||
      (/^Your move/.test(document.getElementById('banner').textContent) && (document.querySelectorAll('#commands:not([hidden]) #command-list button').length > 0 ||
        !document.getElementById('btn-end').disabled)), null, 60000);
    if (/Game over/.test(await text(P, '#banner'))) { over = true; break; }
    // A decision of ours first (an Initiative special result, 6.2, asks
    // which Command or what for the End Turn marker; a reactive decision):
    // its first choice, by its button.
    // (A panel the page is still redrawing, or one whose buttons are
    // disabled while an action is under way, is waited for, not clicked.)
    if (await P.eval(() => [...document.querySelectorAll('#decision:not([hidden]) #decision-choices button:not([disabled])')].some((b) => b.offsetParent !== null))) {
      const what = await text(P, '#decision-what');
      const n = await count(P, '#log li');
      await P.click('#decision:not([hidden]) #decision-choices button:not([disabled])');
      await P.waitFor((m) => document.querySelectorAll('#log li').length > m, n, 10000);
      console.log(`bar: decided "${what}" with its first button`);
      continue;
    }
    // An activation of ours under way that we did not choose (6.2c
    // Confusion: the other player picks it; 6.2d-f special segments): end
    // its segments.
    if (!(await count(P, '#commands:not([hidden]) #command-list button'))) {
      const n = await count(P, '#log li');
      console.log(`bar: ending "${await text(P, '#btn-end')}" of an activation we did not choose`);
      await P.click('#btn-end');
      await P.waitFor((m) => document.querySelectorAll('#log li').length > m, n, 10000);
      continue;
    }
    if (moved && (await computerLines()) > sinceMove) { answered = true; break; }
    const legal0 = await get(base, `/api/games/${game}/legal`, token);
    const cmds = await P.eval(() => [...document.querySelectorAll('#commands:not([hidden]) #command-list button[data-type="activate"]:not([data-wing])')].map((b) => b.dataset.command));
    const want0 = [...new Set(legal0.actions.filter((a) => a.type === 'activate').map((a) => a.command))];
    if (firstRound) check(cmds.length > 0 && JSON.stringify(cmds) === JSON.stringify(want0), `a button for each Command the rules let activate (${cmds.join(' ')})`);
    const cmd = cmds[0];
    const logN = await count(P, '#log li');
    await P.click(`#commands:not([hidden]) #command-list button[data-command="${cmd}"]:not([data-wing])`);
    await P.waitFor((n) => document.querySelectorAll('#log li').length > n && document.getElementById('commands').hidden, logN, 10000);
    if (firstRound) {
      check(new RegExp(`activates Command ${cmd}`).test(await text(P, '#log')), `the activation of ${cmd} is in the log`);
      check(new RegExp(`^${cmd}`).test(await text(P, '#command')), `the header names the active Command (${await text(P, '#command')})`);
    }
    firstRound = false;
    const legal1 = await get(base, `/api/games/${game}/legal`, token);
    const movers = [...new Set(legal1.actions.filter((a) => a.type === 'move').map((a) => a.unit))];
    const stNow = (await get(base, `/api/games/${game}/state`, token)).state;
    const kindOf = (id) => stNow.units.find((u) => u.id === id).kind;
    // A unit; a leader only when several Commands had no unit to move.
    const mover = movers.find((u) => kindOf(u) !== 'leader') || (round >= 6 ? movers[0] : undefined);
    if (!moved && mover) {
      const outlined = await P.eval(() => [...document.querySelectorAll('g.counter.can-act')].map((g) => g.dataset.unit));
      check(movers.every((u) => outlined.includes(u)), `the pieces that may move are outlined (${outlined.length})`);
      const from = stNow.units.find((u) => u.id === mover).hex;
      // Click the stack in its hex (the piece in front), then pick the one
      // to move from the panel's list of the hex's pieces.
      const front = await P.eval((h) => { const gs = [...document.querySelectorAll(`g.counter[data-hex="${h}"]:not(.leader)`)]; const g = gs.pop() || document.querySelector(`g.counter[data-hex="${h}"]`); return g.dataset.unit; }, from);
      await clickSvg(P, `g.counter[data-unit="${front}"]`);
      await P.waitFor((u) => document.getElementById('unit-title').textContent.startsWith(u), front);
      if (front !== mover) {
        await P.click(`#stack-list button[data-unit="${mover}"]`);
        await P.waitFor((u) => document.getElementById('unit-title').textContent.startsWith(u), mover);
        check(true, `${mover} picked from the list of its hex's pieces (${await P.eval(() => document.querySelectorAll('#stack-list button').length)} there)`);
      }
      await P.waitSel('polygon.hl-move');
      const shown = (await P.eval(() => [...document.querySelectorAll('polygon.hl-move')].map((p) => p.dataset.hex))).sort();
      const engine = legal1.actions.filter((a) => a.type === 'move' && a.unit === mover).map((a) => a.path[0]).sort();
      check(JSON.stringify(shown) === JSON.stringify(engine), `the highlighted hexes are the engine's moves of ${mover} (${shown.join(' ')})`);
      const to = shown[0];
      await clickSvg(P, `polygon.hl-move[data-hex="${to}"]`);
      await P.waitFor(([u, h]) => document.querySelector(`g.counter[data-unit="${CSS.escape(u)}"]`)?.dataset.hex === h, [mover, to], 10000);
      await P.waitFor((m) => document.getElementById('log').textContent.includes(m), `${mover} moves ${from} → ${to}`, 10000);
      check(true, `${mover} moved ${from} → ${to} by a click on the hex, and the log says so`);
      check(await P.eval(() => document.querySelector('svg#map polygon.hex').__musketKeep === true) && keep, 'the terrain was not drawn again for the move (only the counters are)');
      moved = true;
      // Turn it with a button of its list, as the engine lists it.
      await P.waitFor((u) => document.getElementById('unit-title').textContent.startsWith(u), mover);
      const face = await P.eval(() => { const b = document.querySelector('#unit-actions button[data-type="face"]'); return b ? b.textContent : null; });
      if (face) {
        const deg = /to (\d+) degrees/.exec(face)[1];
        await P.click('#unit-actions button[data-type="face"]');
        await P.waitFor(([u, d]) => document.querySelector(`g.counter[data-unit="${CSS.escape(u)}"]`)?.dataset.facing === d, [mover, deg], 10000);
        check(true, `${mover} turned to ${deg}° with its list's button ("${face}")`);
      } else {
        console.log(`bar: ${mover} has no facing change left to try`);
      }
    } else if (!moved) {
      console.log(`bar: Command ${cmd} has nothing that may move; ending it`);
    }
    // End the segments with the end button until the activation is over
    // (once the page has taken in the last action: its buttons are
    // disabled while one is under way).
    await P.waitFor(() => !document.getElementById('btn-end').disabled || !/^Your move/.test(document.getElementById('banner').textContent) ||
      document.querySelectorAll('#commands:not([hidden]) #command-list button').length > 0, null, 10000);
    const labels = [];
    for (let k = 0; k < 8; k++) {
      const st2 = await P.eval(() => ({ label: document.getElementById('btn-end').textContent, on: !document.getElementById('btn-end').disabled,
        mine: /^Your move/.test(document.getElementById('banner').textContent), cmds: document.querySelectorAll('#commands:not([hidden]) #command-list button').length }));
      if (!st2.on || !st2.mine || st2.cmds) break;
      labels.push(st2.label);
      const n = await count(P, '#log li');
      await P.click('#btn-end');
      await P.waitFor((m) => document.querySelectorAll('#log li').length > m, n, 10000);
      await P.waitFor(() => !document.getElementById('btn-end').disabled || !/^Your move/.test(document.getElementById('banner').textContent) ||
        document.querySelectorAll('#commands:not([hidden]) #command-list button').length > 0, null, 10000);
    }
    if (moved && !ended) {
      check(labels.join(', ') === 'End movement, End fire, End activation', `the end button ends each segment: ${labels.join(', ')}`);
      sinceMove = await computerLines();
      ended = true;
    }
  }
  check(moved, 'a piece of an activated Command moved by clicks');
  check(answered, 'the computer activates a Command of its own after ours');
  await P.waitFor(() => /^Your move/.test(document.getElementById('banner').textContent) || /Game over/.test(document.getElementById('banner').textContent), null, 60000);
  const after = await P.eval(() => ({ log: document.getElementById('log').textContent, cmds: document.querySelectorAll('#commands:not([hidden]) #command-list button').length, banner: document.getElementById('banner').textContent }));
  check(/british \(computer\): Activate /.test(after.log) && !/undefined|NaN/.test(after.log), 'the log shows the computer\'s activation, worded in full');
  check(after.cmds > 0 || /Game over/.test(after.banner), `our next activation is offered (${after.cmds} buttons)`);
  // The page stays quick on this map: selecting a piece redraws in time.
  const ms = await P.eval(() => {
    const g = document.querySelector('g.counter[data-side="american"]:not(.leader)');
    const t = performance.now();
    g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return performance.now() - t;
  });
  check(ms < 250, `a click on a piece redraws in ${Math.round(ms)} ms`);
  await P.screenshot(shot.replace(/\.png$/, '') + '-bar.png', false);
  console.log(`screenshot: ${shot.replace(/\.png$/, '')}-bar.png`);
  await P.goto('about:blank');   // lets its live stream go
}

// ---- a Monmouth decision of the reactive side --------------------------------------------

// Lee's Repulse with Grayson's Virginians in Attack Column beside the 16th
// Dragoons, who face away (no Defensive Fire): the Americans attack through
// the API, and the British page offers 2.3f's Retreat Before Close Combat
// in the decision panel (its "stand" has no unit to click); retreating
// moves the dragoons. Both seats are people; the British one is this page.
async function barDecision(D, base, check, shot) {
  const here = new URL('.', import.meta.url);
  const sc = JSON.parse(readFileSync(new URL('../../scenarios/bar/1-lees-repulse.json', here), 'utf8'));
  for (const u of sc.units) delete u.deploy;   // (bar.deploy's lists: not used here, and the body must fit 64 KiB)
  const put = (id, hex, form, facing) => Object.assign(sc.units.find((u) => u.id === id), { hex, ...(form ? { formation: form } : {}), facing });
  put('GD/LEE', 'E1525', null, 60);              // with Lee: in command (3.2b G ii)
  put('Va Bn/GD', 'E1525', 'attack_column', 60);
  put('16 Da', 'E1625', 'cavalry', 60);            // E1625 is E1525's neighbour at 60 degrees
  const g = await post(base, '/api/games', { scenario: sc, seed: 1, seats: ['human', 'human'] });
  check(g.ok, `a Monmouth game from a scenario object${g.ok ? '' : ': ' + JSON.stringify(g.error)}`);
  if (!g.ok) return;
  const tok = Object.fromEntries(g.seats.map((x) => [x.side, x.token]));
  let st = g.state;
  for (let k = 0; k < 300 && !(st.pending && st.pending.decision) && !st.over; k++) {
    const legal = (await get(base, `/api/games/${g.game}/legal`, tok[st.to_move])).actions;
    const a = legal.find((x) => x.type === 'close_combat' && x.unit === 'Va Bn/GD' && x.target === 'E1625') ||
      (st.to_move === 'american' && legal.find((x) => x.type === 'activate' && x.command === 'GD' && !x.wing)) ||
      legal.find((x) => x.type === 'next') || legal.find((x) => x.type === 'activate' && !x.wing) || legal[0];
    const r = await post(base, `/api/games/${g.game}/act`, { action: a }, tok[st.to_move]);
    if (!r.ok) { check(false, `the API took ${JSON.stringify(a)}: ${JSON.stringify(r.error)}`); return; }
    st = r.state;
  }
  check(st.pending && st.pending.decision === 'retreat_before_close_combat' && st.to_move === 'british',
    `the attack waits for the British decision (${JSON.stringify(st.pending)})`);
  if (!st.pending) return;
  const P = await D.isolatedPage();
  await P.goto(base + g.seats.find((x) => x.side === 'british').link);
  await P.waitSel('#decision:not([hidden]) #decision-choices button');
  const shown = await P.eval(() => ({ what: document.getElementById('decision-what').textContent,
    buttons: [...document.querySelectorAll('#decision-choices button')].map((b) => [b.dataset.type, b.textContent]) }));
  const legal = (await get(base, `/api/games/${g.game}/legal`, tok.british)).actions;
  check(shown.buttons.length === legal.length && shown.buttons.every(([t, txt], i) => t === legal[i].type && txt === legal[i].text),
    `the decision panel has a button for each choice the engine lists (${shown.buttons.map((b) => b[1]).join(' | ')})`);
  check(/retreat before close combat/.test(shown.what) && /Va Bn\/GD/.test(shown.what), `it says what is decided (${shown.what})`);
  await P.screenshot(shot.replace(/\.png$/, '') + '-bar-decision.png', false);
  const i = legal.findIndex((x) => x.retreat === true);
  await P.click(`#decision-choices button:nth-child(${i + 1})`);
  await P.waitFor(() => document.querySelector('g.counter[data-unit="16 Da"]')?.dataset.hex !== 'E1625', null, 10000);
  const after = (await get(base, `/api/games/${g.game}/state`, tok.british)).state;
  const da = after.units.find((u) => u.id === '16 Da');
  check(!after.pending && da.hex !== 'E1625' && da.sp === g.state.units.find((u) => u.id === '16 Da').sp,
    `the dragoons retreated unharmed to ${da.hex} by the button, and the decision is gone`);
  await P.goto('about:blank');
}

// ---- a Monmouth set-up placed by clicks (the option bar.deploy) ------------------------

async function barDeploy(D, base, check) {
  const g = await post(base, '/api/games', { scenario: 'bar/1-lees-repulse', seed: 2, options: { 'bar.deploy': true }, seats: ['human', 'human'] });
  check(g.ok && g.state.phase === 'deployment', `bar.deploy: the game opens in the deployment (${g.ok ? g.state.phase : JSON.stringify(g.error)})`);
  if (!g.ok) return;
  const first = g.state.to_move, seat = g.seats.find((x) => x.side === first);
  const legal = (await get(base, `/api/games/${g.game}/legal`, seat.token)).actions;
  const dep = legal.find((a) => a.type === 'deploy' && g.state.units.find((u) => u.id === a.unit).kind !== 'leader');
  check(Boolean(dep), `the ${first} have pieces to deploy (${legal.filter((a) => a.type === 'deploy').length} deploy actions)`);
  if (!dep) return;
  const P = await D.isolatedPage();
  await P.goto(base + seat.link);
  await P.waitFor(() => /^Your move/.test(document.getElementById('banner').textContent), null, 20000);
  const from = g.state.units.find((u) => u.id === dep.unit).hex;
  const front = await P.eval((h) => { const gs = [...document.querySelectorAll(`g.counter[data-hex="${h}"]:not(.leader)`)]; return gs.pop().dataset.unit; }, from);
  await clickSvg(P, `g.counter[data-unit="${front}"]`);
  if (front !== dep.unit) await P.click(`#stack-list button[data-unit="${dep.unit}"]`);
  await P.waitSel('polygon.hl-deploy');
  const shown = (await P.eval(() => [...document.querySelectorAll('polygon.hl-deploy')].map((p) => p.dataset.hex))).sort();
  const want = legal.filter((a) => a.type === 'deploy' && a.unit === dep.unit).map((a) => a.path[0]).sort();
  check(JSON.stringify(shown) === JSON.stringify(want), `the highlighted hexes are ${dep.unit}'s deploy hexes (${shown.length})`);
  await clickSvg(P, `polygon.hl-deploy[data-hex="${dep.path[0]}"]`);
  await P.waitFor(([u, h]) => document.querySelector(`g.counter[data-unit="${CSS.escape(u)}"]`)?.dataset.hex === h, [dep.unit, dep.path[0]], 10000);
  const st = (await get(base, `/api/games/${g.game}/state`, seat.token)).state;
  check(st.units.find((u) => u.id === dep.unit).hex === dep.path[0] && st.phase === 'deployment', `${dep.unit} deployed ${from} → ${dep.path[0]} by clicks`);
  await P.goto('about:blank');
}

// ---- all of it ----------------------------------------------------------------------------------

export async function runSuite(D, base, t, shot) {
  const errors = [];
  const P = await D.page();
  await againstComputer(P, base, t.check, shot);
  await twoBrowsers(D, base, t.check);
  await tiedHit(D, base, t.check, shot);
  await flatMap(D, base, t.check, shot);
  await facing(D, base, t.check, shot);
  await replayViewer(D, base, t.check);
  await barGame(D, base, t.check, shot);
  await barDecision(D, base, t.check, shot);
  await barDeploy(D, base, t.check);
  errors.push(...D.errors);
  t.check(errors.length === 0, `no errors in the page${errors.length ? ': ' + errors.join(' | ') : ''}`);
}
