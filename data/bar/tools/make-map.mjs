// make-map.mjs - writes data/bar/map.json, OUR ORIGINAL SCHEMATIC of the
// Monmouth battlefield (Freehold, 28 June 1778) on the two BAR sheets. It is
// not the published map: we do not have it. The hexes the rulebook names
// (set-ups, entries, the orchard, the hedgerow, the advance track) are
// placed as the text requires; everything else is our drawing of the
// historical ground. Run by hand from the repository root:
//
//     node data/bar/tools/make-map.mjs            (writes data/bar/map.json)
//     node data/bar/tools/make-map.mjs --ascii    (also prints a rough picture)
//
// The JSON is committed; this script documents how it was made. The grid
// arithmetic mirrors core/hex.c (flat-topped, "shifted": "even", global
// columns counted across the W and E sheets).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const COLS = 78, ROWS = 51, SHEET = 39;
const S3 = Math.sqrt(3);

// ---- grid (0-based global col c, row r; id = r * COLS + c) -------------
const id = (c, r) => r * COLS + c;
const colOf = (h) => h % COLS;
const rowOf = (h) => Math.floor(h / COLS);
function label(h) {
  const g = colOf(h) + 1;
  const s = g <= SHEET ? 'W' : 'E';
  const cc = g <= SHEET ? g : g - SHEET;
  return s + String(cc).padStart(2, '0') + String(rowOf(h) + 1).padStart(2, '0');
}
function hex(l) {
  const m = /^([WE])(\d\d)(\d\d)$/.exec(l);
  if (!m) throw new Error(`bad label ${l}`);
  const c = (m[1] === 'W' ? +m[2] : +m[2] + SHEET) - 1, r = +m[3] - 1;
  if (c < 0 || c >= COLS || r < 0 || r >= ROWS || +m[2] < 1 || +m[2] > SHEET)
    throw new Error(`off the map: ${l}`);
  return id(c, r);
}
// core/hex.c step_of (flat): NE, SE, S, SW, NW, N; "even": odd 0-based
// columns (printed even) sit half a hex lower.
const STEP = [
  [[1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1], [0, -1]],
  [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [0, -1]],
];
function neighbors(h) {
  const c = colOf(h), r = rowOf(h), out = [];
  for (const [dc, dr] of STEP[c & 1]) {
    const nc = c + dc, nr = r + dr;
    out.push(nc >= 0 && nc < COLS && nr >= 0 && nr < ROWS ? id(nc, nr) : -1);
  }
  return out;
}
const adjacent = (a, b) => neighbors(a).includes(b);
const center = (h) => [1.5 * colOf(h), S3 * (rowOf(h) + 0.5 * (colOf(h) & 1))];
function cube(h) {
  const c = colOf(h), r = rowOf(h);
  const q = c, rr = r - (c - (c & 1)) / 2;
  return [q, rr, -q - rr];
}
function fromCube(q, rr) {
  const c = q, r = rr + (q - (q & 1)) / 2;
  return c >= 0 && c < COLS && r >= 0 && r < ROWS ? id(c, r) : -1;
}
function distance(a, b) {
  const x = cube(a), y = cube(b);
  return Math.max(Math.abs(x[0] - y[0]), Math.abs(x[1] - y[1]), Math.abs(x[2] - y[2]));
}
function cubeRound(q, r, s) {
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}
// Hexes of the straight line a..b (a nudge keeps ties on one side).
function line(a, b) {
  const n = distance(a, b), x = cube(a), y = cube(b), out = [];
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n;
    const [q, r] = cubeRound(x[0] + (y[0] - x[0]) * t + 1e-6, x[1] + (y[1] - x[1]) * t + 2e-6,
                             x[2] + (y[2] - x[2]) * t - 3e-6);
    out.push(fromCube(q, r));
  }
  return out;
}
const within = (h, n) => { const out = []; for (let k = 0; k < COLS * ROWS; k++) if (distance(h, k) <= n) out.push(k); return out; };
const sideKey = (a, b) => (a < b ? `${label(a)}/${label(b)}` : `${label(b)}/${label(a)}`);

