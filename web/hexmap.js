// hexmap.js - draws a scenario's hex map and the units of a STATE as SVG.
// Labels follow PROTOCOL.md: a column letter (A..Z, then AA, AB, ...) and a
// row number from 1 at the top. Pointy-topped hexes in rows, with the even
// or odd printed rows shifted half a hex right; flat-topped hexes in
// columns (the even or odd columns half a hex lower).

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

export function parseLabel(label) {
  const m = /^([A-Za-z]+)(\d+)$/.exec(label || '');
  if (!m) return null;
  let c = 0;
  for (const ch of m[1].toUpperCase()) c = c * 26 + (ch.charCodeAt(0) - 64);
  return { c: c - 1, r: Number(m[2]) - 1 };
}

export class Geometry {
  constructor(map) {
    this.flat = map.orientation === 'flat';
    this.shiftEven = (map.shifted || 'even') === 'even';
    this.cols = map.cols;
    this.rows = map.rows;
    this.w = Math.sqrt(3) * R;
  }
  shifted(n) { return ((n + 1) % 2 === 0) === this.shiftEven; }   // n: 0-based row/column
  center(c, r) {
    if (this.flat) {
      return { x: MARGIN + R + c * 1.5 * R, y: MARGIN + this.w / 2 + r * this.w + (this.shifted(c) ? this.w / 2 : 0) };
    }
    return { x: MARGIN + this.w / 2 + c * this.w + (this.shifted(r) ? this.w / 2 : 0), y: MARGIN + R + r * 1.5 * R };
  }
  centerOf(label) {
    const p = parseLabel(label);
    return p ? this.center(p.c, p.r) : null;
  }
  corners(x, y, scale = 1) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = ((this.flat ? 0 : 30) + 60 * i) * Math.PI / 180;
      pts.push(`${(x + R * scale * Math.cos(a)).toFixed(1)},${(y + R * scale * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(' ');
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

// Draws the map into svg. view: {scenario, state, selected, highlights:
// Map(label -> {type, text}), lastMove: {from, to}, onHex(label), onUnit(id)}.
export function draw(svg, view) {
  const sc = view.scenario;
  const geo = new Geometry(sc.map);
  const { w, h } = geo.size();
  svg.setAttribute('viewBox', `0 0 ${w.toFixed(0)} ${h.toFixed(0)}`);
  svg.replaceChildren();
  const terrain = sc.map.terrain || {};
  const hexes = el('g', { class: 'hexes' }, svg);
  for (let r = 0; r < geo.rows; r++) {
    for (let c = 0; c < geo.cols; c++) {
      const label = colLabel(c) + (r + 1);
      const t = terrain[label] || terrain[label.toLowerCase()] || 'clear';
      const { x, y } = geo.center(c, r);
      const poly = el('polygon', { class: 'hex', points: geo.corners(x, y), fill: terrainColour(t, view.ruleset), 'data-hex': label, 'data-terrain': t }, hexes);
      const title = el('title', {}, poly);
      title.textContent = `${label} ${t}`;
      poly.addEventListener('click', () => view.onHex && view.onHex(label));
      const tx = el('text', { class: 'hex-label', x: x, y: y - R * 0.62, 'text-anchor': 'middle' }, hexes);
      tx.textContent = label;
    }
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
      t.textContent = `${u.id}${u.name ? ' (' + u.name + ')' : ''}: ${u.side} ${u.kind}` + (u.kind !== 'leader' && u.kind !== 'vp' ? `, ${u.mp}/${u.mp_start} MP` : '') + (u.acted ? ', has acted' : '');
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
        el('rect', { class: 'body', x, y, width: s, height: s, rx: 2, fill: colour }, g);
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
  note.textContent = 'counters: letter = kind (R regular, E elite, Lt light, M militia, D dragoon, A artillery), number = current MP; circle = leader; VP = victory-point marker';
  items.push(note);
  div.replaceChildren(...items);
}
