// app.js - the musket web page: a game seen through the server's API, kept
// current by its live updates. The page never decides a rule: it shows what
// the state says and offers what /legal lists.
import * as api from './api.js';
import { Geometry, describeUnit, draw, elevationAt, formationTag, hexCentre, legend, terrainAt } from './hexmap.js';
import { append as appendLog } from './logview.js';
import { attackOf, hitChances, percent } from './odds.js';

const $ = (id) => document.getElementById(id);

const S = {
  id: null,
  tokens: {},        // side -> token, for the seats this browser plays
  invites: {},       // side -> token, seats to hand to others (creator only)
  spectator: null,
  readToken: null,   // any token of this game, to read with
  info: null,        // GET /api/games/ID: game, scenario
  rulesets: null,
  state: null,
  seq: -1,
  logSeq: 0,         // the last change shown in the log
  legal: [],
  legalFor: null,    // "seq:side" the legal list belongs to
  selected: null,    // unit id
  hexFilter: null,   // a hex whose actions the panel lists
  lastSide: null,
  lastMove: null,
  busy: false,
  replay: null,      // {start, steps, pos}
  es: null,
  zoom: null,        // map scale (px per SVG unit), null: the whole map in the page
  centreKey: null,   // the activation the map was last scrolled to
  legendFor: null,   // the game whose legend is shown
  commandNames: {},  // BAR: Command id -> name, read from the actions' text
};

// ---- tokens kept in this browser -------------------------------------------
const storeKey = (id) => `musket:game:${id}`;
function loadSaved(id) {
  try { return JSON.parse(localStorage.getItem(storeKey(id))) || {}; } catch { return {}; }
}
function save() {
  localStorage.setItem(storeKey(S.id), JSON.stringify({ tokens: S.tokens, invites: S.invites, spectator: S.spectator }));
}

const sides = () => (S.info ? S.info.scenario.sides.map((s) => s.id) : []);
const seatOf = (side) => (S.info ? S.info.game.seats.find((s) => s.side === side) : null);
const isAI = (side) => { const s = seatOf(side); return s && s.kind === 'ai'; };
const mine = (side) => Boolean(S.tokens[side]) && !isAI(side);
const myTurn = () => S.state && !S.state.over && mine(S.state.to_move);

function banner(text, cls = '') {
  const b = $('banner');
  b.hidden = !text;
  b.className = cls;
  b.textContent = text || '';
}

// ---- header ----------------------------------------------------------------
function header() {
  const st = S.replay ? currentReplayState() : S.state;
  if (!st) return;
  $('title').textContent = S.info.scenario.title || S.info.game.scenario;
  $('turn').textContent = `${st.turn}/${st.turns}`;
  $('active').textContent = st.active;
  $('tomove').textContent = st.over ? '-' : st.to_move + (isAI(st.to_move) ? ' (computer)' : '');
  // Chips for what this ruleset's STATE has (HtL and H&M: points and VP;
  // BAR: the time, light, End Turn track, active Command, army losses).
  const chip = (id, on, text) => { $(`chip-${id}`).hidden = !on; if (on) $(id).textContent = text; };
  chip('points', st.points != null, String(st.points));
  chip('vp', st.vp != null, Object.entries(st.vp || {}).map(([k, v]) => `${k} ${v}`).join(' · '));
  chip('time', typeof st.time === 'string', st.time);
  chip('light', typeof st.light === 'string', `${st.light}${st.heat ? ', heat' : ''}`);
  chip('endturn', st.end_turn_number != null, `${st.end_turn_marker ?? 0} / ${st.end_turn_number}`);
  const bar = st.ruleset === 'bar';
  const phase = (st.phase || '').replace(/_/g, ' ');
  chip('command', bar, st.command
    ? `${st.command}${S.commandNames[st.command] ? ' (' + S.commandNames[st.command] + ')' : ''} · ${phase}${st.in_command === false ? ' · out of command' : ''}`
    : st.over ? '-' : `${phase || '-'}`);
  chip('loss', st.army_loss != null, Object.entries(st.army_loss || {}).map(([k, v]) => `${k} ${v}`).join(' · '));
  if (st.sp_lost) $('chip-loss').title = `Army Loss Record (Monmouth 1.2a); SP lost: ${Object.entries(st.sp_lost).map(([k, v]) => `${k} ${v}`).join(', ')}`;
  const you = Object.keys(S.tokens).filter((s) => !isAI(s));
  $('you').textContent = you.length ? you.join(' + ') : 'spectator';
  // The end button ends what the rules let end now: HtL's and H&M's turn,
  // or BAR's segment ("next": End movement, End fire, End activation).
  const end = myTurn() ? endAction() : null;
  const btn = $('btn-end');
  btn.textContent = end ? endLabel(end) : bar ? 'End segment' : 'End turn';
  btn.title = end && end.text ? end.text : '';
  btn.dataset.type = end ? end.type : '';
  btn.classList.toggle('primary', Boolean(end) && end.type === 'next' && !S.busy && !S.replay);
  btn.disabled = !end || S.busy || Boolean(S.replay);
  $('btn-undo').disabled = !(st.undoable && myTurn() && (S.lastSide === null || S.lastSide === st.to_move)) || S.busy || Boolean(S.replay);
  $('btn-replay').hidden = !S.state.over || Boolean(S.replay);
}

