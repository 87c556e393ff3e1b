// Local stand-ins for the payment providers, on loopback, speaking each provider's wire shape:
// Stripe's REST API (form-encoded, Bearer key), BTCPay Greenfield (JSON, `token` key) and
// monero-wallet-rpc (JSON-RPC 2.0 with HTTP digest login). They record what they were sent.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fake {
  url: string;
  calls: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
  calls: Fake['calls'],
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      calls.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const closer = (s: Server) => () => new Promise<void>((r) => s.close(() => r()));

export const STRIPE_KEY = 'sk_test_fake_0123456789';

export async function fakeStripe(): Promise<Fake & { sessions: Array<{ id: string; url: string; form: URLSearchParams }> }> {
  const calls: Fake['calls'] = [];
  const sessions: Array<{ id: string; url: string; form: URLSearchParams }> = [];
  const { server, url } = await listen((req, body, res) => {
    if (req.headers.authorization !== `Bearer ${STRIPE_KEY}`) {
      return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const form = new URLSearchParams(body);
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const s = { id, url: `https://checkout.stripe.test/c/pay/${id}`, form };
      sessions.push(s);
      return json(res, 200, {
        id,
        object: 'checkout.session',
        url: s.url,
        mode: 'payment',
        payment_status: 'unpaid',
        status: 'open',
        client_reference_id: form.get('client_reference_id'),
      });
    }
    json(res, 404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
  }, calls);
  return { url, calls, sessions, close: closer(server) };
}

export const BTCPAY_KEY = 'btcpay-api-key-fake';
export const BTCPAY_STORE = 'StoreFake123';

export async function fakeBtcpay(): Promise<Fake & { invoices: Array<{ id: string; checkoutLink: string; req: Record<string, any> }> }> {
  const calls: Fake['calls'] = [];
  const invoices: Array<{ id: string; checkoutLink: string; req: Record<string, any> }> = [];
  const { server, url } = await listen((req, body, res) => {
    if (req.headers.authorization !== `token ${BTCPAY_KEY}`) return json(res, 401, { code: 'unauthenticated', message: 'Authentication is required' });
    const m = /^\/api\/v1\/stores\/([^/]+)\/invoices$/.exec(req.url ?? '');
    if (req.method === 'POST' && m) {
      if (m[1] !== BTCPAY_STORE) return json(res, 404, { code: 'store-not-found', message: 'Store not found' });
      const id = `Inv${randomBytes(8).toString('hex')}`;
      const inv = { id, checkoutLink: `https://btcpay.test/i/${id}`, req: JSON.parse(body) };
      invoices.push(inv);
      return json(res, 200, { id, storeId: BTCPAY_STORE, checkoutLink: inv.checkoutLink, status: 'New', amount: inv.req.amount, currency: inv.req.currency });
    }
    json(res, 404, { code: 'not-found' });
  }, calls);
  return { url, calls, invoices, close: closer(server) };
}

export interface XmrPayment {
  payment_id: string;
  amount: number;
  block_height: number;
  tx_hash: string;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export async function fakeMonero(login?: {
  user: string;
  pass: string;
}): Promise<Fake & { height: number; payments: XmrPayment[]; addresses: Array<{ address: string; payment_id: string }>; unauthorized: number }> {
  const calls: Fake['calls'] = [];
  const state = { height: 3_000_000, payments: [] as XmrPayment[], addresses: [] as Array<{ address: string; payment_id: string }>, unauthorized: 0 };
  const nonce = randomBytes(16).toString('base64');
  const realm = 'monero-rpc';
  const authorized = (req: IncomingMessage): boolean => {
    if (!login) return true;
    const h = req.headers.authorization ?? '';
    if (!h.startsWith('Digest ')) return false;
    const p: Record<string, string> = {};
    for (const m of h.slice(7).matchAll(/([a-z]+)=(?:"([^"]*)"|([^,\s]+))/g)) p[m[1]!] = m[2] ?? m[3] ?? '';
    const ha1 = md5(`${login.user}:${realm}:${login.pass}`);
    const ha2 = md5(`${req.method}:${p.uri}`);
    return p.username === login.user && p.nonce === nonce && p.uri === req.url && p.response === md5(`${ha1}:${nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`);
  };
  const { server, url } = await listen((req, body, res) => {
    if (!authorized(req)) {
      state.unauthorized++;
      // monero-wallet-rpc (epee) offers MD5 digest with qop=auth.
      res.writeHead(401, { 'www-authenticate': `Digest qop="auth",algorithm=MD5,realm="${realm}",nonce="${nonce}",stale=false` });
      return res.end();
    }
    if (req.method !== 'POST' || req.url !== '/json_rpc') return json(res, 404, {});
    const call = JSON.parse(body) as { id: string; method: string; params?: any };
    const ok = (result: unknown) => json(res, 200, { id: call.id, jsonrpc: '2.0', result });
    switch (call.method) {
      case 'make_integrated_address': {
        const payment_id = randomBytes(8).toString('hex');
        const address = '4' + Array.from(randomBytes(105), (b) => B58[b % 58]).join('');
        state.addresses.push({ address, payment_id });
        return ok({ integrated_address: address, payment_id });
      }
      case 'get_height':
        return ok({ height: state.height });
      case 'get_bulk_payments': {
        const ids = new Set<string>(call.params?.payment_ids ?? []);
        const payments = state.payments
          .filter((p) => ids.has(p.payment_id))
          .map((p) => ({ ...p, unlock_time: 0, address: 'x', locked: false, subaddr_index: { major: 0, minor: 0 } }));
        return ok(payments.length ? { payments } : {});
      }
    }
    json(res, 200, { id: call.id, jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' } });
  }, calls);
  return Object.assign(state, { url, calls, close: closer(server) });
}
