// hexmap.js - draws a scenario's hex map and the units of a STATE as SVG.
// The geometry is core/hex.h's: pointy-topped hexes in rows, with the even
// or odd printed rows shifted half a hex right; flat-topped hexes in
// columns, with the even or odd columns (counted from 1 across all sheets)
// half a hex lower. Labels follow PROTOCOL.md: a column letter (A..Z, then
// AA, AB, ...) and a row number from 1 at the top; a flat map made of
// sheets joined west to east (BAR) labels a hex by its sheet letter, its
// two-digit column within the sheet and its two-digit row ("W0201").
//
// BAR (Monmouth) maps carry more than terrain: elevation levels (shaded),
// hexside terrain (creeks, bridges, the hedgerow, slopes), roads between hex
// centres and buildings; its counters show strength points, formation,
// status and facing. The terrain layers are drawn once per scenario and
// kept: each redraw replaces only the counters and highlights.

const SVGNS = 'http://www.w3.org/2000/svg';
const R = 24;                 // centre to corner
const MARGIN = 6;

export const TERRAIN_COLOURS = {
  clear: '#ece6c9', swamp: '#7f9d7b', waterway: '#6fa8dc', bridge: '#a98467', ford: '#9fc5e8',
  forest: '#5b8a4f', hill: '#c8a96e', town: '#b7aca2', fence: '#dccb93', entrenchment: '#8d7b63',
  woods: '#5b8a4f', river: '#6fa8dc', road: '#d8c7a0', marsh: '#7f9d7b', village: '#b7aca2',
};
const FALLBACK_COLOURS = ['#d9d2b8', '#c9b79c', '#a7b59a', '#b0c4de', '#d8bfd8'];

export const SIDE_COLOURS = ['#2f5f9e', '#b03a2e'];

const KIND_LETTERS = {
  regular: 'R', elite: 'E', light: 'Lt', militia: 'M', dragoon: 'D', artillery: 'A',
  line: 'L', highlander: 'H', irregular: 'I', skirmisher: 'S', native: 'N', cavalry: 'C',
  hussar: 'Hu', siege_artillery: 'SA', infantry: 'I', leader: '★', vp: 'VP',
};
export const kindLetter = (k) => KIND_LETTERS[k] || (k ? k[0].toUpperCase() : '?');

