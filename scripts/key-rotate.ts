// npm run key:rotate — makes a new server statement key in the data directory (CX_DATA); the old
// one stays in `prev`. A running server picks it up within trust.ring_refresh seconds.
import { loadConfig } from '../src/config.js';
import { rotateRing } from '../src/core/trust/keys.js';
import { rawPublic } from '../src/core/trust/sign.js';

const config = loadConfig();
const r = rotateRing(config.keys);
console.log(`ok key kid=${r.kid} pub=${rawPublic(Buffer.from(r.seed, 'hex')).toString('hex')} prev=${r.prev.map((p) => p.kid).join(',')}`);
console.log(`next: send a root certificate of kid ${r.kid} to POST /admin/online-key (see /signing)`);
