// logview.js - the event log: every action, and under it every roll with its
// dice, each modifier and the rule that decided it (PROTOCOL.md, EVENT).
// Text only (textContent): nothing from the server is read as HTML.

const sign = (v) => (v > 0 ? `+${v}` : `${v}`);
const hitsWord = (n) => `${n} hit${n === 1 ? '' : 's'}`;

const words = (w) => String(w).replace(/_/g, ' ');

// A roll of one die read against a number (BAR's d10 and d100 rolls: the
// event's `value` is the roll, `values` any re-roll, `need` the number it
// is read against, `text` the chart's result).
function singleRoll(e, who, at) {
  const what = words(e.purpose || 'roll');
  let text = `${who ? who + ' ' : ''}${what}${at}: d${e.die} ${e.value}`;
  if (e.values && e.values.length) text += `, re-rolled ${e.values.join(', ')}`;
  if (e.purpose === 'end_turn') {
    // Monmouth 1.2d: the turn ends on a roll under the number.
    text += `, ends the turn under ${e.need}${e.points != null ? ` (marker ${e.points})` : ''}`;
    return text + (e.passed ? ' → the turn ends' : ' → the turn goes on');
  }
  if (e.purpose === 'fire' && e.points != null) text += `, strength ${e.points}`;
  else if (e.purpose === 'close_combat' && e.points != null) text += `, difference ${e.points >= 0 ? '+' : ''}${e.points}`;
  else if (e.purpose === 'army_morale' && e.points != null) text += `, ${e.points} loss boxes`;
  if (e.need != null) text += e.purpose === 'initiative' ? `, Initiative ${e.need}` : e.purpose === 'army_morale' ? `, modifier ${e.need}` : ` against ${e.need}`;
  if (e.text && e.text !== 'pass' && e.text !== 'fail') text += e.purpose === 'fire' ? `, column ${e.text}` : `: ${words(e.text)}`;
  if (e.hits != null) text += ` → ${e.hits} SP lost`;
  if (e.passed != null) text += e.passed ? ' → passed' : ' → failed';
  return text;
}