export function colLabel(c) {
  let s = '';
  c += 1;
  while (c > 0) {
    const m = (c - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    c = Math.floor((c - 1) / 26);
  }
  return s;
}

// A letter-and-number label ("F5", "aa3") as 0-based column and row, or
// null. Maps of sheets have their own labels: Geometry.parse reads both.
export function parseLabel(label) {
  const m = /^([A-Za-z]+)(\d+)$/.exec(label || '');
  if (!m) return null;
  let c = 0;
  for (const ch of m[1].toUpperCase()) c = c * 26 + (ch.charCodeAt(0) - 64);
  return { c: c - 1, r: Number(m[2]) - 1 };
}

const two = (n) => String(n).padStart(2, '0');

export class Geometry {
  constructor(map) {
    this.flat = map.orientation === 'flat';
    this.shiftEven = (map.shifted || 'even') === 'even';
    this.rows = map.rows;
    // Sheets west to east, each with its first global column (hex.h).
    this.sheets = null;
    if (Array.isArray(map.sheets) && map.sheets.length) {
      let first = 0;
      this.sheets = map.sheets.map((sh) => {
        const out = { id: String(sh.id).toUpperCase(), cols: sh.cols, first };
        first += sh.cols;
        return out;
      });
      this.cols = first;
    } else {
      this.cols = map.cols;
    }
    this.w = Math.sqrt(3) * R;
  }
  shifted(n) { return ((n + 1) % 2 === 0) === this.shiftEven; }   // n: 0-based row/column
  // The label of 0-based global column c and row r (mk_hex_label).
  label(c, r) {
    if (!this.sheets) return colLabel(c) + (r + 1);
    const sh = this.sheets.find((x) => c >= x.first && c < x.first + x.cols);
    return sh ? sh.id + two(c - sh.first + 1) + two(r + 1) : '?';
  }
  // A label (either case) as {c, r}, or null when it is not a hex of this
  // map (mk_hex_parse).
  parse(label) {
    let p = null;
    if (this.sheets) {
      const m = /^([A-Za-z])(\d\d)(\d\d)$/.exec(label || '');
      const sh = m && this.sheets.find((x) => x.id === m[1].toUpperCase());
      if (sh && Number(m[2]) >= 1 && Number(m[2]) <= sh.cols) p = { c: sh.first + Number(m[2]) - 1, r: Number(m[3]) - 1 };
    } else {
      p = parseLabel(label);
    }
    return p && p.c >= 0 && p.r >= 0 && p.c < this.cols && p.r < this.rows ? p : null;
  }
  center(c, r) {
    if (this.flat) {
      return { x: MARGIN + R + c * 1.5 * R, y: MARGIN + this.w / 2 + r * this.w + (this.shifted(c) ? this.w / 2 : 0) };
    }
    return { x: MARGIN + this.w / 2 + c * this.w + (this.shifted(r) ? this.w / 2 : 0), y: MARGIN + R + r * 1.5 * R };
  }
  centerOf(label) {
    const p = this.parse(label);
    return p ? this.center(p.c, p.r) : null;
  }
  // The six corners, clockwise from the east one (flat) or the south-east
  // one (pointy), as [x, y] pairs.
  cornerPoints(x, y, scale = 1) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = ((this.flat ? 0 : 30) + 60 * i) * Math.PI / 180;
      pts.push([x + R * scale * Math.cos(a), y + R * scale * Math.sin(a)]);
    }
    return pts;
  }
  corners(x, y, scale = 1) {
    return this.cornerPoints(x, y, scale).map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  }
  // The line between two sheets, along the west sides of the hexes of
  // global column c (its first column): an SVG path.
  seam(c) {
    let d = '';
    for (let r = 0; r < this.rows; r++) {
      const { x, y } = this.center(c, r);
      // Flat corners 4, 3, 2: north-west, west, south-west.
      const [nw, w, sw] = [4, 3, 2].map((i) => this.cornerPoints(x, y)[i]);
      d += `${r === 0 ? 'M' : 'L'}${nw[0].toFixed(1)},${nw[1].toFixed(1)} L${w[0].toFixed(1)},${w[1].toFixed(1)} L${sw[0].toFixed(1)},${sw[1].toFixed(1)} `;
    }
    return d.trim();
  }
  size() {
    if (this.flat) return { w: 2 * MARGIN + R * 2 + (this.cols - 1) * 1.5 * R, h: 2 * MARGIN + this.w * (this.rows + 0.5) };
    return { w: 2 * MARGIN + this.w * (this.cols + 0.5), h: 2 * MARGIN + R * 2 + (this.rows - 1) * 1.5 * R };
  }
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// BAR (Monmouth 5.2) has terrains of its own: open ground is the map's
// background, orchards have "a yellow-green tone" (5.2c), the Mill Pond is
// a lake (5.2i). Woods, orchards and marsh also get a symbol pattern.
const RULESET_TERRAIN_COLOURS = {
  bar: {
    open: '#eee9cf', grade: '#d9cdb0', orchard: '#d2dc8e', woods: '#8fb27a', marsh: '#b9cfb7',
    'marsh/woods': '#93b08a', lake: '#7fb2e0',
  },
};
const TERRAIN_PATTERNS = { woods: 'pat-woods', orchard: 'pat-orchard', marsh: 'pat-marsh', 'marsh/woods': 'pat-marsh-woods', grade: 'pat-grade' };

// The terrain a hex without an entry in map.terrain has.
export const defaultTerrain = (scenario) => (scenario && scenario.ruleset === 'bar' ? 'open' : 'clear');

// ruleset: the ruleset's object from /api/scenarios, or its id.
export function terrainColour(name, ruleset) {
  const id = typeof ruleset === 'string' ? ruleset : ruleset && ruleset.id;
  const own = id && RULESET_TERRAIN_COLOURS[id];
  if (own && own[name]) return own[name];
  if (TERRAIN_COLOURS[name]) return TERRAIN_COLOURS[name];
  const i = ruleset && ruleset.terrains ? ruleset.terrains.indexOf(name) : 0;
  return FALLBACK_COLOURS[Math.max(0, i) % FALLBACK_COLOURS.length];
}

// Elevation (BAR's map.elevation, levels 0-5, Monmouth 5.4a): the hex's
// colour mixed toward brown, a step a level, so that the ground's shape
// shows under every terrain.
const HIGH = [122, 92, 51];
export function shade(hex, level) {
  if (!level) return hex;
  const t = Math.min(0.6, 0.085 * level);
  const n = parseInt(hex.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v, i) => Math.round(v + (HIGH[i] - v) * t));
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

// The scenario's terrain by hex: Map(global index -> terrain name). The
// scenario may write labels in either case.
function terrainIndex(geo, map) {
  const out = new Map();
  for (const [label, t] of Object.entries(map.terrain || {})) {
    const p = geo.parse(label);
    if (p) out.set(p.r * geo.cols + p.c, t);
  }
  return out;
}

// Tiles placed during the game over the scenario's terrain (H&M 15 Random
// Events 2 places a swamp tile): the state's `terrain_changes`, label ->
// terrain name, as a Map(global index -> terrain name).
function placedIndex(geo, state) {
  const out = new Map();
  const changes = state && state.terrain_changes;
  if (!changes || typeof changes !== 'object') return out;
  for (const [label, t] of Object.entries(changes)) {
    const p = geo.parse(label);
    if (p && typeof t === 'string') out.set(p.r * geo.cols + p.c, t);
  }
  return out;
}

