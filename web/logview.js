// logview.js - the event log: every action, and under it every roll with its
// dice, each modifier and the rule that decided it (PROTOCOL.md, EVENT).
// Text only (textContent): nothing from the server is read as HTML.

const sign = (v) => (v > 0 ? `+${v}` : `${v}`);
const hitsWord = (n) => `${n} hit${n === 1 ? '' : 's'}`;

// One event as {text, mods: ["-1 target in forest (HtL 2.3.5)"], rule}.
export function describe(e) {
  const who = e.unit || '';
  const at = e.target ? ` at ${e.target}` : e.hex ? ` in ${e.hex}` : '';
  const dice = e.values && e.values.length ? ` d${e.die || 6}: [${e.values.join(', ')}]` : '';
  let text;
  switch (e.type) {
    case 'roll': {
      const what = (e.purpose || 'roll').replace(/_/g, ' ');
      text = `${who ? who + ' ' : ''}${what}${at}:${dice}`;
      if (e.need != null) text += `, needs ${e.need}+ each`;
      if (e.value != null) text += `, total ${e.value}`;
      if (e.hits != null) text += ` → ${hitsWord(e.hits)}`;
      if (e.points != null) text += ` → ${e.points} points`;
      if (e.passed != null) text += e.passed ? ' → passed' : ' → failed';
      break;
    }
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
    default: {
      const bits = [];
      for (const k of ['unit', 'other', 'side', 'hex', 'from', 'to', 'target', 'value', 'need', 'hits', 'mp', 'points', 'text'])
        if (e[k] != null && e[k] !== '') bits.push(`${k} ${e[k]}`);
      if (e.passed != null) bits.push(e.passed ? 'passed' : 'failed');
      text = `${e.type.replace(/_/g, ' ')}${bits.length ? ': ' + bits.join(', ') : ''}${dice}`;
    }
  }
  const mods = (e.mods || []).map((m) => `${sign(m.value)} ${m.why}`);
  return { text, mods, rule: e.rule || '' };
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