function endAction() {
  return S.legal.find((a) => a.type === 'end_turn') || S.legal.find((a) => a.type === 'next') || null;
}

// "End movement: to the Fire Combat Segment" -> "End movement".
function endLabel(a) {
  if (a.type === 'end_turn') return 'End turn';
  return (a.text || 'Next').split(':')[0].replace(/^End the /, 'End ').trim();
}

// BAR's activate actions name the Command in their text: "Activate GD (Col
// Grayson's Command)" (with ", trying a Wing Activation ..." for the wing).
function learnCommand(a) {
  if (!a || a.type !== 'activate' || !a.command || !a.text) return;
  const head = `Activate ${a.command} (`;
  if (!a.text.startsWith(head)) return;
  const rest = a.text.slice(head.length).replace(/, trying a Wing Activation.*$/, '');
  S.commandNames[a.command] = rest.replace(/\)$/, '');
}

// ---- the map and the panels --------------------------------------------------
function unitActions(id) {
  return S.legal.filter((a) => a.unit === id || (a.type === 'rally' && a.leader === id));
}

// A decision in the middle of an action: every legal action is a `choose`
// (Hold the Line, Horse & Musket), or of the type the state's pending
// decision names (Monmouth: retreat_before_close_combat, opportunity_fire,
// countercharge, opportunity_charge, whose "no" has no unit to click).
function isDecision(st) {
  const kind = st && st.pending && st.pending.decision;
  return S.legal.length > 0 && S.legal.every((a) => a.type === 'choose' || (kind && a.type === kind));
}

function actionHex(a) {
  if ((a.type === 'move' || a.type === 'enter' || a.type === 'deploy') && Array.isArray(a.path) && a.path.length) return a.path[a.path.length - 1];
  if (a.type === 'fire' || a.type === 'close_combat') return a.target;
  if (a.type === 'choose' && /^[A-Za-z]+\d+$/.test(a.choice || '')) return a.choice;
  return null;
}

function highlights() {
  const hl = new Map();
  if (!myTurn() || S.replay) return hl;
  const decision = isDecision(S.state);
  const list = decision ? S.legal : S.selected ? unitActions(S.selected) : [];
  for (const a of list) {
    const h = actionHex(a);
    if (!h) continue;
    const prev = hl.get(h);
    // Fire and close combat outrank a move into the same hex in the colour.
    if (prev && (prev.type === 'fire' || prev.type === 'close_combat')) continue;
    const info = { type: a.type, text: a.text };
    const atk = attackOf(a);
    if (atk && (a.type === 'fire' || a.type === 'close_combat')) {
      const ch = hitChances(atk.need, atk.dice);
      info.badge = `≥1: ${percent(1 - ch[0])}`;
    }
    hl.set(h, info);
  }
  return hl;
}

function render() {
  if (!S.info) return;
  const st = S.replay ? currentReplayState() : S.state;
  if (!st) return;
  const actors = actorsNow(st);
  draw($('map'), {
    scenario: S.info.scenario,
    ruleset: rulesetOf(),
    state: st,
    selected: S.replay ? null : S.selected,
    highlights: highlights(),
    actors,
    lastMove: S.lastMove,
    onHex: clickHex,
    onUnit: clickUnit,
  });
  if (S.legendFor !== S.id) {
    legend($('legend'), S.info.scenario, rulesetOf());
    S.legendFor = S.id;
  }
  applyZoom();
  header();
  panels();
  followActivation(st, actors);
}

// BAR activates one Command at a time: its pieces that may act now (any
// legal action names them) get an outline. Other rulesets let every unit
// act, so nothing is marked there.
function actorsNow(st) {
  const out = new Set();
  if (S.replay || !myTurn() || st.ruleset !== 'bar') return out;
  for (const a of S.legal) if (a.unit && a.type !== 'enter') out.add(a.unit);
  return out;
}