// The terrain of the hex labelled label ('clear', or BAR's 'open', where the
// scenario names none); a tile placed during the game (state.terrain_changes)
// wins when a state is given.
export function terrainAt(scenario, label, state = null) {
  const geo = new Geometry(scenario.map);
  const p = geo.parse(label);
  if (!p) return defaultTerrain(scenario);
  const i = p.r * geo.cols + p.c;
  return placedIndex(geo, state).get(i) || terrainIndex(geo, scenario.map).get(i) || defaultTerrain(scenario);
}

// The elevation level of a hex (map.elevation, 0 where absent).
export function elevationAt(scenario, label) {
  const geo = new Geometry(scenario.map);
  const p = geo.parse(label);
  if (!p) return 0;
  for (const [l, v] of Object.entries(scenario.map.elevation || {})) {
    const q = geo.parse(l);
    if (q && q.c === p.c && q.r === p.r) return Number(v) || 0;
  }
  return 0;
}

// A unit's facing (degrees clockwise from map-up, H&M 13 Facing) when the
// state gives one, else null.
function facingOf(u) {
  return typeof u.facing === 'number' && Number.isFinite(u.facing) ? ((u.facing % 360) + 360) % 360 : null;
}

// ---- BAR's counters: strength points, formation, status -----------------------

// Formations (Monmouth 2.1 and the series) as a short tag on the counter.
export const FORMATION_TAGS = {
  line: 'Ln', attack_column: 'AC', march_column: 'MC', road_column: 'RC', general_order: 'GO',
  skirmish: 'Sk', square: 'Sq', artillery: 'Art', artillery_road_column: 'ARC', cavalry: 'Cav',
  column: 'Col', hook: 'Hk',
};
export const formationTag = (f) => FORMATION_TAGS[f] || (f ? f.replace(/_/g, ' ').slice(0, 3) : '');
// Status marks (Monmouth 2.2, 2.5): letter, fill, text colour.
export const STATUS_MARKS = {
  disordered: ['D', '#f4d03f', '#222'], shaken: ['S', '#e67e22', '#fff'],
  shaken_disordered: ['SD', '#d35400', '#fff'], routed: ['R', '#c0392b', '#fff'],
};
const hasSP = (u) => typeof u.sp === 'number';

// One sentence about a unit, for tooltips and the unit panel.
export function describeUnit(u) {
  const facing = facingOf(u);
  const bits = [`${u.side} ${u.kind}`];
  if (hasSP(u)) bits.push(`${u.sp} SP`);
  if (u.formation) bits.push(u.formation.replace(/_/g, ' ') + (u.hook ? ` (${u.hook} end bent back)` : ''));
  if (u.status) bits.push(u.status === 'good' ? 'good order' : u.status.replace(/_/g, ' and '));
  if (u.kind !== 'vp' && typeof u.mp === 'number' && (u.kind !== 'leader' || u.mp_start)) bits.push(`${u.mp}/${u.mp_start} MP`);
  if (facing !== null) bits.push(`facing ${facing}°`);
  if (u.wounded_turns) bits.push(`wounded, ${u.wounded_turns} turn(s)`);
  if (u.acted) bits.push('has acted');
  return bits.join(', ');
}

// ---- the map's unchanging layers ------------------------------------------------

// Symbols for woods (trees at random), orchards (trees in rows, 5.2c),
// marsh (tufts) and grade (hatching), laid over the terrain's colour.
function patterns(defs) {
  const pat = (id, size, draw) => {
    const p = el('pattern', { id, width: size, height: size, patternUnits: 'userSpaceOnUse' }, defs);
    draw(p);
  };
  const trees = (p, pts, r, fill) => { for (const [x, y] of pts) el('circle', { cx: x, cy: y, r, fill, 'fill-opacity': 0.75 }, p); };
  const tufts = (p, pts) => {
    for (const [x, y] of pts) el('path', { d: `M${x - 2.5},${y} h5 M${x},${y} l-1.6,-2.6 M${x},${y} v-3 M${x},${y} l1.6,-2.6`, stroke: '#3f6f7f', 'stroke-width': 0.7, fill: 'none' }, p);
  };
  pat('pat-woods', 14, (p) => trees(p, [[3, 4], [10, 2.5], [7, 9], [12.5, 11.5], [2, 12]], 2.3, '#3f6b32'));
  pat('pat-orchard', 8, (p) => trees(p, [[4, 4]], 1.6, '#5f7d2a'));
  pat('pat-marsh', 12, (p) => tufts(p, [[3.5, 5], [9.5, 11]]));
  pat('pat-grade', 6, (p) => el('path', { d: 'M0,6L6,0M-1,1L1,-1M5,7L7,5', stroke: '#8a7650', 'stroke-width': 0.8 }, p));
  pat('pat-marsh-woods', 14, (p) => { trees(p, [[3, 4], [11, 10]], 2.3, '#3f6b32'); tufts(p, [[10, 4], [4, 12]]); });
}

