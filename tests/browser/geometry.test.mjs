// geometry.test.mjs - the page's hex geometry (web/hexmap.js) against the
// engine's (core/hex.c), under node, without a browser: for every hex of
// four maps (flat-topped in columns with two sheets and "W0201" labels,
// flat with letter labels, pointy with even and with odd rows shifted), a
// game through `musket serve` with one unit there; the engine's one-hex
// moves from it must be exactly the hexes whose centres the page puts one
// hex-width away, with the same labels, and each such pair of hexes must
// share an edge (two corners) as the page draws them. Also: labels past Z,
// the labels of maps of sheets read back, terrain by label. BAR (Monmouth):
// the scenarios' roads and hexsides join hexes the page draws side by
// side, every label of their terrain, elevation and buildings is a hex of
// the map, the engine's one-hex moves in a real game go to drawn
// neighbours, and the log (web/logview.js) words every event of a game the
// computers play without a hole ("undefined", "NaN").
//
// Usage: node tests/browser/geometry.test.mjs path/to/musket
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// web/ has no package.json saying "module": load the file as a module by
// its text, as the browser does.
const src = readFileSync(join(here, '../../web/hexmap.js'), 'utf8');
const { Geometry, colLabel, terrainAt, elevationAt, shade } = await import(`data:text/javascript;base64,${Buffer.from(src).toString('base64')}`);
const logSrc = readFileSync(join(here, '../../web/logview.js'), 'utf8');
const { describe } = await import(`data:text/javascript;base64,${Buffer.from(logSrc).toString('base64')}`);

const musket = process.argv[2];
if (!musket) { console.error('usage: node geometry.test.mjs path/to/musket'); process.exit(2); }
let failed = 0, passed = 0;
const check = (ok, what) => { if (ok) passed++; else { failed++; console.log(`FAILED: ${what}`); } };

// ---- without the engine ---------------------------------------------------
check(colLabel(0) === 'A' && colLabel(25) === 'Z' && colLabel(26) === 'AA' && colLabel(27) === 'AB' && colLabel(26 * 27) === 'AAA', 'column letters A..Z, AA.., AAA');
const sheetsMap = { orientation: 'flat', shifted: 'even', rows: 5, sheets: [{ id: 'W', cols: 4 }, { id: 'e', cols: 4 }], terrain: { w0202: 'forest', E0103: 'hill' } };
const gs = new Geometry(sheetsMap);
check(gs.cols === 8 && gs.rows === 5, 'a map of sheets has the sheets\' columns');
check(gs.label(0, 0) === 'W0101' && gs.label(3, 4) === 'W0405' && gs.label(4, 0) === 'E0101' && gs.label(7, 2) === 'E0403', 'sheet labels: letter, column in the sheet, row');
check(JSON.stringify(gs.parse('e0403')) === JSON.stringify({ c: 7, r: 2 }), 'sheet labels read back in either case');
check(gs.parse('W0501') === null && gs.parse('X0101') === null && gs.parse('W0106') === null && gs.parse('A1') === null, 'labels off a map of sheets are refused');
let roundTrip = true;
for (let c = 0; c < gs.cols; c++) for (let r = 0; r < gs.rows; r++) { const p = gs.parse(gs.label(c, r)); roundTrip = roundTrip && p.c === c && p.r === r; }
check(roundTrip, 'every sheet label reads back to its hex');
check(terrainAt({ map: sheetsMap }, 'W0202') === 'forest' && terrainAt({ map: sheetsMap }, 'E0103') === 'hill' && terrainAt({ map: sheetsMap }, 'W0101') === 'clear', 'terrain by label, keys in either case');

