// hexmap.js - draws a scenario's hex map and the units of a STATE as SVG.
// The geometry is core/hex.h's: pointy-topped hexes in rows, with the even
// or odd printed rows shifted half a hex right; flat-topped hexes in
// columns, with the even or odd columns (counted from 1 across all sheets)
// half a hex lower. Labels follow PROTOCOL.md: a column letter (A..Z, then
// AA, AB, ...) and a row number from 1 at the top; a flat map made of
// sheets joined west to east (BAR) labels a hex by its sheet letter, its
// two-digit column within the sheet and its two-digit row ("W0201").

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
  hussar: 'Hu', siege_artillery: 'SA', leader: '★', vp: 'VP',
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

export function terrainColour(name, ruleset) {
  if (TERRAIN_COLOURS[name]) return TERRAIN_COLOURS[name];
  const i = ruleset && ruleset.terrains ? ruleset.terrains.indexOf(name) : 0;
  return FALLBACK_COLOURS[Math.max(0, i) % FALLBACK_COLOURS.length];
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

// The terrain of the hex labelled label ('clear' where the scenario names
// none); a tile placed during the game (state.terrain_changes) wins when a
// state is given.
export function terrainAt(scenario, label, state = null) {
  const geo = new Geometry(scenario.map);
  const p = geo.parse(label);
  if (!p) return 'clear';
  const i = p.r * geo.cols + p.c;
  return placedIndex(geo, state).get(i) || terrainIndex(geo, scenario.map).get(i) || 'clear';
}

// A unit's facing (degrees clockwise from map-up, H&M 13 Facing) when the
// state gives one, else null.
function facingOf(u) {
  return typeof u.facing === 'number' && Number.isFinite(u.facing) ? ((u.facing % 360) + 360) % 360 : null;
}

// Draws the map into svg. view: {scenario, state, selected, highlights:
// Map(label -> {type, text}), lastMove: {from, to}, onHex(label), onUnit(id)}.
export function draw(svg, view) {
  const sc = view.scenario;
  const geo = new Geometry(sc.map);
  const { w, h } = geo.size();
  svg.setAttribute('viewBox', `0 0 ${w.toFixed(0)} ${h.toFixed(0)}`);
  svg.dataset.orientation = geo.flat ? 'flat' : 'pointy';
  svg.replaceChildren();
  const terrain = terrainIndex(geo, sc.map);
  const placed = placedIndex(geo, view.state); // tiles placed in play (H&M 15 Random Events 2)
  const hexes = el('g', { class: 'hexes' }, svg);
  for (let r = 0; r < geo.rows; r++) {
    for (let c = 0; c < geo.cols; c++) {
      const label = geo.label(c, r);
      const tile = placed.get(r * geo.cols + c);
      const t = tile || terrain.get(r * geo.cols + c) || 'clear';
      const { x, y } = geo.center(c, r);
      const attrs = { class: tile ? 'hex placed' : 'hex', points: geo.corners(x, y), fill: terrainColour(t, view.ruleset), 'data-hex': label, 'data-terrain': t };
      if (tile) attrs['data-placed'] = 'true';
      const poly = el('polygon', attrs, hexes);
      const title = el('title', {}, poly);
      title.textContent = tile ? `${label} ${t} (a tile placed in play)` : `${label} ${t}`;
      poly.addEventListener('click', () => view.onHex && view.onHex(label));
      const tx = el('text', { class: 'hex-label', x: x, y: y - R * 0.62, 'text-anchor': 'middle' }, hexes);
      tx.textContent = label;
    }
  }
  // Where one sheet meets the next (maps of sheets are flat: hex.h).
  if (geo.sheets && geo.flat) {
    for (const sh of geo.sheets.slice(1)) el('path', { class: 'sheet-seam', d: geo.seam(sh.first), 'data-sheet': sh.id }, hexes);
  }
  if (view.lastMove && view.lastMove.from) {
    const p = geo.centerOf(view.lastMove.from);
    if (p) el('polygon', { class: 'last-from', points: geo.corners(p.x, p.y, 0.8) }, svg);
  }
  const units = el('g', { class: 'units' }, svg);
  const sides = sc.sides.map((s) => s.id);
  const byHex = new Map();
  for (const u of view.state.units) {
    if (!u.hex) continue;
    if (!byHex.has(u.hex)) byHex.set(u.hex, []);
    byHex.get(u.hex).push(u);
  }
  for (const [label, list] of byHex) {
    const p = geo.centerOf(label);
    if (!p) continue;
    // Order within a hex: VP marker, the combat units, then leaders on top.
    const rank = (u) => (u.kind === 'vp' ? 0 : u.kind === 'leader' ? 3 : u.kind === 'artillery' ? 2 : 1);
    list.sort((a, b) => rank(a) - rank(b));
    let combat = 0;
    for (const u of list) {
      const side = Math.max(0, sides.indexOf(u.side));
      const colour = SIDE_COLOURS[side % SIDE_COLOURS.length];
      const cls = `counter ${u.kind}${u.acted ? ' acted' : ''}${view.selected === u.id ? ' selected' : ''}`;
      const g = el('g', { class: cls, 'data-unit': u.id, 'data-side': u.side, 'data-hex': label }, units);
      const t = el('title', {}, g);
      const facing = facingOf(u);
      t.textContent = `${u.id}${u.name ? ' (' + u.name + ')' : ''}: ${u.side} ${u.kind}` + (u.kind !== 'leader' && u.kind !== 'vp' ? `, ${u.mp}/${u.mp_start} MP` : '') +
        (facing !== null ? `, facing ${facing}°` : '') + (u.acted ? ', has acted' : '');
      if (u.kind === 'vp') {
        const x = p.x - 12, y = p.y + 9;
        el('polygon', { class: 'body', points: `${x},${y - 7} ${x + 7},${y} ${x},${y + 7} ${x - 7},${y}`, fill: '#f1c40f', stroke: colour, 'stroke-width': 2 }, g);
        const tx = el('text', { x, y: y + 2.5, 'text-anchor': 'middle', 'font-size': 6 }, g);
        tx.textContent = 'VP';
      } else if (u.kind === 'leader') {
        const x = p.x + 11, y = p.y + 9;
        el('circle', { class: 'body', cx: x, cy: y, r: 7, fill: '#f7f1dc', stroke: colour, 'stroke-width': 2.2 }, g);
        const tx = el('text', { x, y: y + 3, 'text-anchor': 'middle', 'font-size': 8 }, g);
        tx.textContent = (u.name || u.id).replace(/^(Captain|Major|General|Colonel|Lt\.?|Gen\.?)\s+/, '')[0] || 'L';
      } else {
        const s = u.kind === 'artillery' && combat > 0 ? 15 : 19;
        const x = p.x - s / 2 + (combat > 0 ? 8 : -2), y = p.y - s / 2 + (combat > 0 ? -6 : 1);
        combat++;
        // H&M 13 Facing: the counter turned the way it faces (degrees
        // clockwise from map-up), its front edge marked with a triangle; the
        // letters stay upright.
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
      g.addEventListener('click', (e) => { e.stopPropagation(); view.onUnit && view.onUnit(u.id, label); });
    }
  }
  // Highlights go over the counters, so that a target hex is one click.
  const hl = el('g', { class: 'highlights' }, svg);
  for (const [label, info] of view.highlights || []) {
    const p = geo.centerOf(label);
    if (!p) continue;
    const poly = el('polygon', { class: `hl hl-${info.type}`, points: geo.corners(p.x, p.y, 0.86), 'data-hex': label, 'data-type': info.type }, hl);
    const title = el('title', {}, poly);
    title.textContent = info.text || label;
    poly.addEventListener('click', (e) => { e.stopPropagation(); view.onHex && view.onHex(label); });
    if (info.badge) {
      const t = el('text', { class: 'hl-target-text', x: p.x, y: p.y + R * 0.72, 'text-anchor': 'middle' }, hl);
      t.textContent = info.badge;
    }
  }
}

// The legend: the terrains on this map, the sides' colours, counter letters.
// Built from text nodes: names come from scenario files, never as HTML.
export function legend(div, scenario, ruleset) {
  const used = new Set(['clear', ...Object.values(scenario.map.terrain || {})]);
  const item = (colour, text) => {
    const span = document.createElement('span');
    const i = document.createElement('i');
    i.style.background = colour;
    span.append(i, text);
    return span;
  };
  const items = [...used].map((t) => item(terrainColour(t, ruleset), t));
  scenario.sides.forEach((s, i) => items.push(item(SIDE_COLOURS[i % 2], s.id)));
  const note = document.createElement('span');
  note.textContent = 'counters: letter = kind (R regular, E elite, Lt light, M militia, D dragoon, A artillery), number = current MP; circle = leader; VP = victory-point marker' +
    (scenario.ruleset === 'hm' ? '; triangle at a counter\'s edge = its front (with the Facing rule)' : '');
  items.push(note);
  div.replaceChildren(...items);
}