// Hexside terrain (BAR's map.hexsides, Monmouth 5.3): the styles, drawn in
// this order (bridges over the creeks they cross).
const HEXSIDE_ORDER = ['gentle slope', 'regular slope', 'stream', 'creek', 'lake', 'hedgerow', 'bridge'];
const hexsideClass = (kind) => `hs-${kind.replace(/[^a-z0-9]+/gi, '-')}`;

// The edge two neighbouring hexes share, as two [x, y] points, or null.
function sharedEdge(geo, a, b) {
  const pa = geo.centerOf(a), pb = geo.centerOf(b);
  if (!pa || !pb || Math.hypot(pa.x - pb.x, pa.y - pb.y) > geo.w * 1.05) return null;
  const mx = (pa.x + pb.x) / 2, my = (pa.y + pb.y) / 2;
  const pts = geo.cornerPoints(pa.x, pa.y).sort((p, q) => Math.hypot(p[0] - mx, p[1] - my) - Math.hypot(q[0] - mx, q[1] - my));
  return { edge: [pts[0], pts[1]], a: pa, b: pb, m: [mx, my] };
}

const f1 = (v) => v.toFixed(1);

// Map features drawn once per scenario (and per set of tiles placed in
// play): terrain, elevation, hexsides, roads, buildings, labels, seams.
// Everything but the hexes themselves lets clicks through.
function drawStatic(svg, view, geo) {
  const sc = view.scenario;
  const map = sc.map;
  const rs = sc.ruleset || (view.ruleset && view.ruleset.id) || view.ruleset;
  const palette = typeof rs === 'string' ? rs : view.ruleset;
  const { w, h } = geo.size();
  svg.setAttribute('viewBox', `0 0 ${w.toFixed(0)} ${h.toFixed(0)}`);
  svg.dataset.orientation = geo.flat ? 'flat' : 'pointy';
  svg.dataset.ruleset = typeof rs === 'string' ? rs : '';
  svg.replaceChildren();
  patterns(el('defs', {}, svg));
  const terrain = terrainIndex(geo, map);
  const placed = placedIndex(geo, view.state); // tiles placed in play (H&M 15 Random Events 2)
  const level = new Map();
  for (const [label, v] of Object.entries(map.elevation || {})) {
    const p = geo.parse(label);
    if (p && Number(v)) level.set(p.r * geo.cols + p.c, Number(v));
  }
  const features = new Map();
  for (const [label, list] of Object.entries(map.features || {})) {
    const p = geo.parse(label);
    if (p) features.set(geo.label(p.c, p.r), Array.isArray(list) ? list : [list]);
  }
  const base = defaultTerrain(sc);
  const hexes = el('g', { class: 'hexes' }, svg);
  const over = el('g', { class: 'terrain-over' }, svg);
  const labels = [];
  for (let r = 0; r < geo.rows; r++) {
    for (let c = 0; c < geo.cols; c++) {
      const label = geo.label(c, r);
      const i = r * geo.cols + c;
      const tile = placed.get(i);
      const t = tile || terrain.get(i) || base;
      const lv = level.get(i) || 0;
      const { x, y } = geo.center(c, r);
      const pts = geo.corners(x, y);
      const attrs = { class: tile ? 'hex placed' : 'hex', points: pts, fill: t === 'lake' ? terrainColour(t, palette) : shade(terrainColour(t, palette), lv), 'data-hex': label, 'data-terrain': t };
      if (lv) attrs['data-level'] = String(lv);
      if (tile) attrs['data-placed'] = 'true';
      const poly = el('polygon', attrs, hexes);
      const title = el('title', {}, poly);
      const feat = features.get(label);
      title.textContent = tile ? `${label} ${t} (a tile placed in play)` : `${label} ${t}${lv ? `, level ${lv}` : ''}${feat ? ', ' + feat.join(', ') : ''}`;
      if (TERRAIN_PATTERNS[t]) el('polygon', { class: 'pattern', points: pts, fill: `url(#${TERRAIN_PATTERNS[t]})` }, over);
      labels.push([x, y, label]);
    }
  }
  // Hexside terrain: one path per kind.
  const sides = new Map();
  const bridges = [];
  for (const [pair, v] of Object.entries(map.hexsides || {})) {
    const [a, b] = pair.split('/');
    const e = sharedEdge(geo, a, b);
    if (!e) continue;
    for (const kind of Array.isArray(v) ? v : [v]) {
      if (kind === 'bridge') { bridges.push(e); continue; }
      const [[x1, y1], [x2, y2]] = e.edge;
      sides.set(kind, (sides.get(kind) || '') + `M${f1(x1)},${f1(y1)}L${f1(x2)},${f1(y2)}`);
    }
  }
  const hs = el('g', { class: 'hexsides' }, svg);
  const kinds = [...sides.keys()].sort((a, b) => HEXSIDE_ORDER.indexOf(a) - HEXSIDE_ORDER.indexOf(b));
  for (const kind of kinds) el('path', { class: `hexside ${hexsideClass(kind)}`, d: sides.get(kind), 'data-kind': kind }, hs);
  // Roads (map.roads, "A/B" between two hex centres; 5.2g major and minor).
  const roads = { major: '', minor: '' };
  for (const [pair, cls] of Object.entries(map.roads || {})) {
    const [a, b] = pair.split('/');
    const pa = geo.centerOf(a), pb = geo.centerOf(b);
    if (!pa || !pb) continue;
    const k = cls === 'major' ? 'major' : 'minor';
    roads[k] += `M${f1(pa.x)},${f1(pa.y)}L${f1(pb.x)},${f1(pb.y)}`;
  }
  const rg = el('g', { class: 'roads' }, svg);
  if (roads.minor) el('path', { class: 'road road-minor', d: roads.minor }, rg);
  if (roads.major) { el('path', { class: 'road road-major-edge', d: roads.major }, rg); el('path', { class: 'road road-major', d: roads.major }, rg); }
  // Bridges over the hexsides they cross: a deck across the creek, under
  // the road that uses it.
  if (bridges.length) {
    const d = bridges.map(({ a, b, m }) => {
      const len = Math.hypot(b.x - a.x, b.y - a.y), ux = (b.x - a.x) / len * 6.5, uy = (b.y - a.y) / len * 6.5;
      return `M${f1(m[0] - ux)},${f1(m[1] - uy)}L${f1(m[0] + ux)},${f1(m[1] + uy)}`;
    }).join('');
    el('path', { class: `hexside ${hexsideClass('bridge')}`, d, 'data-kind': 'bridge' }, hs);
  }
  // Buildings and other features: a small house in the hex's upper right.
  const fg = el('g', { class: 'features' }, svg);
  for (const [label, list] of features) {
    const p = geo.centerOf(label);
    if (!p) continue;
    for (const f of list) {
      if (f !== 'building') continue;
      const x = p.x + 9, y = p.y - 13;
      el('path', { class: 'building', d: `M${f1(x)},${f1(y + 2.5)}l3.5,-3l3.5,3v4h-7z`, 'data-hex': label }, fg);
    }
  }
  const lg = el('g', { class: 'labels' }, svg);
  for (const [x, y, label] of labels) {
    const tx = el('text', { class: 'hex-label', x: f1(x), y: f1(y - R * 0.62), 'text-anchor': 'middle' }, lg);
    tx.textContent = label;
  }
  // Where one sheet meets the next (maps of sheets are flat: hex.h).
  if (geo.sheets && geo.flat) {
    for (const sh of geo.sheets.slice(1)) el('path', { class: 'sheet-seam', d: geo.seam(sh.first), 'data-sheet': sh.id }, lg);
  }
  const layers = {
    last: el('g', { class: 'last-move' }, svg),
    units: el('g', { class: 'units' }, svg),
    hl: el('g', { class: 'highlights' }, svg),
  };
  // One listener per layer, reading the newest view (the layers outlive a
  // draw; the view does not).
  hexes.addEventListener('click', (e) => {
    const p = e.target.closest('polygon.hex');
    const v = svg._musket && svg._musket.view;
    if (p && v && v.onHex) v.onHex(p.dataset.hex);
  });
  layers.units.addEventListener('click', (e) => {
    const g = e.target.closest('g.counter');
    const v = svg._musket && svg._musket.view;
    if (!g || !v) return;
    e.stopPropagation();
    if (v.onUnit) v.onUnit(g.dataset.unit, g.dataset.hex);
  });
  layers.hl.addEventListener('click', (e) => {
    const p = e.target.closest('polygon.hl');
    const v = svg._musket && svg._musket.view;
    if (!p || !v) return;
    e.stopPropagation();
    if (v.onHex) v.onHex(p.dataset.hex);
  });
  return layers;
}