// One event as {text, mods: ["-1 target in forest (HtL 2.3.5)"], rule}.
// Events of a type it does not know are listed field by field.
export function describe(e) {
  const who = e.unit || '';
  const at = e.target ? ` at ${e.target}` : e.hex ? ` in ${e.hex}` : '';
  const dice = e.values && e.values.length ? ` d${e.die || 6}: [${e.values.join(', ')}]` : '';
  let text;
  switch (e.type) {
    case 'roll': {
      if (e.value != null && e.die && (!(e.values && e.values.length) || e.die === 100)) {
        text = singleRoll(e, who, at);
        break;
      }
      const what = (e.purpose || 'roll').replace(/_/g, ' ');
      text = `${who ? who + ' ' : ''}${what}${at}:${dice}`;
      if (e.need != null) text += `, needs ${e.need}+ each`;
      if (e.value != null) text += `, total ${e.value}`;
      if (e.hits != null) text += ` → ${hitsWord(e.hits)}`;
      if (e.points != null) text += ` → ${e.points} points`;
      if (e.passed != null) text += e.passed ? ' → passed' : ' → failed';
      if (e.text) text += ` (${words(e.text)})`;
      break;
    }
    // BAR (Monmouth): activation, movement, losses and the turn's end.
    case 'activate':
      if (!e.text) return fields(e, dice);
      text = `${e.side ? e.side + ' ' : ''}activates Command ${e.text}`;
      break;
    case 'in_command':
      text = `${who} is within the Army Leader's Command Range: in command`;
      break;
    case 'out_of_command':
      text = `${e.side ? e.side + ': ' : ''}no Command Leader on the map: out of command`;
      break;
    case 'first_activation':
      text = `${e.side} activates first this turn${e.values && e.values.length ? ` (rolls ${e.values.join(' and ')})` : ''}`;
      break;
    case 'move':
      if (!e.from || !e.to) return fields(e, dice);
      text = `${who}${e.other ? ' with ' + e.other : ''} moves ${e.from} → ${e.to}`;
      break;
    case 'formation':
      text = `${who} forms ${words(e.text || '?')}`;
      break;
    case 'face':   // bar 1.2h B: a facing change in place
      text = `${who} turns ${words(e.text || '?')}`;
      break;
    case 'wheel':   // bar 2.1a: a two-hex Line wheels, one end swinging from → to
      text = `${who} wheels, an end swinging ${e.from || '?'} → ${e.to || '?'}`;
      break;
    case 'charge':
      text = `${who} charges${e.from ? ' ' + e.from : ''} → ${e.to || e.target || '?'}`;
      break;
    case 'deploy':   // bar: the option bar.deploy (Monmouth 7.xb B)
      if (!e.from || !e.to) return fields(e, dice);
      text = `${who} deploys ${e.from} → ${e.to}`;
      break;
    case 'enter':
      text = `${who} enters the map at ${e.hex || e.to || '?'}`;
      break;
    case 'zoc':
      text = `${who} stops: it entered an enemy's front hex`;
      break;
    case 'loss':
      text = `${who} loses ${e.hits ?? '?'} SP`;
      break;
    case 'rout':
      text = `${who} routs${e.from ? ' from ' + e.from : ''}`;
      break;
    case 'rout_retreat':
      text = `${who} rout retreat ${e.from || '?'} → ${e.to || '?'}`;
      break;
    case 'returns':
      text = `${who} returns to the map at ${e.hex || '?'}`;
      break;
    case 'special':
      text = `${who ? who + ': ' : ''}special result ${words(e.text || '')}`;
      break;
    case 'close_combat':
      text = `${who} attacks ${e.target || '?'} in close combat${e.other ? ` (defender ${e.other})` : ''}${e.text ? ': ' + words(e.text) : ''}`;
      break;
    case 'advance':
      text = `${who} advances ${e.from ? e.from + ' ' : ''}→ ${e.to || '?'}`;
      break;
    case 'decline':   // a decision answered no: an advance, a re-roll, an opportunity fire held, ...
      text = `${who ? who + ' ' : e.side ? e.side + ' ' : ''}does not ${words(e.text || 'act')}` +
        `${e.other ? ' against ' + e.other : ''}${e.hex ? ' (at ' + e.hex + ')' : ''}`;
      break;
    case 'declare':   // BAR: a close combat or charge waits for the other side's decision
      text = `${who} declares ${words(e.text || 'close_combat')}${e.target ? ' against ' + e.target : ''}: the other side decides first`;
      break;
    case 'end':       // BAR: a segment, the activation or the deployment ended by its side
      text = `${e.side ? e.side + ': ' : ''}end of the ${words(e.text || 'segment')}`;
      break;
    case 'displacement':   // H&M 8: a retreat waits for its owner's choice (other: the unit making room)
      text = `${who} retreats${e.to ? ' to ' + e.to : ''}${e.other ? ', ' + e.other + ' makes room' : ''}: ` +
        `${words(e.text || 'displacement')}`;
      break;
    case 'reaction':       // H&M 8: a defender announces withdraw, defensive fire or countercharge
      text = `${who} reacts: ${words(e.text || 'reaction')}${e.other ? ' (attacked by ' + e.other + ')' : ''}`;
      break;
    case 'turn_end':
      text = 'The turn ends';
      break;
    case 'game_over':
      text = `Game over${e.side ? `: ${e.side} wins` : ''}`;
      break;
    case 'morale':
      text = `${who} morale check:${dice}${e.value != null ? ` (${e.value})` : ''}${e.need != null ? `, needs ${e.need}` : ''} → ${e.passed ? 'passed' : 'failed'}`;
      break;
    case 'hit':
      text = `${who} takes a hit${e.mp != null ? `: ${e.mp} MP left` : ''}`;
      break;
    case 'eliminated':
      text = `${who} is eliminated`;
      break;
    case 'retreat':
      text = `${who} retreats ${e.from || '?'} → ${e.to || '?'}`;
      break;
    case 'leader_casualty':
      text = `${who} leader casualty check:${dice} → ${e.passed === false || e.eliminated ? 'lost' : 'safe'}`;
      break;
    default:
      return fields(e, dice);
  }
  return withMods(e, text);
}

function withMods(e, text) {
  const mods = (e.mods || []).map((m) => `${sign(m.value)} ${m.why}`);
  return { text, mods, rule: e.rule || '' };
}

// Any event, field by field (types and purposes this page does not know).
function fields(e, dice) {
  const bits = [];
  for (const k of ['unit', 'other', 'side', 'hex', 'from', 'to', 'target', 'purpose', 'value', 'need', 'hits', 'mp', 'points', 'text'])
    if (e[k] != null && e[k] !== '') bits.push(`${k} ${e[k]}`);
  if (e.passed != null) bits.push(e.passed ? 'passed' : 'failed');
  return withMods(e, `${words(e.type || 'event')}${bits.length ? ': ' + bits.join(', ') : ''}${dice}`);
}

function li(cls, ...parts) {
  const item = document.createElement('li');
  item.className = cls;
  for (const p of parts) {
    if (!p) continue;
    if (typeof p === 'string') item.append(p);
    else item.append(p);
  }
  return item;
}

function span(cls, text) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

// Appends one update ({seq, kind, side, by, action, events}) to the list.
export function append(ol, update, sides) {
  const sideIdx = Math.max(0, sides.indexOf(update.side));
  if (update.kind === 'undo') {
    ol.append(li('action', span(`side${sideIdx}`, update.side || ''), ' took back the last action'));
  } else if (update.kind === 'act') {
    const who = `${update.side}${update.by === 'ai' ? ' (computer)' : ''}`;
    const what = update.action ? update.action.text || update.action.type : 'action';
    ol.append(li('action', span(`side${sideIdx}`, who), `: ${what}`));
  }
  for (const e of update.events || []) {
    const d = describe(e);
    const item = li('ev', d.text);
    if (d.mods.length) item.append(' ', span('mods', `(${d.mods.join('; ')})`));
    if (d.rule) item.append(' ', span('rule', `[${d.rule}]`));
    ol.append(item);
  }
  ol.scrollTop = ol.scrollHeight;
}