// ---- zoom and scrolling (a 78 x 51 map does not fit a screen) -------------------
function mapScale() {
  const svg = $('map');
  const vb = svg.viewBox.baseVal;
  return vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
}

function applyZoom() {
  const svg = $('map'), wrap = $('map-wrap');
  const vb = svg.viewBox.baseVal;
  if (S.zoom == null || !vb || !vb.width) {
    svg.style.width = svg.style.height = '';
    wrap.classList.remove('zoomed');
    $('zoom-level').textContent = 'whole map';
    return;
  }
  svg.style.width = `${Math.round(vb.width * S.zoom)}px`;
  svg.style.height = `${Math.round(vb.height * S.zoom)}px`;
  wrap.classList.add('zoomed');
  $('zoom-level').textContent = `${Math.round(S.zoom * 100)}%`;
}

function setZoom(z) {
  const wrap = $('map-wrap');
  const old = mapScale();
  // Keep the point at the middle of the view where it is.
  const cx = (wrap.scrollLeft + wrap.clientWidth / 2) / old, cy = (wrap.scrollTop + wrap.clientHeight / 2) / old;
  S.zoom = z == null ? null : Math.max(0.2, Math.min(3, z));
  applyZoom();
  const now = mapScale();
  wrap.scrollLeft = cx * now - wrap.clientWidth / 2;
  wrap.scrollTop = cy * now - wrap.clientHeight / 2;
}

// Scrolls the map so that these hexes are in the middle of the view: the
// middle of them all where they fit in it, else their median (pieces far
// from the rest do not pull the view into empty ground).
function centreOn(labels) {
  const pts = labels.map((l) => hexCentre(S.info.scenario, l)).filter(Boolean);
  if (!pts.length) return;
  const xs = pts.map((p) => p.x).sort((a, b) => a - b), ys = pts.map((p) => p.y).sort((a, b) => a - b);
  const k = mapScale(), wrap = $('map-wrap');
  const fits = (xs[xs.length - 1] - xs[0]) * k < wrap.clientWidth * 0.9 && (ys[ys.length - 1] - ys[0]) * k < wrap.clientHeight * 0.9;
  const mid = (v) => (fits ? (v[0] + v[v.length - 1]) / 2 : v[Math.floor(v.length / 2)]);
  wrap.scrollLeft = mid(xs) * k - wrap.clientWidth / 2;
  wrap.scrollTop = mid(ys) * k - wrap.clientHeight / 2;
}

// On a map bigger than the view: once to our pieces when the game opens,
// then to the pieces that may act each time one of our activations (or
// turns) begins.
function followActivation(st, actors) {
  if (S.zoom == null || S.replay || !st) return;
  const placed = (ids) => st.units.filter((u) => u.hex && ids(u)).map((u) => u.hex);
  if (actors.size || (myTurn() && st.ruleset !== 'bar' && S.legal.length)) {
    const key = `${st.turn}|${st.active}|${st.command || ''}`;
    if (key === S.centreKey) return;
    S.centreKey = key;
    centreOn(placed((u) => (actors.size ? actors.has(u.id) : S.legal.some((a) => a.unit === u.id))));
  } else if (S.centreKey === null) {
    S.centreKey = 'open';
    const mineNow = Object.keys(S.tokens).filter((x) => !isAI(x));
    centreOn(placed((u) => (mineNow.length ? mineNow.includes(u.side) : u.side === st.to_move)));
  }
}

function rulesetOf() {
  if (!S.rulesets || !S.state) return null;
  return S.rulesets.find((r) => r.id === S.state.ruleset) || null;
}

function oddsBar(a) {
  const atk = attackOf(a);
  if (!atk || (a.type !== 'fire' && a.type !== 'close_combat')) return null;
  const ch = hitChances(atk.need, atk.dice);
  const bar = document.createElement('div');
  bar.className = 'odds';
  bar.title = `${atk.dice} dice, each hits on ${atk.need}+ (terrain counted)`;
  ch.forEach((p, k) => {
    const s = document.createElement('span');
    const b = document.createElement('b');
    b.textContent = `${k} hit${k === 1 ? '' : 's'}`;
    s.append(b, percent(p));
    bar.append(s);
  });
  return bar;
}

function actionButton(a) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.textContent = a.text || a.type;
  b.dataset.type = a.type;
  b.disabled = S.busy;
  b.addEventListener('click', () => play(a));
  li.append(b);
  const bar = oddsBar(a);
  if (bar) li.append(bar);
  return li;
}