// ---- counters -------------------------------------------------------------------

// A counter of Hold the Line or Horse & Musket: the kind's letter and MP.
function classicCounter(g, u, x, y, s, colour, facing) {
  // H&M 13 Facing: the counter turned the way it faces (degrees clockwise
  // from map-up), its front edge marked with a triangle; the letters stay
  // upright.
  let body = g;
  if (facing !== null) {
    g.dataset.facing = String(facing);
    body = el('g', { class: 'turned', transform: `rotate(${facing} ${x + s / 2} ${y + s / 2})` }, g);
    el('polygon', { class: 'facing', points: `${x + s / 2},${y - 6} ${x + s / 2 + 4.5},${y + 0.5} ${x + s / 2 - 4.5},${y + 0.5}`, fill: colour }, body);
  }
  el('rect', { class: 'body', x, y, width: s, height: s, rx: 2, fill: colour }, body);
  const k = el('text', { class: 'kind', x: x + s / 2, y: y + s * 0.45, 'text-anchor': 'middle' }, g);
  k.textContent = kindLetter(u.kind);
  const mp = el('text', { class: 'mp', x: x + s / 2, y: y + s * 0.9, 'text-anchor': 'middle' }, g);
  mp.textContent = String(u.mp);
}

// A counter with strength points (BAR): formation tag above, SP below,
// turned to its facing with a front marker, a status mark at the corner.
function spCounter(g, u, x, y, s, colour, facing) {
  let body = g;
  const cx = x + s / 2, cy = y + s / 2;
  if (facing !== null) {
    g.dataset.facing = String(facing);
    body = el('g', { class: 'turned', transform: `rotate(${facing} ${f1(cx)} ${f1(cy)})` }, g);
    el('polygon', { class: 'facing', points: `${f1(cx)},${f1(y - 5.5)} ${f1(cx + 4.5)},${f1(y + 0.5)} ${f1(cx - 4.5)},${f1(y + 0.5)}`, fill: colour }, body);
  }
  el('rect', { class: 'body', x: f1(x), y: f1(y), width: s, height: s, rx: 2, fill: colour }, body);
  if (u.kind === 'cavalry') el('path', { class: 'kind-mark', d: `M${f1(x + 1.5)},${f1(y + s - 1.5)}L${f1(x + s - 1.5)},${f1(y + 1.5)}` }, body);
  const tag = el('text', { class: 'form', x: f1(cx), y: f1(y + s * 0.38), 'text-anchor': 'middle' }, g);
  tag.textContent = formationTag(u.formation);
  const sp = el('text', { class: 'sp', x: f1(cx), y: f1(y + s * 0.88), 'text-anchor': 'middle' }, g);
  sp.textContent = String(u.sp);
  const mark = STATUS_MARKS[u.status];
  if (mark) {
    g.dataset.status = u.status;
    const mx = x + s, my = y;
    el('circle', { class: 'status', cx: f1(mx), cy: f1(my), r: mark[0].length > 1 ? 5.2 : 4.4, fill: mark[1] }, g);
    const t = el('text', { class: 'status-text', x: f1(mx), y: f1(my + 2.4), 'text-anchor': 'middle', style: `fill: ${mark[2]}` }, g);
    t.textContent = mark[0];
  }
}

