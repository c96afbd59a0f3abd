// The API client every page uses: JSON over fetch, with the API's error body
// turned into an Error that carries status, code and field; and the live
// streams' EventSource with the pages' policy for giving up on it.

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || 'http_error';
    this.field = e.field || null;
  }
}

// fetch path and parse the JSON body; a failure to connect or a non-2xx status
// becomes an ApiError.
async function requestJSON(path, init) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    const e = new ApiError(0, { error: { message: 'the warplab server cannot be reached', code: 'unreachable' } });
    e.cause = err;
    throw e;
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

export function getJSON(path) {
  return requestJSON(path, { headers: { Accept: 'application/json' } });
}

export function postJSON(path, value, headers = {}) {
  return requestJSON(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(value),
  });
}

// Show msg in the page's banner, or hide it when msg is empty.
export function banner(msg) {
  const el = document.getElementById('banner');
  if (!el) return;
  el.textContent = msg || '';
  el.hidden = !msg;
}

// An EventSource on url. The browser reconnects a dropped stream by itself,
// resuming after the last event it got; after two failed connections in a
// row (the server is gone, a proxy buffers the stream) it is closed and
// giveUp called, so the page can poll instead.
export function liveStream(url, giveUp) {
  const es = new EventSource(url);
  let errors = 0;
  es.addEventListener('open', () => { errors = 0; });
  es.addEventListener('error', () => {
    if (es.readyState !== EventSource.CLOSED && ++errors < 2) return;
    es.close();
    giveUp();
  });
  return es;
}
