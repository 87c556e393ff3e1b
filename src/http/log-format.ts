// The two forms of the server log (CX_LOG, src/config.ts). `json`: pino's lines as they are, for a
// log collector (fastify's "incoming request" and "request completed" with request ids). `pretty`:
// for a person at a terminal, one short line per request (`12:04:05 GET /v1/notes 201 3ms`) and one
// line per other message (`12:04:05 INFO agent commons listening url=…`); no JSON to read through.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { Writable } from 'node:stream';

/** The form for a log going to `stream` (default stdout): CX_LOG when set, else pretty only on a terminal. */
export function logFormatFor(setting: 'pretty' | 'json' | 'auto', stream?: NodeJS.WritableStream): 'pretty' | 'json' {
  if (setting !== 'auto') return setting;
  return (stream ?? process.stdout) === process.stdout && process.stdout.isTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every pino line has, or that the short form leaves out. */
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'method', 'url', 'status', 'ms', 'err']);

const hhmmss = (t: unknown) => new Date(typeof t === 'number' ? t : Date.now()).toISOString().slice(11, 19);

function value(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s !== undefined && /[\s"]/.test(s) ? JSON.stringify(s) : String(s);
}

/** One pino JSON line in the short form (an unreadable line passes as it is). */
export function prettyLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = hhmmss(o.time);
  if (o.msg === 'request' && typeof o.method === 'string') {
    return `${time} ${o.method} ${String(o.url)} ${String(o.status)} ${String(o.ms)}ms`;
  }
  const level = LEVELS[o.level as number] ?? String(o.level);
  const extra = Object.entries(o)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  const err = o.err as { message?: string; stack?: string } | undefined;
  // A fault keeps its stack (the operator needs it); the reply the caller got never had one.
  const tail = err ? `\n${err.stack ?? err.message ?? ''}` : '';
  return `${time} ${level} ${String(o.msg ?? '')}${extra.length ? ` ${extra.join(' ')}` : ''}${tail}`;
}

/** A pino destination writing the short form to `out` (default stdout). */
export function prettyStream(out: NodeJS.WritableStream = process.stdout): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const text = rest + chunk.toString();
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l) out.write(`${prettyLine(l)}\n`);
      done();
    },
  });
}

/** Pretty form: fastify's two request lines become one, logged when the reply is done (errors and
 *  the rest of fastify's own lines stay). `mask` hides secrets in paths, as the JSON serializers do. */
export function prettyRequests(mask: (url: string) => string): LogController {
  return new (class extends LogController {
    override incomingRequest(): void {}
    override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
      const t = reply.elapsedTime;
      const line = { method: req.method, url: mask(req.url), status: reply.statusCode, ms: t < 10 ? Math.round(t * 10) / 10 : Math.round(t) };
      if (error) reply.log.error({ ...line, err: error }, 'request');
      else reply.log.info(line, 'request');
    }
  })();
}