// ---- vertices: the corners of the hexes, for creeks and the hedgerow ----
// Vertex k of a flat-topped hex is at angle 60k degrees (y down); the side
// from vertex k to k+1 faces SE, S, SW, NW, N, NE for k = 0..5.
const vkey = (x, y) => `${Math.round(x * 2)},${Math.round((y * 2) / S3)}`;
const vertexHexes = new Map();   // vertex -> hexes touching it
const hexVertices = [];          // hex -> its six vertex keys
for (let h = 0; h < COLS * ROWS; h++) {
  const [x, y] = center(h), vs = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    const key = vkey(x + Math.cos(a), y + Math.sin(a));
    vs.push(key);
    if (!vertexHexes.has(key)) vertexHexes.set(key, []);
    vertexHexes.get(key).push(h);
  }
  hexVertices.push(vs);
}
const vpos = (v) => { const [a, b] = v.split(',').map(Number); return [a / 2, (b * S3) / 2]; };
// The hexside (two hexes) along edge u-v, or null on the map's rim.
function edgeSide(u, v) {
  const hu = vertexHexes.get(u), hv = vertexHexes.get(v);
  const both = hu.filter((h) => hv.includes(h));
  return both.length === 2 ? both : null;
}
function vertexNeighbors(v) {
  const out = new Set();
  for (const h of vertexHexes.get(v)) {
    const vs = hexVertices[h], i = vs.indexOf(v);
    out.add(vs[(i + 1) % 6]);
    out.add(vs[(i + 5) % 6]);
  }
  return [...out];
}
function sideVertices(a, b) {
  const va = hexVertices[a], vb = hexVertices[b];
  const both = va.filter((v) => vb.includes(v));
  if (both.length !== 2) throw new Error(`not a hexside: ${label(a)}/${label(b)}`);
  return both;
}
// Shortest chain of hexsides from vertex set `from` to vertex set `to`,
// kept near the straight line between them; `banned` vertices and `bad`
// hexsides are not used. Returns the vertex list.
function vertexPath(from, to, banned, bad) {
  const [tx, ty] = vpos(to[0]);
  const [fx, fy] = vpos(from[0]);
  const dev = (x, y) => {
    const dx = tx - fx, dy = ty - fy, L = Math.hypot(dx, dy) || 1;
    return Math.abs((x - fx) * dy - (y - fy) * dx) / L;
  };
  const dist = new Map(), prev = new Map(), done = new Set(), goal = new Set(to);
  const queue = [];
  for (const v of from) { dist.set(v, 0); queue.push([0, v]); }
  while (queue.length) {
    queue.sort((a, b) => a[0] - b[0]);
    const [d, u] = queue.shift();
    if (done.has(u)) continue;
    done.add(u);
    if (goal.has(u)) {
      const out = [u];
      while (prev.has(out[0])) out.unshift(prev.get(out[0]));
      return out;
    }
    for (const w of vertexNeighbors(u)) {
      if (banned.has(w) && !goal.has(w)) continue;
      const s = edgeSide(u, w);
      if (!s || bad.has(sideKey(s[0], s[1]))) continue;
      const [x, y] = vpos(w);
      const nd = d + 1 + 0.35 * dev(x, y);
      if (nd < (dist.get(w) ?? Infinity)) { dist.set(w, nd); prev.set(w, u); queue.push([nd, w]); }
    }
  }
  throw new Error(`no path from ${from} to ${to}`);
}
// Every hexside of the given hexes, as keys.
function sidesOf(labels) {
  const out = new Set();
  for (const l of labels) for (const n of neighbors(hex(l))) if (n >= 0) out.add(sideKey(hex(l), n));
  return out;
}
// A chain of hexsides through the given hexsides ("A/B"), in order.
function chain(sides, bad = new Set(), bannedIn = new Set()) {
  const banned = new Set(bannedIn), out = [];
  const pairs = sides.map((s) => s.split('/').map(hex));
  let [u, v] = sideVertices(...pairs[0]);
  // Start at the end on the map's rim (fewer hexes), else run from the end
  // nearer the next hexside.
  const nu = vertexHexes.get(u).length, nv = vertexHexes.get(v).length;
  const [nx, ny] = vpos(sideVertices(...pairs[1])[0]);
  const far = (w) => Math.hypot(vpos(w)[0] - nx, vpos(w)[1] - ny);
  if (nv < nu || (nv === nu && far(v) > far(u))) [u, v] = [v, u];
  out.push(pairs[0]);
  banned.add(u); banned.add(v);
  let end = v;
  for (let i = 1; i < pairs.length; i++) {
    const [a, b] = sideVertices(...pairs[i]);
    const p = vertexPath([end], [a, b], banned, bad);
    for (let k = 1; k < p.length; k++) {
      out.push(edgeSide(p[k - 1], p[k]));
      banned.add(p[k]);
    }
    const far = p[p.length - 1] === a ? b : a;
    out.push(pairs[i]);
    banned.add(far);
    end = far;
  }
  return out.map(([a, b]) => sideKey(a, b));
}

