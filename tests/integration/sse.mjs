// A Server-Sent Events client for the tests and the latency bench: one HTTP
// connection of its own (no agent, so no pooling hides a closed stream), the
// events parsed as a browser's EventSource parses them, and a way to wait for
// a condition on what has arrived.
import http from 'node:http';

// Parse one event block (the lines before a blank line).
function parseBlock(block) {
  const ev = { id: null, event: 'message', data: null, comment: false };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) { ev.comment = true; continue; }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') ev.id = value;
    else if (field === 'event') ev.event = value;
    else if (field === 'data') ev.data = ev.data === null ? value : `${ev.data}\n${value}`;
  }
  return ev;
}

// Open base+path as a stream. The result: { status, headers, events (each
// {id, event, data (parsed JSON where it is JSON), at (ms, performance.now)}),
// comments, ended, error, ready (resolves on the response headers),
// until(pred, ms), close() }.
export function openStream(base, path, { headers = {}, localAddress } = {}) {
  const url = new URL(path, base);
  const s = { status: null, headers: null, events: [], comments: 0, ended: false, error: null };
  let wake = () => {};
  const changed = () => { const w = wake; wake = () => {}; w(); };
  const req = http.get({
    host: url.hostname, port: url.port, path: url.pathname + url.search, agent: false, localAddress,
    headers: { Accept: 'text/event-stream', ...headers },
  });
  s.ready = new Promise((ok, fail) => {
    req.on('response', (res) => {
      s.status = res.statusCode;
      s.headers = res.headers;
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.now();
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const ev = parseBlock(block);
          if (ev.data === null) {
            if (ev.comment) s.comments++;
            continue;
          }
          try { ev.data = JSON.parse(ev.data); } catch { /* not JSON: kept as text */ }
          ev.at = at;
          s.events.push(ev);
        }
        changed();
      });
      res.on('end', () => { s.ended = true; changed(); });
      res.on('error', (e) => { s.error = e; changed(); });
      ok(s);
    });
    req.on('error', (e) => { s.error = e; changed(); fail(e); });
  });
  s.ready.catch(() => {});
  // Resolve once pred(s) holds; reject after ms with what arrived.
  s.until = (pred, ms = 30000) => new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`stream ${path}: condition not met in ${ms} ms; ${s.events.length} events, ended ${s.ended}, error ${s.error}: ${JSON.stringify(s.events.slice(-3).map((e) => [e.id, e.event]))}`)), ms);
    const check = () => {
      if (pred(s)) { clearTimeout(timer); ok(s); return; }
      if (s.error || s.ended) { clearTimeout(timer); fail(s.error || new Error(`stream ${path} ended before the condition held: ${JSON.stringify(s.events.slice(-3).map((e) => [e.id, e.event]))}`)); return; }
      wake = check;
    };
    check();
  });
  s.close = () => req.destroy();
  return s;
}

// The result events of a run stream, in arrival order.
export const resultsOf = (s) => s.events.filter((e) => e.event === 'result');