// Draws the map into svg. view: {scenario, state, selected, highlights:
// Map(label -> {type, text}), actors: Set(unit ids that may act now),
// lastMove: {from, to}, onHex(label), onUnit(id)}. The terrain layers are
// built once per scenario and kept; each call redraws only the counters
// and highlights (a 78 x 51 map has ~4000 hexes).
export function draw(svg, view) {
  const sc = view.scenario;
  const geo = new Geometry(sc.map);
  const key = `${view.ruleset ? view.ruleset.id || view.ruleset : ''}|${JSON.stringify((view.state && view.state.terrain_changes) || null)}`;
  let m = svg._musket;
  if (!m || m.scenario !== sc || m.key !== key || !m.layers.units.isConnected) {
    m = svg._musket = { scenario: sc, key, layers: drawStatic(svg, view, geo) };
  }
  m.view = view;
  const { last, units, hl } = m.layers;
  last.replaceChildren();
  units.replaceChildren();
  hl.replaceChildren();
  if (view.lastMove && view.lastMove.from) {
    const p = geo.centerOf(view.lastMove.from);
    if (p) el('polygon', { class: 'last-from', points: geo.corners(p.x, p.y, 0.8) }, last);
  }
  const sides = sc.sides.map((s) => s.id);
  const byHex = new Map();
  for (const u of view.state.units) {
    if (!u.hex) continue;
    if (!byHex.has(u.hex)) byHex.set(u.hex, []);
    // A two-hex unit (bar, Monmouth 2.1c: a Road Column over 8 SPs) is drawn
    // in both hexes, each counter with the SPs of its hex.
    byHex.get(u.hex).push(u.hex2 || u.tail_off_map ? { ...u, sp: u.sp_hex ?? u.sp } : u);
    if (u.hex2) {
      if (!byHex.has(u.hex2)) byHex.set(u.hex2, []);
      byHex.get(u.hex2).push({ ...u, sp: u.sp_hex2 ?? u.sp, trailing: true });
    }
  }
  const actors = view.actors || new Set();
  for (const [label, list] of byHex) {
    const p = geo.centerOf(label);
    if (!p) continue;
    // Order within a hex: VP marker, the combat units, then leaders on top.
    const rank = (u) => (u.kind === 'vp' ? 0 : u.kind === 'leader' ? 3 : u.kind === 'artillery' ? 2 : 1);
    list.sort((a, b) => rank(a) - rank(b));
    const nCombat = list.filter((u) => u.kind !== 'vp' && u.kind !== 'leader').length;
    let combat = 0, leaders = 0;
    for (const u of list) {
      const side = Math.max(0, sides.indexOf(u.side));
      const colour = SIDE_COLOURS[side % SIDE_COLOURS.length];
      const cls = `counter ${u.kind}${u.acted ? ' acted' : ''}${view.selected === u.id ? ' selected' : ''}${actors.has(u.id) ? ' can-act' : ''}${u.status === 'routed' ? ' routed' : ''}`;
      const g = el('g', { class: cls, 'data-unit': u.id, 'data-side': u.side, 'data-hex': label }, units);
      const t = el('title', {}, g);
      t.textContent = `${u.id}${u.name ? ' (' + u.name + ')' : ''}${u.trailing ? ' (trailing hex)' : u.hex2 ? ' (head; trailing in ' + u.hex2 + ')' : ''}: ${describeUnit(u)}`;
      const facing = facingOf(u);
      if (u.kind === 'vp') {
        const x = p.x - 12, y = p.y + 9;
        el('polygon', { class: 'body', points: `${x},${y - 7} ${x + 7},${y} ${x},${y + 7} ${x - 7},${y}`, fill: '#f1c40f', stroke: colour, 'stroke-width': 2 }, g);
        const tx = el('text', { x, y: y + 2.5, 'text-anchor': 'middle', 'font-size': 6 }, g);
        tx.textContent = 'VP';
      } else if (u.kind === 'leader') {
        // Several leaders in a hex (BAR stacks them with their units) side by side.
        const x = p.x + 11 - leaders * 9, y = p.y + 9 + (leaders % 2) * 3;
        leaders++;
        el('circle', { class: 'body', cx: x, cy: y, r: 7, fill: '#f7f1dc', stroke: colour, 'stroke-width': 2.2 }, g);
        const tx = el('text', { x, y: y + 3, 'text-anchor': 'middle', 'font-size': 8 }, g);
        tx.textContent = (u.name || u.id).replace(/^(Captain|Major|General|Colonel|Lt\.?|Gen\.?)\s+/, '')[0] || 'L';
      } else if (hasSP(u)) {
        // A stack fans out up and to the right, the last unit in front; a
        // badge says how many there are.
        const s = 21;
        const x = p.x - s / 2 - 3 - (nCombat > 1 ? 2 : 0) + combat * 4.5, y = p.y - s / 2 + 2 + (nCombat > 1 ? 2 : 0) - combat * 4.5;
        combat++;
        spCounter(g, u, x, y, s, colour, facing);
      } else {
        const s = u.kind === 'artillery' && combat > 0 ? 15 : 19;
        const x = p.x - s / 2 + (combat > 0 ? 8 : -2), y = p.y - s / 2 + (combat > 0 ? -6 : 1);
        combat++;
        classicCounter(g, u, x, y, s, colour, facing);
      }
    }
    if (nCombat > 1 && list.some(hasSP)) {
      const b = el('g', { class: 'stack-badge', 'data-hex': label }, units);
      el('rect', { x: f1(p.x - 20), y: f1(p.y + 7), width: 11, height: 8, rx: 2 }, b);
      const tx = el('text', { x: f1(p.x - 14.5), y: f1(p.y + 13.3), 'text-anchor': 'middle' }, b);
      tx.textContent = `×${nCombat}`;
    }
  }
  // Highlights go over the counters, so that a target hex is one click.
  for (const [label, info] of view.highlights || []) {
    const p = geo.centerOf(label);
    if (!p) continue;
    const poly = el('polygon', { class: `hl hl-${info.type}`, points: geo.corners(p.x, p.y, 0.86), 'data-hex': label, 'data-type': info.type }, hl);
    const title = el('title', {}, poly);
    title.textContent = info.text || label;
    if (info.badge) {
      const t = el('text', { class: 'hl-target-text', x: p.x, y: p.y + R * 0.72, 'text-anchor': 'middle' }, hl);
      t.textContent = info.badge;
    }
  }
}