// ---- what the text names ------------------------------------------------
const scenDir = path.join(root, 'data', 'bar', 'scenarios');
const named = new Set();
function collect(v) {
  if (typeof v === 'string' && /^[WE]\d{4}$/.test(v)) named.add(v);
  else if (Array.isArray(v)) v.forEach(collect);
  else if (v && typeof v === 'object') Object.values(v).forEach(collect);
}
for (const f of fs.readdirSync(scenDir).filter((f) => f.endsWith('.json')).sort()) {
  const s = JSON.parse(fs.readFileSync(path.join(scenDir, f), 'utf8'));
  for (const k of ['setup', 'reinforcements', 'victory', 'variants']) collect(s[k]);
}
// Named by the text but not in the scenario files: 3.4c exits, the 5.3c
// hedgerow ends, 7.1d Example 3's "W3915" (a misprint for E3915, we think).
['W0114', 'W0124', 'W1725', 'W2422', 'W3915'].forEach((l) => named.add(l));
const namedHexes = new Set([...named].map(hex));

// ---- roads (5.2g) ---------------------------------------------------------
const roads = {};
const roadHexes = new Set();
function road(kind, waypoints) {
  const hs = [hex(waypoints[0])];
  // A minor road leaves a road already drawn: the network is one piece.
  if (roadHexes.size && !roadHexes.has(hs[0])) throw new Error(`road from ${waypoints[0]} joins nothing`);
  for (let i = 1; i < waypoints.length; i++) {
    const seg = line(hs[hs.length - 1], hex(waypoints[i]));
    for (let k = 1; k < seg.length; k++) hs.push(seg[k]);
  }
  for (let i = 1; i < hs.length; i++) {
    if (!adjacent(hs[i - 1], hs[i])) throw new Error(`road gap ${label(hs[i - 1])}-${label(hs[i])}`);
    const k = sideKey(hs[i - 1], hs[i]);
    if (!roads[k]) roads[k] = kind;
  }
  hs.forEach((h) => roadHexes.add(h));
  return hs;
}
// The main road (major): from E3915 (the road the British column marched
// out on, toward Middletown) through Monmouth Court House (E31-E34) and
// west, as the Court House-Englishtown road, over the East Ravine (E1023/E1123), past the advance-track
// hexes of 7.3d B in their order (E1623 ... W0201), over the Middle Ravine,
// through W2220 (7.1d C) and over the West Ravine bridge, up Perrine's
// Hill and on to Englishtown (W0201). Maxwell's march column (7.1b) stands
// on it in E0623-E1023.
const mainRoad = road('major', ['E3915', 'E3517', 'E3019', 'E2421', 'E1623', 'E1123', 'E1023',
  'E0923', 'E0823', 'E0723', 'E0623', 'E0627', 'W3425', 'W2823', 'W2521', 'W2220', 'W2120',
  'W2019', 'W2018', 'W1615', 'W1212', 'W1306', 'W0201']);
// Minor roads (ours): two lanes west to the 3.4c exits, past the Tennent
// Meeting House; the Shrewsbury road south-east out of the Court House
// (7.1a C ii: south of it, within 6 hexes of Clinton at E2827, the Morgan
// variant's Flank Guards set up); the lane south to Richmond's
// Mill (Morgan, 7.1a C); a farm lane north from the Parsonage ridge.
road('minor', ['W1212', 'W0713', 'W0114']);
road('minor', ['W1615', 'W1121', 'W0124']);
road('minor', ['E3218', 'E3422', 'E3724', 'E3926']);
road('minor', ['E1623', 'E1529', 'E1535', 'E1651']);
road('minor', ['W2521', 'W2617', 'W2709', 'W2801']);