// ---- BAR (Monmouth): the scenarios' map data as the page draws it -----------
const barIds = ['1-lees-repulse', '2-washingtons-stand', '3-grand-battle', '4-general-engagement'];
for (const id of barIds) {
  const file = join(here, `../../scenarios/bar/${id}.json`);
  let sc;
  try { sc = JSON.parse(readFileSync(file, 'utf8')); } catch { console.log(`geometry: no ${file}; BAR map checks skipped`); break; }
  const geo = new Geometry(sc.map);
  check(geo.flat && geo.cols === 78 && geo.rows === 51, `bar/${id}: a flat map of 78 x 51 hexes`);
  const bad = [];
  for (const what of ['terrain', 'elevation', 'features']) for (const l of Object.keys(sc.map[what] || {})) if (!geo.parse(l)) bad.push(`${what} ${l}`);
  for (const u of sc.units) {
    if (u.hex && !geo.parse(u.hex)) bad.push(`unit ${u.id} at ${u.hex}`);
    if (u.entry && !geo.parse(u.entry)) bad.push(`entry of ${u.id} ${u.entry}`);
  }
  check(bad.length === 0, `bar/${id}: every labelled hex of the scenario is on the map${bad.length ? ': ' + bad.slice(0, 5).join(', ') : ''}`);
  // Roads run centre to centre and hexsides lie on an edge: each "A/B" pair
  // must be two hexes drawn one hex-width apart, sharing two corners.
  let pairs = 0, ok = 0;
  const wrong = [];
  for (const key of [...Object.keys(sc.map.roads || {}), ...Object.keys(sc.map.hexsides || {})]) {
    const [a, b] = key.split('/');
    const pa = geo.centerOf(a), pb = geo.centerOf(b);
    pairs++;
    if (!pa || !pb) { wrong.push(key); continue; }
    const near = (x, y) => Math.abs(x - y) < 0.01;
    const shared = geo.cornerPoints(pa.x, pa.y).filter(([x1, y1]) => geo.cornerPoints(pb.x, pb.y).some(([x2, y2]) => near(x1, x2) && near(y1, y2))).length;
    if (near(Math.hypot(pa.x - pb.x, pa.y - pb.y), geo.w) && shared === 2) ok++; else wrong.push(key);
  }
  check(pairs > 0 && ok === pairs, `bar/${id}: ${ok} of ${pairs} road and hexside pairs are neighbours as drawn${wrong.length ? ': not ' + wrong.slice(0, 5).join(', ') : ''}`);
  console.log(`geometry: bar/${id}: ${ok}/${pairs} road and hexside pairs drawn as neighbours`);
  const lv = Object.entries(sc.map.elevation || {})[0];
  check(!lv || elevationAt(sc, lv[0]) === lv[1], `bar/${id}: elevation by label`);
  check(terrainAt(sc, 'W0101') === (sc.map.terrain.W0101 || 'open'), `bar/${id}: a hex the scenario leaves out is open ground`);
}
check(shade('#eee9cf', 0) === '#eee9cf' && shade('#eee9cf', 5) !== shade('#eee9cf', 1), 'elevation shades the colour by level');