// The centre of a hex in the SVG's own units (for scrolling a big map).
export function hexCentre(scenario, label) {
  return new Geometry(scenario.map).centerOf(label);
}

// ---- the legend -------------------------------------------------------------------

// The counter key of each ruleset.
function counterKey(scenario) {
  const rs = scenario.ruleset;
  if (rs === 'bar') {
    return 'counters: top = formation (Ln line, AC attack column, MC march column, RC road column, GO general order, Sk skirmish, Sq square, Hk hook (a Line with one end bent back), Cav cavalry, Art artillery unlimbered, ARC artillery limbered), number = strength points (SP); a diagonal stripe = cavalry; ' +
      'the triangle = its front (facing); corner mark D disordered, S shaken, SD shaken and disordered, R routed; circle = leader; ×n = combat units in the hex; a green outline = may act now';
  }
  const used = [...new Set((scenario.units || []).map((u) => u.kind).filter((k) => k && k !== 'leader' && k !== 'vp'))];
  const kinds = used.length ? used : rs === 'htl' || !rs ? ['regular', 'elite', 'light', 'militia', 'dragoon', 'artillery'] : [];
  const letters = kinds.map((k) => `${kindLetter(k)} ${k.replace(/_/g, ' ')}`).join(', ');
  return `counters: letter = kind (${letters}), number = current MP; circle = leader; VP = victory-point marker` +
    (rs === 'hm' ? '; triangle at a counter\'s edge = its front (with the Facing rule)' : '');
}

