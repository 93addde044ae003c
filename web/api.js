// api.js - the server's JSON API (docs/web.md). Every call answers the
// protocol's object: {ok: true, ...} or {ok: false, error: {code, message}}.

export async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, error: { code: 'network', message: `the server cannot be reached (${e.message})` } };
  }
  try {
    return await res.json();
  } catch {
    return { ok: false, error: { code: 'bad_reply', message: `HTTP ${res.status}` } };
  }
}

export const scenarios = () => call('GET', '/api/scenarios');
export const createGame = (req) => call('POST', '/api/games', { body: req });
export const info = (id, token) => call('GET', `/api/games/${id}`, { token });
export const state = (id, token) => call('GET', `/api/games/${id}/state`, { token });
export const legal = (id, token) => call('GET', `/api/games/${id}/legal`, { token });
export const act = (id, token, action) => call('POST', `/api/games/${id}/act`, { token, body: { action } });
export const undo = (id, token) => call('POST', `/api/games/${id}/undo`, { token, body: {} });
export const log = (id, token, since = 0) => call('GET', `/api/games/${id}/log?since=${since}`, { token });
export const replay = (id, token) => call('GET', `/api/games/${id}/replay`, { token });

// Live updates: calls onUpdate(update) for each Server-Sent Event. The
// browser reconnects by itself and sends Last-Event-ID, so nothing is missed.
export function watch(id, token, onUpdate, onError) {
  const es = new EventSource(`/api/games/${id}/events?token=${encodeURIComponent(token)}`);
  es.addEventListener('update', (e) => onUpdate(JSON.parse(e.data)));
  es.onerror = () => onError && onError(es.readyState);
  return es;
}