function panels() {
  const st = S.state;
  // A decision in the middle of an action.
  const decision = myTurn() && !S.replay && isDecision(st);
  $('decision').hidden = !decision;
  if (decision) {
    const p = st.pending || {};
    $('decision-what').textContent = p.decision
      ? `${p.decision.replace(/_/g, ' ')}${p.result ? ': ' + p.result.replace(/_/g, ' ') : ''}${p.unit ? ' for ' + p.unit : ''}${p.attacker ? ' against ' + p.attacker : ''}${p.hex ? ' at ' + p.hex : ''}${p.hits_left ? `, ${p.hits_left} hit(s) to take` : ''}`
      : 'Choose one:';
    const box = $('decision-choices');
    box.replaceChildren(...S.legal.map((a) => {
      const b = document.createElement('button');
      b.textContent = a.text || String(a.choice ?? a.type);
      if (a.choice !== undefined) b.dataset.choice = a.choice;
      b.dataset.type = a.type;
      b.disabled = S.busy;
      b.addEventListener('click', () => play(a));
      return b;
    }));
  }
  // BAR: the Commands the side may activate, one button each (and one for
  // the Wing Activation where the rules offer it).
  const activations = myTurn() && !S.replay ? S.legal.filter((a) => a.type === 'activate') : [];
  $('commands').hidden = activations.length === 0;
  if (!activations.length) $('command-list').replaceChildren();
  else {
    const rows = new Map();
    for (const a of activations) {
      if (!rows.has(a.command)) rows.set(a.command, {});
      rows.get(a.command)[a.wing ? 'wing' : 'plain'] = a;
    }
    $('command-list').replaceChildren(...[...rows].map(([cmd, v]) => {
      const row = document.createElement('div');
      row.className = 'cmd-row';
      for (const a of [v.plain, v.wing]) {
        if (!a) continue;
        const b = document.createElement('button');
        b.dataset.type = 'activate';
        b.dataset.command = cmd;
        if (a.wing) b.dataset.wing = 'true';
        b.textContent = a.wing ? '+ Wing' : `${cmd}: ${S.commandNames[cmd] || cmd}`;
        b.title = a.text || '';
        b.disabled = S.busy;
        b.addEventListener('click', () => play(a));
        row.append(b);
      }
      return row;
    }));
  }
  // The selected unit and what it may do.
  const panel = $('unit-panel');
  const u = S.selected && st ? st.units.find((x) => x.id === S.selected) : null;
  panel.hidden = !u || Boolean(S.replay);
  if (u) {
    $('unit-title').textContent = `${u.id}${u.name ? ' - ' + u.name : ''}`;
    let where = 'off map';
    if (u.hex) {
      const lv = elevationAt(S.info.scenario, u.hex);
      where = `in ${u.hex} (${terrainAt(S.info.scenario, u.hex)}${lv ? ', level ' + lv : ''})`;
    } else if (u.arrives) {
      where = `arrives ${u.arrives} at ${u.entry || '?'}`;
    }
    $('unit-info').textContent = `${describeUnit(u)}, ${where}`;
    // The other pieces in its hex (a BAR stack), to pick from.
    const here = u.hex ? st.units.filter((x) => x.hex === u.hex && x.kind !== 'vp') : [];
    const stack = $('stack-list');
    stack.hidden = here.length < 2;
    stack.replaceChildren(...(here.length < 2 ? [] : [document.createTextNode('In this hex:'), ...here.map((x) => {
      const b = document.createElement('button');
      b.textContent = x.kind === 'leader' ? `${x.id} (leader)` : `${x.id}${typeof x.sp === 'number' ? ` ${x.sp} SP` : ''}${x.formation ? ' ' + formationTag(x.formation) : ''}`;
      b.dataset.unit = x.id;
      if (x.id === u.id) b.className = 'current';
      b.addEventListener('click', () => { S.selected = x.id; S.hexFilter = null; render(); });
      return b;
    })]));
    let acts = myTurn() ? unitActions(u.id) : [];
    if (S.hexFilter) {
      const f = acts.filter((a) => actionHex(a) === S.hexFilter);
      if (f.length) acts = f;
    }
    const ul = document.createElement('ul');
    ul.className = 'act-list';
    ul.append(...acts.map(actionButton));
    const box = $('unit-actions');
    box.dataset.filter = S.hexFilter || '';
    box.replaceChildren(acts.length ? ul : document.createTextNode(myTurn() ? 'No action for this unit now.' : 'Not your decision now.'));
  }
  reinforcements(st);
  // Invite links (this browser created the game).
  const inv = Object.entries(S.invites);
  $('invites').hidden = inv.length === 0 && !S.spectator;
  const ul = $('invite-list');
  const items = inv.map(([side, tok]) => [`${side}`, tok]);
  if (S.spectator) items.push(['spectator (watch only)', S.spectator]);
  ul.replaceChildren(...items.map(([what, tok]) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `${location.origin}/?game=${S.id}&token=${tok}`;
    a.textContent = a.href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    li.append(`${what}: `, a);
    return li;
  }));
  // Whose move.
  if (S.replay) return;
  if (st && st.over) {
    const r = st.result || {};
    banner(`Game over: ${r.winner ? r.winner + ' wins' : 'no winner'}${r.level ? ' (' + r.level + ')' : ''}. ${r.reason || ''}`, 'over');
  } else if (st && !myTurn()) {
    banner(`Waiting for ${st.to_move}${isAI(st.to_move) ? ' (the computer is thinking)' : ''}…`);
  } else if (st && decision) {
    banner('');
  } else if (st && activations.length) {
    banner(`Your move (${st.to_move}): activate a Command (the list on the right).`);
  } else if (st && st.ruleset === 'bar') {
    const end = endAction();
    const hint = {
      movement: 'click a unit with a green outline, then a green hex to move it one hex; facing and formation are in its list',
      fire: 'click a unit, then an orange hex to fire at it',
      close_combat: 'click a unit, then a purple hex to attack it',
    }[st.phase] || 'click one of your units';
    banner(`Your move (${st.to_move}, ${st.command || ''}): ${hint}${end ? `; then "${endLabel(end)}"` : ''}.`);
  } else if (st) {
    banner(`Your move (${st.to_move}): click one of your units.`);
  }
}