// ---- creeks: the three ravines (5.3b), as chains of hexsides -------------
// Each passes through the hexside where the main road crosses it (a bridge).
const creekSides = new Set();
const ravines = {
  // The West Ravine (the "West Morass"): north edge, between Dickinson's
  // woods (W2208) and the British light troops (W26-W27), west of the
  // orchard, the bridge at W2120/W2220, between the American line and the
  // hedgerow, east of Combs Hill (W1527), south to the edge.
  west: chain(['W2501/W2601', 'W2407/W2408', 'W2212/W2213', 'W2217/W2218', 'W2120/W2220',
    'W1923/W1924', 'W1725/W1625', 'W1629/W1729', 'W1838/W1839', 'W1850/W1851'],
    sidesOf(['W2314', 'W2414', 'W2415', 'W2514'])),   // the orchard stays on the ridge
  // The Middle Ravine: north edge, between the 3rd Brigade (W27-W28) and
  // the woods, under the road (our bridge), west of the 4th Brigade (W34),
  // through the Mill Pond, south edge.
  middle: chain(['W3101/W3201', 'W3006/W3106', 'W3111/W3112', 'W3216/W3316', 'W3122/W3222',
    'W3127/W3227', 'W3236/W3237', 'W3143/W3243',
    'W3350/W3351']),
  // The East Ravine: north edge, under the road at E1023/E1123 (Maxwell's
  // column waits west of it, 7.1b), east of Scott's ground (hence "no
  // farther east than E08", 7.1b), west of Durkee (E1228), south edge.
  east: chain(['E1001/E1101', 'E1106/E1206', 'E1014/E1114', 'E1023/E1123', 'E0927/E1027',
    'E1031/E1131', 'E1237/E1337', 'E1142/E1242', 'E1150/E1151']),
};
for (const r of Object.values(ravines)) for (const s of r) creekSides.add(s);
// A small brook (5.2h stream: no effect on play) from the saddle between
// Perrine's Hill and Combs Hill into the West Ravine.
const streamSides = chain(['W1123/W1124', 'W1424/W1425'], creekSides);
// The Hedgerow (5.3c): from W1725 to W2422, the only hedgerow hexsides.
// Of the chains from a side of W1725 to a side of W2422, the shortest.
const hedgerow = (() => {
  const bad = new Set([...creekSides, ...streamSides]);
  let best = null;
  for (const a of neighbors(hex('W1725'))) for (const b of neighbors(hex('W2422'))) {
    const s1 = sideKey(hex('W1725'), a), s2 = sideKey(hex('W2422'), b);
    if (a < 0 || b < 0 || bad.has(s1) || bad.has(s2)) continue;
    let c;
    try { c = chain([s1, s2], bad); } catch { continue; }
    if (!best || c.length < best.length) best = c;
  }
  return best;
})();

// Hexes beside a creek (the ravine floor).
const ravineFloor = new Map();   // hex -> ravine name
for (const [name, sides] of Object.entries(ravines))
  for (const s of sides) for (const l of s.split('/')) ravineFloor.set(hex(l), name);

// ---- hex terrain (5.2) ----------------------------------------------------
const terrain = new Map();
// Set-up areas the text gives "within 1" (artillery among them) stay dry.
const keepDry = new Set([...namedHexes, ...roadHexes]);
for (const l of ['W1527', 'E1525', 'E2019', 'E2023', 'E0827', 'W2025', 'W1613', 'W2208'])
  within(hex(l), 1).forEach((h) => keepDry.add(h));