// ---- against the engine ------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'musket-geometry-'));
const port = 21000 + (process.pid % 1000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(musket, ['serve', '--port', String(port), '--db', join(work, 'g.db'), '--ai-delay', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
let listening = false, exited = false;
server.stderr.on('data', (d) => { if (/musket serve: http:\/\//.test(String(d))) listening = true; });
server.on('exit', () => { exited = true; });
const finish = (code) => { server.kill('SIGTERM'); rmSync(work, { recursive: true, force: true }); process.exit(code); };
setTimeout(() => { console.log('FAILED: geometry test timed out'); finish(1); }, 100000).unref();

const post = async (path, body, token) => (await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: token ? { Authorization: `Bearer ${token}` } : {} })).json();
const get = async (path, token) => (await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } })).json();

try {
  for (let i = 0; ; i++) {
    if (listening) { try { if ((await fetch(`${base}/api/hello`)).ok) break; } catch { /* not yet */ } }
    if (i > 100 || exited) throw new Error(`the server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const maps = [
    { name: 'flat, two sheets, even columns lower', map: { orientation: 'flat', shifted: 'even', rows: 5, sheets: [{ id: 'W', cols: 4 }, { id: 'E', cols: 4 }] }, homes: ['west', 'east'] },
    { name: 'flat, odd columns lower', map: { orientation: 'flat', shifted: 'odd', cols: 7, rows: 5 }, homes: ['west', 'east'] },
    { name: 'pointy, even rows shifted', map: { orientation: 'pointy', shifted: 'even', cols: 7, rows: 5 }, homes: ['south', 'north'] },
    { name: 'pointy, odd rows shifted', map: { orientation: 'pointy', shifted: 'odd', cols: 6, rows: 5 }, homes: ['south', 'north'] },
  ];
  for (const m of maps) {
    const geo = new Geometry(m.map);
    const near = (a, b) => Math.abs(a - b) < 0.01;
    let hexes = 0, same = 0, edges = 0, edgesOk = 0;
    for (let c = 0; c < geo.cols; c++) {
      for (let r = 0; r < geo.rows; r++) {
        const label = geo.label(c, r), p = geo.center(c, r);
        // The enemy in the farthest corner, out of the way.
        const corners = [[0, 0], [geo.cols - 1, 0], [0, geo.rows - 1], [geo.cols - 1, geo.rows - 1]];
        const far = corners.map(([cc, rr]) => ({ cc, rr, d: Math.hypot(geo.center(cc, rr).x - p.x, geo.center(cc, rr).y - p.y) })).sort((a, b) => b.d - a.d)[0];
        const sc = {
          ruleset: 'htl', id: 'test/geometry', title: m.name, turns: 2, first: 'british', map: m.map,
          sides: [{ id: 'american', cap: 4, home: m.homes[0] }, { id: 'british', cap: 4, home: m.homes[1] }],
          units: [{ id: 'B-1', side: 'british', kind: 'regular', mp: 4, hex: label },
            { id: 'A-1', side: 'american', kind: 'regular', mp: 4, hex: geo.label(far.cc, far.rr) }],
        };
        const g = await post('/api/games', { scenario: sc, seed: 1, seats: ['human', 'human'] });
        if (!g.ok) { check(false, `${m.name}: a unit in ${label}: ${g.error.message}`); continue; }
        hexes++;
        check(g.state.units.find((u) => u.id === 'B-1').hex === label, `${m.name}: the engine names ${label} as the page does`);
        const legal = await get(`/api/games/${g.game}/legal`, g.seats[1].token);
        const engine = new Set(legal.actions.filter((a) => a.type === 'move' && a.unit === 'B-1' && a.path.length === 1).map((a) => a.path[0]));
        const page = new Set();
        for (let c2 = 0; c2 < geo.cols; c2++) for (let r2 = 0; r2 < geo.rows; r2++) {
          const q = geo.center(c2, r2);
          if (near(Math.hypot(q.x - p.x, q.y - p.y), geo.w)) page.add(geo.label(c2, r2));
        }
        const a = [...engine].sort().join(' '), b = [...page].sort().join(' ');
        if (a === b) same++; else check(false, `${m.name}: ${label}: the engine's neighbours ${a}, the page's ${b}`);
        for (const n of engine) {
          const q = geo.centerOf(n);
          if (!q) continue;
          const shared = geo.cornerPoints(p.x, p.y).filter(([x1, y1]) => geo.cornerPoints(q.x, q.y).some(([x2, y2]) => near(x1, x2) && near(y1, y2))).length;
          edges++;
          if (shared === 2) edgesOk++;
        }
      }
    }
    check(hexes === geo.cols * geo.rows && same === hexes, `${m.name}: ${same} of ${geo.cols * geo.rows} hexes have the engine's neighbours`);
    check(edges > 0 && edgesOk === edges, `${m.name}: ${edgesOk} of ${edges} neighbouring hexes share an edge as drawn`);
    console.log(`geometry: ${m.name}: ${same}/${hexes} hexes, ${edgesOk}/${edges} shared edges`);
  }
  // Labels past Z, as the engine writes them.
  const wide = { orientation: 'pointy', shifted: 'even', cols: 28, rows: 2 };
  const g = await post('/api/games', { scenario: { ruleset: 'htl', id: 'test/wide', title: 'wide', turns: 1, first: 'british', map: wide, sides: [{ id: 'american', cap: 4, home: 'south' }, { id: 'british', cap: 4, home: 'north' }], units: [{ id: 'B-1', side: 'british', kind: 'regular', mp: 4, hex: 'ab1' }, { id: 'A-1', side: 'american', kind: 'regular', mp: 4, hex: 'A2' }] }, seats: ['human', 'human'] });
  check(g.ok && g.state.units.find((u) => u.id === 'B-1').hex === new Geometry(wide).label(27, 0), 'column 28 is AB for the engine and the page');
  await barChecks();
} catch (e) {
  failed++;
  console.log(`FAILED: ${e.stack || e}`);
}
// BAR through the engine: a game of bar/1-lees-repulse, a Command
// activated, and every one-hex move of every piece of it goes to a hex the
// page draws next to the piece's; then a game the computers play, whose
// every logged event the page words in full.
async function barChecks() {
  const cat = await (await fetch(`${base}/api/scenarios`)).json();
  if (!(cat.scenarios || []).some((s) => s.id === 'bar/1-lees-repulse')) { console.log('geometry: no bar/1-lees-repulse in this build; skipped'); return; }
  const g = await post('/api/games', { scenario: 'bar/1-lees-repulse', seed: 3, seats: ['human', 'human'] });
  check(g.ok, `bar/1-lees-repulse starts${g.ok ? '' : ': ' + JSON.stringify(g.error)}`);
  if (!g.ok) return;
  const info = await get(`/api/games/${g.game}`, g.spectator);
  const geo = new Geometry(info.scenario.map);
  const tok = g.seats.find((x) => x.side === g.state.to_move).token;
  let legal = await get(`/api/games/${g.game}/legal`, tok);
  const act = legal.actions.find((a) => a.type === 'activate');
  check(Boolean(act), 'the side to move may activate a Command');
  if (!act) return;
  const r = await post(`/api/games/${g.game}/act`, { action: { type: 'activate', command: act.command } }, tok);
  legal = await get(`/api/games/${g.game}/legal`, tok);
  const at = new Map(r.state.units.map((u) => [u.id, u.hex]));
  const moves = legal.actions.filter((a) => a.type === 'move');
  const off = moves.filter((a) => {
    const p = geo.centerOf(at.get(a.unit)), q = geo.centerOf(a.path[0]);
    return !p || !q || Math.abs(Math.hypot(p.x - q.x, p.y - q.y) - geo.w) > 0.01;
  });
  check(moves.length > 0 && off.length === 0, `bar: ${moves.length - off.length} of ${moves.length} moves of Command ${act.command} go to a drawn neighbour${off.length ? ': not ' + off.slice(0, 3).map((a) => a.text).join('; ') : ''}`);
  console.log(`geometry: bar: ${moves.length - off.length}/${moves.length} moves of Command ${act.command} go to a drawn neighbour`);
  // The computers play; the log of the first few hundred actions.
  const c = await post('/api/games', { scenario: 'bar/1-lees-repulse', seed: 7, seats: [{ ai: 'random' }, { ai: 'random' }] });
  let st = null;
  for (let i = 0; i < 200; i++) {
    st = await get(`/api/games/${c.game}/state`, c.spectator);
    if (st.state.over || st.seq >= 300) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  const log = await get(`/api/games/${c.game}/log?since=0`, c.spectator);
  const holes = [], kinds = new Set();
  let n = 0;
  for (const row of log.log || []) {
    for (const e of row.events || []) {
      n++;
      kinds.add(e.type + (e.purpose ? '/' + e.purpose : ''));
      const d = describe(e);
      if (/undefined|NaN|\[object/.test(d.text + d.mods.join(' ')) || !d.text) holes.push(`${e.type}: ${d.text}`);
    }
  }
  check(n > 0 && holes.length === 0, `bar: ${n - holes.length} of ${n} logged events worded (${[...kinds].sort().join(', ')})${holes.length ? ': ' + holes.slice(0, 3).join(' | ') : ''}`);
  console.log(`geometry: bar: ${n - holes.length}/${n} logged events worded in full (${[...kinds].sort().join(', ')})`);
}

console.log(`geometry test: ${passed} passed, ${failed} failed`);
finish(failed ? 1 : 0);