// Pieces not yet on the map (BAR reinforcements, STATE "arrives" and
// "entry"), by time and entry hex; those that may enter now are buttons.
function reinforcements(st) {
  const waiting = st && !S.replay ? st.units.filter((u) => !u.hex && u.arrives && !u.eliminated) : [];
  $('reinforcements').hidden = waiting.length === 0;
  if (!waiting.length) return;
  const groups = new Map();
  for (const u of waiting) {
    const k = `${u.arrives}|${u.side}|${u.entry || '?'}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(u);
  }
  $('reinf-list').replaceChildren(...[...groups].map(([k, list]) => {
    const [time, side, entry] = k.split('|');
    const li = document.createElement('li');
    const b = document.createElement('b');
    b.textContent = time;
    li.append(b, `, ${side} at ${entry}: `);
    list.forEach((u, i) => {
      const label = `${u.id}${typeof u.sp === 'number' ? ` (${u.sp} SP)` : u.kind === 'leader' ? ' (leader)' : ''}`;
      if (i) li.append(', ');
      if (myTurn() && unitActions(u.id).length) {
        const btn = document.createElement('button');
        btn.textContent = label;
        btn.dataset.unit = u.id;
        btn.title = 'may enter now: select it';
        btn.addEventListener('click', () => { S.selected = u.id; S.hexFilter = null; render(); });
        li.append(btn);
      } else {
        li.append(label);
      }
    });
    return li;
  }));
}

// ---- input -------------------------------------------------------------------
function clickUnit(id, hex) {
  if (S.replay) return;
  const u = S.state.units.find((x) => x.id === id);
  // With one of ours selected, a click on an enemy (or a highlighted hex's
  // unit) means its hex.
  if (S.selected && u && u.side !== S.state.to_move) return clickHex(hex);
  if (S.selected && highlights().has(hex) && S.selected !== id) return clickHex(hex);
  S.selected = S.selected === id ? null : id;
  S.hexFilter = null;
  render();
}

function clickHex(label) {
  if (S.replay || !myTurn()) return;
  const decision = isDecision(S.state);
  const list = decision ? S.legal : S.selected ? unitActions(S.selected) : [];
  const here = list.filter((a) => actionHex(a) === label);
  if (here.length === 1) return play(here[0]);
  if (here.length > 1) {
    S.hexFilter = label;      // let the panel list the choices for this hex
    render();
    return;
  }
  // A click elsewhere: select the unit there, if it is ours, else clear.
  // (a two-hex unit, bar 2.1a/2.1c, is in its hex2 too)
  const ours = S.state.units.find((u) => (u.hex === label || u.hex2 === label) && u.side === S.state.to_move && u.kind !== 'vp' && unitActions(u.id).length);
  S.selected = ours ? ours.id : null;
  S.hexFilter = null;
  render();
}

async function play(action) {
  if (S.busy) return;
  const side = S.state.to_move;
  S.busy = true;
  render();
  const { text, cost, ...bare } = action;
  const ans = await api.act(S.id, S.tokens[side], bare);
  S.busy = false;
  if (!ans.ok) {
    banner(`Refused: ${ans.error.message}`, 'error');
    await refreshLegal(true);
    return;
  }
  if (action.type === 'move') S.lastMove = { from: S.state.units.find((u) => u.id === action.unit)?.hex };
  S.lastSide = side;
  if (ans.seq > S.seq) {
    // The live update brings the log; the state can be shown at once.
    S.state = ans.state;
  }
  S.hexFilter = null;
  const u = S.state.units.find((x) => x.id === S.selected);
  if (!u || !u.hex) S.selected = null;
  await refreshLegal(true);
}

async function refreshLegal(force = false) {
  const st = S.state;
  if (!st || st.over || !mine(st.to_move)) {
    S.legal = [];
    S.legalFor = null;
    render();
    return;
  }
  const key = `${st.hash}:${st.to_move}`;
  if (!force && S.legalFor === key) { render(); return; }
  const ans = await api.legal(S.id, S.tokens[st.to_move]);
  if (ans.ok) {
    S.legal = ans.actions;
    S.legalFor = key;
    S.legal.forEach(learnCommand);
  }
  if (S.selected && !unitActions(S.selected).length && !S.state.units.find((u) => u.id === S.selected && u.side === st.to_move)) S.selected = null;
  render();
}

// The log shows every change once, in order: an update that skips ahead
// (the page connected late, or the connection dropped) first fetches the
// ones it missed from /log.
let logQueue = Promise.resolve();
function catchUp(upTo) {
  logQueue = logQueue.then(async () => {
    if (S.logSeq >= upTo || S.replay) return;
    const ans = await api.log(S.id, S.readToken, S.logSeq);
    if (!ans.ok) return;
    for (const row of ans.log) {
      if (row.seq <= S.logSeq) continue;
      learnCommand(row.action);
      // The stored log does not say who chose; a computer seat's side did.
      appendLog($('log'), { by: isAI(row.side) ? 'ai' : 'human', ...row }, sides());
      S.logSeq = row.seq;
    }
  });
  return logQueue;
}

// Live updates. A browser gives one server only about six connections
// (HTTP/1.1), and each open stream keeps one: with several tabs of games
// open, the next tab's requests would wait for ever (Firefox showed it).
// So a page keeps its stream only while its game is on (a finished game has
// nothing more to say) and lets it go after a minute hidden (a background
// tab); shown again, it catches up (a snapshot, then /log).
function connect() {
  if (S.es) { S.es.close(); S.es = null; }
  if (!S.id || !S.readToken || (S.state && S.state.over) || document.hidden) return;
  S.es = api.watch(S.id, S.readToken, onUpdate, () => {});
}

function onUpdate(up) {
  if (up.state && up.state.over && S.es) { S.es.close(); S.es = null; }
  if (up.kind === 'snapshot') {
    S.state = up.state;
    S.seq = up.seq;
    catchUp(up.seq);
    refreshLegal(true);
    return;
  }
  if (up.seq <= S.seq) return;
  S.seq = up.seq;
  learnCommand(up.action);
  if (up.seq === S.logSeq + 1 && !S.replay) {
    appendLog($('log'), up, sides());
    S.logSeq = up.seq;
  } else {
    catchUp(up.seq);
  }
  S.state = up.state;
  S.lastSide = up.kind === 'undo' ? null : up.side;
  if (up.action && up.action.type === 'move' && up.by === 'ai') S.lastMove = null;
  refreshLegal(true);
}

// ---- the replay viewer ----------------------------------------------------------
function currentReplayState() {
  const r = S.replay;
  return r.pos === 0 ? r.start : r.steps[r.pos - 1].state;
}

function replayShow() {
  const r = S.replay;
  $('rp-slider').max = r.steps.length;
  $('rp-slider').value = r.pos;
  $('rp-pos').textContent = `action ${r.pos} of ${r.steps.length}`;
  const ol = $('log');
  ol.replaceChildren();
  const from = Math.max(0, r.pos - 12);
  for (let i = from; i < r.pos; i++) {
    const st = r.steps[i];
    const prev = i === 0 ? r.start : r.steps[i - 1].state;
    appendLog(ol, { kind: 'act', side: prev.to_move, action: st.action, events: st.events }, sides());
  }
  const st = currentReplayState();
  banner(`Replay: turn ${st.turn}, ${st.active} active.`, '');
  render();
}

async function openReplay() {
  const ans = await api.replay(S.id, S.readToken);
  if (!ans.ok) { banner(ans.error.message, 'error'); return; }
  S.replay = { start: ans.start, steps: ans.steps, pos: 0 };
  $('replay-bar').hidden = false;
  replayShow();
}

async function closeReplay() {
  S.replay = null;
  $('replay-bar').hidden = true;
  $('log').replaceChildren();
  await loadLog();
  render();
}

function replayStep(to) {
  const r = S.replay;
  r.pos = Math.max(0, Math.min(r.steps.length, to));
  replayShow();
}

// ---- the new-game dialog ----------------------------------------------------------
let catalog = null;

async function openNewGame() {
  if (!catalog) {
    catalog = await api.scenarios();
    if (!catalog.ok) { banner(catalog.error.message, 'error'); catalog = null; return; }
    S.rulesets = catalog.rulesets;
    const sel = $('nd-scenario');
    sel.replaceChildren(...catalog.scenarios.filter((s) => s.sides).map((s) => {
      const o = document.createElement('option');
      o.value = s.id;
      o.textContent = `${s.title} (${s.id})`;
      return o;
    }));
    const tut = catalog.scenarios.find((s) => s.id.endsWith('/tutorial'));
    if (tut) sel.value = tut.id;
    sel.addEventListener('change', fillNewGame);
  }
  fillNewGame();
  $('nd-error').textContent = '';
  $('new-dialog').showModal();
}

function fillNewGame() {
  const sc = catalog.scenarios.find((s) => s.id === $('nd-scenario').value);
  if (!sc) return;
  const seats = $('nd-seats');
  seats.replaceChildren(seats.querySelector('legend') || document.createElement('legend'));
  sc.sides.forEach((side, i) => {
    const row = document.createElement('div');
    row.className = 'seat-row';
    const name = document.createElement('b');
    name.textContent = side + (side === sc.first ? ' (moves first)' : '');
    const kind = document.createElement('select');
    kind.name = `seat-${side}`;
    kind.dataset.side = side;
    for (const [v, t] of [['here', 'You, in this browser'], ['invite', 'A friend (invite link)'], ['ai', 'Computer']]) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = t;
      kind.append(o);
    }
    kind.value = i === 0 ? 'here' : 'ai';
    const engine = document.createElement('select');
    engine.name = `engine-${side}`;
    for (const e of catalog.ai_engines || ['random']) {
      const o = document.createElement('option');
      o.value = e;
      o.textContent = e;
      engine.append(o);
    }
    engine.value = (catalog.ai_engines || []).includes('mcts') ? 'mcts' : 'random';
    const diff = document.createElement('select');
    diff.name = `difficulty-${side}`;
    for (const d of ['easy', 'normal', 'hard']) {
      const o = document.createElement('option');
      o.value = d;
      o.textContent = d;
      diff.append(o);
    }
    diff.value = 'easy';
    const sync = () => { engine.hidden = diff.hidden = kind.value !== 'ai'; diff.hidden = kind.value !== 'ai' || engine.value !== 'mcts'; };
    kind.addEventListener('change', sync);
    engine.addEventListener('change', sync);
    sync();
    row.append(name, kind, engine, diff);
    seats.append(row);
  });
  const rs = S.rulesets.find((r) => r.id === sc.ruleset);
  const opts = $('nd-options');
  opts.replaceChildren(opts.querySelector('legend') || document.createElement('legend'));
  for (const o of rs ? rs.options : []) {
    const l = document.createElement('label');
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.name = `opt-${o.id}`;
    c.dataset.option = o.id;
    l.append(c, `${o.id}: ${o.title}`);
    opts.append(l);
  }
}

async function startNewGame(ev) {
  ev.preventDefault();
  const sc = catalog.scenarios.find((s) => s.id === $('nd-scenario').value);
  const seats = {};
  const here = [], invite = [];
  for (const side of sc.sides) {
    const kind = document.querySelector(`select[name="seat-${side}"]`).value;
    if (kind === 'ai') {
      const engine = document.querySelector(`select[name="engine-${side}"]`).value;
      seats[side] = { ai: engine };
      if (engine === 'mcts') seats[side].difficulty = document.querySelector(`select[name="difficulty-${side}"]`).value;
    } else {
      seats[side] = 'human';
      (kind === 'here' ? here : invite).push(side);
    }
  }
  const options = {};
  for (const c of document.querySelectorAll('#nd-options input[data-option]')) if (c.checked) options[c.dataset.option] = true;
  const req = { scenario: sc.id, options, seats };
  const seed = $('nd-seed').value.trim();
  if (seed) req.seed = Number(seed);
  const ans = await api.createGame(req);
  if (!ans.ok) { $('nd-error').textContent = ans.error.message; return; }
  const tokens = {}, invites = {};
  for (const s of ans.seats) {
    if (here.includes(s.side)) tokens[s.side] = s.token;
    if (invite.includes(s.side)) invites[s.side] = s.token;
  }
  localStorage.setItem(storeKey(ans.game), JSON.stringify({ tokens, invites, spectator: ans.spectator }));
  $('new-dialog').close();
  const first = Object.values(tokens)[0] || ans.spectator;
  history.pushState(null, '', `/?game=${ans.game}&token=${first}`);
  await openGame(ans.game, first);
}

// ---- opening a game ------------------------------------------------------------------
async function loadLog() {
  S.logSeq = 0;
  await catchUp(Infinity);
}

async function openGame(id, token) {
  if (S.es) { S.es.close(); S.es = null; }
  Object.assign(S, { id, tokens: {}, invites: {}, spectator: null, readToken: token, info: null, state: null, seq: -1, logSeq: 0, legal: [], legalFor: null, selected: null, hexFilter: null, replay: null, lastSide: null, lastMove: null, centreKey: null, legendFor: null, commandNames: {} });
  $('log').replaceChildren();
  $('replay-bar').hidden = true;
  const saved = loadSaved(id);
  S.tokens = saved.tokens || {};
  S.invites = saved.invites || {};
  S.spectator = saved.spectator || null;
  const info = await api.info(id, token);
  if (!info.ok) { banner(`Cannot open game ${id}: ${info.error.message}`, 'error'); return; }
  S.info = info;
  // A big map (BAR's 78 x 51) opens at a readable scale, scrolled; a small
  // one fits the page.
  const geo = new Geometry(info.scenario.map);
  S.zoom = geo.cols * geo.rows > 900 ? 0.9 : null;
  if (info.you !== 'spectator' && !S.tokens[info.you]) S.tokens[info.you] = token;
  delete S.invites[info.you];
  save();
  if (!S.rulesets) {
    const c = await api.scenarios();
    if (c.ok) { S.rulesets = c.rulesets; catalog = catalog || null; }
  }
  const st = await api.state(id, token);
  if (!st.ok) { banner(st.error.message, 'error'); return; }
  await loadLog();
  S.state = st.state;
  S.seq = Math.max(S.seq, st.seq);
  connect();
  await refreshLegal(true);
}

// ---- start --------------------------------------------------------------------------------
function init() {
  $('btn-new').addEventListener('click', openNewGame);
  $('btn-end').addEventListener('click', () => {
    const a = myTurn() ? endAction() : null;
    if (a) play(a);
  });
  $('zoom-in').addEventListener('click', () => setZoom((S.zoom ?? mapScale()) * 1.25));
  $('zoom-out').addEventListener('click', () => setZoom((S.zoom ?? mapScale()) / 1.25));
  $('zoom-fit').addEventListener('click', () => setZoom(null));
  $('btn-undo').addEventListener('click', async () => {
    const side = S.state.to_move;
    S.busy = true;
    const ans = await api.undo(S.id, S.tokens[side]);
    S.busy = false;
    if (!ans.ok) banner(`Refused: ${ans.error.message}`, 'error');
    else { S.state = ans.state; S.selected = null; }
    await refreshLegal(true);
  });
  $('btn-replay').addEventListener('click', openReplay);
  $('rp-first').addEventListener('click', () => replayStep(0));
  $('rp-prev').addEventListener('click', () => replayStep(S.replay.pos - 1));
  $('rp-next').addEventListener('click', () => replayStep(S.replay.pos + 1));
  $('rp-last').addEventListener('click', () => replayStep(S.replay.steps.length));
  $('rp-slider').addEventListener('input', (e) => replayStep(Number(e.target.value)));
  $('rp-close').addEventListener('click', closeReplay);
  $('new-form').addEventListener('submit', (e) => {
    if (e.submitter && e.submitter.value === 'cancel') return;
    startNewGame(e);
  });
  document.addEventListener('keydown', (e) => {
    if (!S.replay) return;
    if (e.key === 'ArrowRight') replayStep(S.replay.pos + 1);
    if (e.key === 'ArrowLeft') replayStep(S.replay.pos - 1);
  });
  window.addEventListener('popstate', () => location.reload());
  let hidden = null;
  document.addEventListener('visibilitychange', () => {
    clearTimeout(hidden);
    if (document.hidden) hidden = setTimeout(() => { if (document.hidden && S.es) { S.es.close(); S.es = null; } }, 60000);
    else if (!S.es) connect();
  });
  const q = new URLSearchParams(location.search);
  const id = q.get('game'), token = q.get('token');
  if (id && token) {
    openGame(id, token).then(() => { if (q.get('replay') && S.state && S.state.over) openReplay(); });
  } else {
    banner('Start a new game: choose a scenario and who plays each side.');
    openNewGame();
  }
}

init();