const blob = (l, n) => within(hex(l), n);
// Woods (5.2d): blocks of our drawing; Dickinson's "woods hex within 1 hex
// of W2208" (7.2b) is the west edge of the northern West Ravine woods.
const woods = [
  ...blob('W2208', 1), ...blob('W2006', 2), ...blob('W2404', 2),
  ...blob('W3015', 2), ...blob('W2917', 1),             // the point of woods
  ...blob('W1333', 2), ...blob('W1137', 2),             // south of Combs Hill
  ...blob('W0506', 2), ...blob('W0330', 2),             // west, off the field
  ...blob('E0406', 2), ...blob('E0708', 1),             // north of the road, E sheet
  ...blob('E2040', 3), ...blob('E2545', 2),             // toward Richmond's Mill
  ...blob('E3132', 2), ...blob('E2510', 2),
];
for (const h of woods) if (!namedHexes.has(h) || distance(h, hex('W2208')) <= 1) terrain.set(h, 'woods');
// Marsh (5.2e) and marsh/woods on the ravine floors, by stretch of rows.
const marshStretch = {
  west: [[1, 11, 'marsh/woods'], [12, 19, 'marsh'], [31, 44, 'marsh/woods']],   // dry at the Hedgerow
  middle: [[1, 9, 'marsh/woods'], [14, 21, 'marsh'], [25, 31, 'marsh'], [37, 42, 'marsh']],
  east: [[4, 12, 'marsh/woods'], [17, 21, 'marsh'], [25, 30, 'marsh'], [38, 46, 'marsh/woods']],
};
for (const [h, name] of ravineFloor) {
  if (keepDry.has(h)) continue;
  for (const [a, b, t] of marshStretch[name]) if (rowOf(h) + 1 >= a && rowOf(h) + 1 <= b) terrain.set(h, t);
}
// Scott's ground (7.1b "no farther east than E08"): the ravine floor east
// of it is marsh.
for (const l of ['E0926', 'E0927', 'E0928']) terrain.set(hex(l), 'marsh');
// The Mill Pond (5.2i): a lake on the Middle Ravine.
const millPond = ['W3133', 'W3233', 'W3134', 'W3234', 'W3334', 'W3235', 'W3335', 'W3236'];
for (const l of millPond) terrain.set(hex(l), 'lake');
// The orchard (5.2c, 7.1d B): the four hexes 7.1d B names.
const orchard = ['W2314', 'W2414', 'W2415', 'W2514'];
for (const l of orchard) terrain.set(hex(l), 'orchard');
// Grade (5.2b): the steep faces of Combs Hill and of the Middle Ravine's
// east bank south of the road (ours).
for (const l of ['W1424', 'W1324', 'W1523', 'W3323', 'W3324', 'W3325', 'E1225', 'E1226'])
  terrain.set(hex(l), 'grade');

// ---- elevation (5.4a): one level per hex ---------------------------------
// Features: a crest polyline, its top level and how many hexes each level
// is wide going down. The ravine floors are then cut down.
const features = [
  // Perrine's Hill: Washington's line (7.2b) on its crest, west of the West Ravine.
  { name: "Perrine's Hill", line: ['W1204', 'W1308', 'W1513', 'W1816', 'W1917'], top: 4, run: 1.6 },
  { name: "Perrine's Hill (south spur)", line: ['W1816', 'W1519', 'W1321'], top: 4, run: 1.6 },
  // Combs Hill: Greene's guns (7.2b, W1527) looking north-east over the ravine.
  { name: 'Combs Hill', line: ['W1427', 'W1429'], top: 5, run: 1.1 },
  // The Parsonage ridge east of the West Ravine: the orchard, the British guns.
  { name: 'Parsonage ridge', line: ['W2512', 'W2418', 'W2624'], top: 3, run: 2.0 },
  // Ground between the Middle and East ravines, and Lee's ground east of them.
  { name: 'middle ground', line: ['W3606', 'E0218', 'W3830'], top: 2, run: 2.5 },
  { name: "Lee's ground", line: ['E1718', 'E1926'], top: 2, run: 2.5 },
  // The knoll before the British rearguard's line (E30) and the high ground
  // north-east of the road, where 5.4b's examples name intersection hexes.
  { name: 'rearguard knoll', line: ['E2821'], top: 2, run: 1.2 },
  { name: 'north-east hills', line: ['E2107', 'E2805', 'E3404', 'E3509'], top: 4, run: 1.5 },
  { name: 'Court House rise', line: ['E3420', 'E3626'], top: 3, run: 2.0 },
  { name: 'south-east rise', line: ['E3348', 'E3750'], top: 3, run: 1.5 },
];
function segDist(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1], L2 = dx * dx + dy * dy;
  let t = L2 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
