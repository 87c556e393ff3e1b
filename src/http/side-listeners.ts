// Two small listeners beside the commons' fastify host, on Node's http module alone:
// - while the process starts (store open, migrations, start-up work) its port answers 503:
//   `/readyz` `not ready: starting`, anything else `err busy starting` (`/healthz` too: whoever
//   waits for a 200 from it, scripts and test harnesses, waits for the service itself), so a
//   balancer and an operator see why instead of "connection refused";
// - CX_METRICS_ADDR: /metrics without a token on an address of the operator's (kept private).
import { createServer, type Server } from 'node:http';

const send = (
  res: import('node:http').ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
  extra: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
};

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Closes a listener and every connection on it (keep-alive ones included). */
export function closeNow(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Answers on the service's port until the host takes it (`closeNow`, then the host listens). */
export function listenWhileStarting(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const close = { connection: 'close' };
    if (path === '/readyz') return send(res, 503, 'not ready: starting\n', undefined, close);
    send(res, 503, 'err busy starting\n', undefined, { ...close, 'retry-after': '5' });
  });
  return listen(server, port, host);
}

/** GET /metrics from `render`; anything else 404. */
export function listenMetrics(port: number, host: string, render: () => Promise<string>, type: string): Promise<Server> {
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return send(res, 404, 'err notfound only GET /metrics here\n');
    render().then(
      (text) => send(res, 200, text, type),
      () => send(res, 500, 'err internal\n'),
    );
  });
  return listen(server, port, host);
}
