// The API client every page uses: JSON over fetch, with the API's error body
// turned into an Error that carries status, code and field.

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || 'http_error';
    this.field = e.field || null;
  }
}

export async function getJSON(path) {
  let res;
  try {
    res = await fetch(path, { headers: { Accept: 'application/json' } });
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

export async function postJSON(path, value, headers = {}) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(value),
    });
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

// Show msg in the page's banner, or hide it when msg is empty.
export function banner(msg) {
  const el = document.getElementById('banner');
  if (!el) return;
  el.textContent = msg || '';
  el.hidden = !msg;
}