const elevation = new Map();
for (let h = 0; h < COLS * ROWS; h++) {
  let lv = 0;
  for (const f of features) {
    const pts = f.line.map((l) => center(hex(l)));
    let d = Infinity;
    if (pts.length === 1) d = Math.hypot(center(h)[0] - pts[0][0], center(h)[1] - pts[0][1]);
    for (let i = 1; i < pts.length; i++) d = Math.min(d, segDist(center(h), pts[i - 1], pts[i]));
    d /= S3;   // in hexes
    lv = Math.max(lv, f.top - Math.floor(d / f.run));
  }
  // The ravine floors: marsh and the pond at 0, the dry hexes beside a
  // creek (road hexes, set-up hexes) at most 1.
  const t = terrain.get(h);
  if (t === 'lake' || t === 'marsh' || t === 'marsh/woods') lv = 0;
  else if (ravineFloor.has(h)) lv = Math.min(lv, 1);
  if (lv > 0) elevation.set(h, lv);
}
const lev = (h) => elevation.get(h) ?? 0;

// ---- slope hexsides (5.3d-e): only between hexes of different levels ----
const slopes = {};
const combs = hex('W1528');
for (let h = 0; h < COLS * ROWS; h++) {
  for (const n of neighbors(h).slice(0, 3)) {
    if (n < 0 || lev(h) === lev(n)) continue;
    const lo = lev(h) < lev(n) ? h : n, hi = lo === h ? n : h;
    let kind = null;
    // The ravine banks are steep (regular); so are Combs Hill's sides.
    if (ravineFloor.has(lo) && lev(hi) >= 2) kind = 'regular slope';
    else if (distance(hi, combs) <= 4 && lev(hi) >= 3) kind = 'regular slope';
    // The tops of Perrine's Hill and the Parsonage ridge: gentle.
    else if (lev(hi) === 4 && colOf(hi) < SHEET && !ravineFloor.has(lo)) kind = 'gentle slope';
    else if (lev(hi) === 3 && colOf(hi) >= 20 && colOf(hi) < 28) kind = 'gentle slope';
    if (kind) slopes[sideKey(h, n)] = kind;
  }
}

// ---- buildings (5.2f, no effect on play) ---------------------------------
const buildings = [
  'W2220',                     // the farm at the east end of the bridge (7.1d C's hex)
  'W2413',                     // the Parsonage, by the orchard
  'W0713',                     // the Tennent Meeting House (placed by us)
  'W1615', 'W1011',            // farms on the Englishtown road
  'W1630',                     // a farm under Combs Hill
  'W2823', 'W3425',            // farms on the road between the ravines
  'E0623', 'E1623', 'E2421',   // farms Lee's column passed
  'E1535',                     // Richmond's Mill (Morgan, 7.1a C)
  'E3118', 'E3218', 'E3318', 'E3418', 'E3219', 'E3317', 'E3319',   // Monmouth Court House (Freehold)
  'E3816',                     // a farm on the road out to E3915
];

// ---- checks the parser and the test also make --------------------------
for (const h of namedHexes) {
  const t = terrain.get(h) ?? 'open';
  if (t === 'lake' || t === 'marsh') throw new Error(`named hex ${label(h)} is ${t}`);
}
for (const h of roadHexes) {
  const t = terrain.get(h) ?? 'open';
  if (t === 'lake' || t === 'marsh' || t === 'marsh/woods') throw new Error(`road hex ${label(h)} is ${t}`);
}
for (const l of orchard) if (terrain.get(hex(l)) !== 'orchard') throw new Error(`orchard ${l}`);
for (const l of ['W2220', 'W0201', 'W1615', 'W1212', 'W1306', 'W2018', 'W2823', 'W3425', 'E0627',
  'E0623', 'E0723', 'E0823', 'E0923', 'E1023', 'E1623', 'E3915'])
  if (!mainRoad.includes(hex(l))) throw new Error(`main road misses ${l}`);