// A small SVG sample: a filled hex-ish square or a line in a style.
function sample(kind, how) {
  const s = document.createElementNS(SVGNS, 'svg');
  s.setAttribute('width', '22');
  s.setAttribute('height', '12');
  s.setAttribute('viewBox', '0 0 22 12');
  s.setAttribute('class', 'sample');
  if (kind === 'fill') {
    el('rect', { x: 0.5, y: 0.5, width: 21, height: 11, fill: how.fill, stroke: '#666', 'stroke-width': 0.8 }, s);
    if (how.pattern) el('rect', { x: 0.5, y: 0.5, width: 21, height: 11, fill: `url(#${how.pattern})` }, s);
  } else if (kind === 'line') {
    for (const cls of how) el('path', { class: cls, d: 'M1,6H21' }, s);
  } else if (kind === 'building') {
    el('path', { class: 'building', d: 'M7.5,6l3.5,-3l3.5,3v4h-7z' }, s);
  }
  return s;
}

// The legend: the terrains on this map, its hexsides, roads, elevation and
// buildings (BAR), the sides' colours and the counter key of the ruleset.
// Built from text nodes: names come from scenario files, never as HTML.
export function legend(div, scenario, ruleset) {
  const rs = scenario.ruleset || (ruleset && ruleset.id);
  const palette = rs || ruleset;
  const map = scenario.map;
  const used = new Set([defaultTerrain(scenario), ...Object.values(map.terrain || {})]);
  const item = (node, text, cls = '') => {
    const span = document.createElement('span');
    if (cls) span.className = cls;
    span.append(node, text);
    return span;
  };
  const swatch = (colour) => { const i = document.createElement('i'); i.style.background = colour; return i; };
  const items = [...used].map((t) => {
    const it = TERRAIN_PATTERNS[t] ? item(sample('fill', { fill: terrainColour(t, palette), pattern: TERRAIN_PATTERNS[t] }), t) : item(swatch(terrainColour(t, palette)), t);
    it.dataset.terrain = t;
    return it;
  });
  const hsKinds = new Set();
  for (const v of Object.values(map.hexsides || {})) for (const k of Array.isArray(v) ? v : [v]) hsKinds.add(k);
  for (const k of [...hsKinds].sort((a, b) => HEXSIDE_ORDER.indexOf(a) - HEXSIDE_ORDER.indexOf(b))) {
    const it = item(sample('line', [`hexside ${hexsideClass(k)}`]), `${k} hexside`);
    it.dataset.hexside = k;
    items.push(it);
  }
  const roadKinds = new Set(Object.values(map.roads || {}));
  if (roadKinds.has('major')) items.push(item(sample('line', ['road road-major-edge', 'road road-major']), 'major road'));
  if (roadKinds.has('minor')) items.push(item(sample('line', ['road road-minor']), 'minor road'));
  const levels = [...new Set(Object.values(map.elevation || {}).map(Number))].filter((n) => n > 0).sort((a, b) => a - b);
  if (levels.length) {
    const span = document.createElement('span');
    span.className = 'levels';
    span.append('elevation ');
    for (const lv of [0, ...levels]) {
      const i = swatch(shade(terrainColour(defaultTerrain(scenario), palette), lv));
      i.title = `level ${lv}`;
      span.append(i, `${lv} `);
    }
    items.push(span);
  }
  if (Object.values(map.features || {}).some((l) => (Array.isArray(l) ? l : [l]).includes('building'))) items.push(item(sample('building'), 'building'));
  scenario.sides.forEach((s, i) => items.push(item(swatch(SIDE_COLOURS[i % 2]), s.id)));
  const note = document.createElement('span');
  note.className = 'key';
  note.textContent = counterKey(scenario);
  items.push(note);
  div.replaceChildren(...items);
}
