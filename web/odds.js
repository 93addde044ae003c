// odds.js - the chance of each number of hits, worked out in the page from
// an attack's hit number: each die hits when it shows `need` or more
// (terrain already counted in `need`), and dice are independent.

// The hit number and dice of a fire or close-combat ACTION: its own "need"
// and "ndice" fields when the ruleset gives them, else read from its text
// ("hits on 5-6", "hits on 6", "cannot hit") with Hold the Line's 3 dice.
export function attackOf(action) {
  let need = Number.isInteger(action.need) ? action.need : null;
  const dice = Number.isInteger(action.ndice) ? action.ndice : 3;
  const text = action.text || '';
  if (need === null) {
    let m = /hits on (\d+)-6/.exec(text);
    if (m) need = Number(m[1]);
    else if (/hits on 6\b/.test(text)) need = 6;
    else if (/cannot hit/.test(text)) need = 7;
  }
  if (need === null) return null;
  return { need, dice };
}

// [P(0 hits), P(1 hit), ..., P(dice hits)] for dice d6 each hitting on need+.
export function hitChances(need, dice, faces = 6) {
  const p = Math.min(1, Math.max(0, (faces + 1 - need) / faces));
  const out = [];
  for (let k = 0; k <= dice; k++) out.push(binom(dice, k) * p ** k * (1 - p) ** (dice - k));
  return out;
}

function binom(n, k) {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

export function percent(x) {
  if (x > 0 && x < 0.005) return '<1%';
  return `${Math.round(x * 100)}%`;
}