// ---- hexsides JSON --------------------------------------------------------
// The Mill Pond's tail: the two creek hexsides above it are mostly water (5.2i).
const LAKE_SIDES = ['W3131/W3231', 'W3132/W3232'];
const hexsides = {};
const add = (k, t) => { (hexsides[k] ??= []).push(t); };
for (const s of creekSides) add(s, 'creek');
for (const s of creekSides) if (roads[s]) add(s, 'bridge');
for (const s of hedgerow) add(s, 'hedgerow');
for (const s of streamSides) add(s, 'stream');
for (const s of LAKE_SIDES) { if (!hexsides[s]) throw new Error(`${s} is not a creek`); add(s, 'lake'); }
for (const [k, v] of Object.entries(slopes)) add(k, v);
for (const s of hedgerow) if (creekSides.has(s) || roads[s]) throw new Error(`hedgerow ${s} on a creek/road`);

const sortObj = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const hexObj = (m) => sortObj(Object.fromEntries([...m].map(([h, v]) => [label(h), v])));
const out = {
  source: 'OUR ORIGINAL SCHEMATIC of the Monmouth battlefield (Monmouth Court House / Freehold, 28 June 1778), '
    + 'made for this project by data/bar/tools/make-map.mjs: it is NOT the published map of The Battle of '
    + 'Monmouth (BAR), which we do not have. The hexes the Monmouth exclusive rules name are placed as the '
    + 'text requires; all other terrain, elevation and roads are our drawing of the historical ground.',
  estimate: true,
  notes: [
    'Geometry (from the text): two sheets, W then E, 39 columns each, 51 rows, flat-topped, the even columns half a hex lower; labels CCRR per sheet (W0201, E3915).',
    'From the text: W0201 (American entry, 7.2b, 7.3b, 7.4b; rout goal, 7.0c B) and E3915 (British entry, 7.1c, 7.3c, 7.4c; rout goal, 7.0c B) are joined by a major road through W2220 (7.1d C: the British line of communications is continuous road hexes from W2220 to E3915); W0114 and W0124 are road hexes on the west edge (3.4c A).',
    "From the text: E0623, E0723, E0823, E0923, E1023 are road hexes (7.1b: Maxwell's column faces the easternmost road hexside); the orchard is W2314, W2414, W2415, W2514 (7.1d B) and nothing else; the Hedgerow is the only hedgerow and runs from W1725 to W2422 (5.3c; its course between those ends is ours); the Mill Pond is a lake (5.2i); there is woods within 1 hex of W2208 (7.2b, Dickinson: W2208 and its six neighbours are woods); a Monmouth Court House-Shrewsbury Road exists (7.1a C ii).",
    'From the text, placed by us: every set-up, entry, victory and advance-track hex of the four scenario files is a hex a unit can stand in (not lake, not marsh). The advance-track hexes of 7.3d B (E1623, E0623, E0627, W3425, W2823, W2018, W1615, W1212, W1306, W0201) lie on the main road in their order; the text does not say they are road hexes.',
    "Ours, the historical ground (not the published drawing): the West Ravine (the West Morass: creek, marsh, marsh/woods; bridge W2120/W2220) between Washington's line on Perrine's Hill (crest W12-W19, level 4) and the Hedgerow; Combs Hill (W1427-W1429, level 5) west of the ravine's southern reach, Greene's guns at W1527 (7.2b) looking north-east across it; the Parsonage ridge (level 3) with the orchard and the Parsonage (W2413); the Middle Ravine (bridge W3125/W3224) with the Mill Pond (W3133-W3236); the East Ravine (bridge E1023/E1123) east of Maxwell's column and of Scott's ground (E0926-E0928 marsh: why 7.1b says 'no farther east than the E08xx hex row'); Lee's ground (E17-E19), the rearguard knoll (E2821), the north-east hills (E21-E35, rows 4-9), the Court House rise (E34-E36).",
    "Ours: W2220 is a farm at the east end of the West Ravine bridge (the text names it only as 7.1d C's hex); the Tennent Meeting House (W0713) is on the minor road to W0114; Monmouth Court House (Freehold) is the buildings at E31-E34, rows 17-19, on the main road, which runs on to E3915 as the road the British column had marched out on; the Shrewsbury road (minor) leaves the Court House at E3218 for the east edge at E3926, so that 7.1a C ii's 'south of' it, within 6 hexes of Clinton (E2827), is ground south-east of Clinton; a lane runs south from E1623 past Richmond's Mill (E1535, Morgan, 7.1a C) to the south edge; a farm lane runs north from W2521 to W2801.",
    "Ours: every woods block but Dickinson's, the marsh stretches, the grade hexes, the slopes (regular on the ravine banks and on Combs Hill, gentle at the tops of Perrine's Hill and the Parsonage ridge), the stream W1123-W1424 (5.2h, no effect), the lake hexsides of the Mill Pond's tail, and every elevation level: 25-foot steps (5.4a A) from 0 in the marshes to 5 on Combs Hill; hexes not listed are level 0.",
    'edge_elevation: the ground beyond the north, south and west edges is taken as level 0 (a hill cut by those edges still closes, 5.4b A1); beyond the east edge, toward the Court House road, it is left unknown.',
    "The 5.4b examples use their own test maps (tests/test_bar_los.c); this map has high ground near the hexes they name but does not reproduce their levels. 7.1d Example 3's 'W3915' is read as a misprint for E3915 (both are on the map).",
  ],
  map: {
    orientation: 'flat', shifted: 'even', rows: ROWS,
    sheets: [{ id: 'W', cols: SHEET }, { id: 'E', cols: SHEET }],
    terrain: hexObj(terrain),
    features: sortObj(Object.fromEntries(buildings.map((l) => [l, ['building']]))),
    elevation: hexObj(elevation),
    edge_elevation: { north: 0, south: 0, west: 0 },
    hexsides: sortObj(Object.fromEntries(Object.entries(hexsides).map(([k, v]) => [k, v.length === 1 ? v[0] : v]))),
    roads: sortObj(roads),
  },
};

// Compact JSON: one entry a line inside the big objects.
function dump(o) {
  const lines = ['{'];
  const top = Object.entries(o);
  top.forEach(([k, v], i) => {
    const comma = i < top.length - 1 ? ',' : '';
    if (k !== 'map') { lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v, null, k === 'notes' ? 4 : 0).replace(/\n\]$/, '\n  ]')}${comma}`); return; }
    lines.push('  "map": {');
    const me = Object.entries(v);
    me.forEach(([mk, mv], j) => {
      const c2 = j < me.length - 1 ? ',' : '';
      if (mv && typeof mv === 'object' && !Array.isArray(mv) && Object.keys(mv).length > 4) {
        const es = Object.entries(mv);
        lines.push(`    ${JSON.stringify(mk)}: {`);
        es.forEach(([ek, ev], n) => lines.push(`      ${JSON.stringify(ek)}: ${JSON.stringify(ev)}${n < es.length - 1 ? ',' : ''}`));
        lines.push(`    }${c2}`);
      } else lines.push(`    ${JSON.stringify(mk)}: ${JSON.stringify(mv)}${c2}`);
    });
    lines.push(`  }${comma}`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}
const text = dump(out);
JSON.parse(text);
fs.writeFileSync(path.join(root, 'data', 'bar', 'map.json'), text);
console.log(`map.json: ${Object.keys(out.map.terrain).length} terrain, ${Object.keys(out.map.elevation).length} elevation, `
  + `${Object.keys(out.map.hexsides).length} hexsides (${creekSides.size} creek, ${hedgerow.length} hedgerow), `
  + `${Object.keys(roads).length} road hexsides, ${named.size} named hexes`);

if (process.argv.includes('--ascii')) {
  // Columns across, two text lines per row so the half-hex shift shows.
  const ch = (h) => {
    if (namedHexes.has(h)) return '@';
    const t = terrain.get(h) ?? 'open';
    if (roadHexes.has(h)) return t === 'woods' ? 'R' : 'r';
    return { open: String(lev(h) || '.'), woods: 'W', orchard: 'O', marsh: 'm', 'marsh/woods': 'M', lake: '~', grade: 'g' }[t];
  };
  for (let y = 0; y < ROWS * 2; y++) {
    let s = '';
    for (let c = 0; c < COLS; c++) {
      const r = (y - (c & 1)) / 2;
      s += Number.isInteger(r) && r >= 0 && r < ROWS ? ch(id(c, r)) : ' ';
      if (c === SHEET - 1) s += '|';
    }
    console.log(String(Math.floor(y / 2) + 1).padStart(2) + ' ' + s);
  }
}
