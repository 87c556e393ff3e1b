// Parameter checks that answer -32602 before the SDK sees a call: the SDK's own parsing turns some
// malformed params into internal errors (a number where a task id goes), accepts others (empty
// parts, a 1.0 message without a role, a negative historyLength) and lets odd types reach the store.
type Wire = '0.3' | '1.0';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields that, wherever they appear in params, must be strings (ids reach the store as keys). */
const STRING_FIELDS = ['id', 'taskId', 'contextId', 'messageId', 'pushNotificationConfigId', 'tenant', 'pageToken'];
/** Methods whose params name one task by `id`. */
const BY_ID = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe', 'GetTask', 'CancelTask', 'SubscribeToTask', 'tasks/pushNotificationConfig/list']);
const SEND = new Set(['message/send', 'message/stream', 'SendMessage', 'SendStreamingMessage']);
const ROLES: Record<Wire, readonly unknown[]> = { '0.3': ['user', 'agent'], '1.0': ['ROLE_USER', 'ROLE_AGENT', 1, 2] };
/** 1.0 parts carry their content in one of these fields. */
const CONTENT_10 = ['text', 'data', 'raw', 'url', 'file'];

function strings(where: string, o: Record<string, unknown>): string | null {
  for (const f of STRING_FIELDS) if (f in o && o[f] !== undefined && typeof o[f] !== 'string') return `${where}${f}: want a string`;
  return null;
}

function historyLength(where: string, o: Record<string, unknown>): string | null {
  const h = o.historyLength ?? o.history_length;
  if (h === undefined || h === null) return null;
  return typeof h === 'number' && Number.isInteger(h) && h >= 0 ? null : `${where}historyLength: want an integer >= 0`;
}

function part(p: unknown, i: number, wire: Wire): string | null {
  const at = `message.parts[${i}]`;
  if (!isObj(p)) return `${at}: want an object`;
  if (wire === '0.3') {
    if (p.kind === 'text') return typeof p.text === 'string' ? null : `${at}.text: want a string`;
    if (p.kind === 'data') return isObj(p.data) ? null : `${at}.data: want an object`;
    if (p.kind === 'file') return isObj(p.file) ? null : `${at}.file: want an object`;
    return `${at}.kind: want "text", "data" or "file"`;
  }
  const present = CONTENT_10.filter((k) => p[k] !== undefined);
  if (present.length !== 1) return `${at}: want exactly one of ${CONTENT_10.join(', ')}`;
  if (present[0] === 'text' && typeof p.text !== 'string') return `${at}.text: want a string`;
  return null;
}

function message(m: unknown, wire: Wire): string | null {
  if (!isObj(m)) return 'message: want an object';
  const s = strings('message.', m);
  if (s) return s;
  if (!ROLES[wire].includes(m.role)) return `message.role: want ${wire === '0.3' ? '"user" or "agent"' : '"ROLE_USER" or "ROLE_AGENT"'}`;
  if (typeof m.messageId !== 'string' || !m.messageId) return 'message.messageId: want a non-empty string';
  for (const f of ['extensions', 'referenceTaskIds']) {
    const v = m[f];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) return `message.${f}: want an array of strings`;
  }
  if (m.metadata !== undefined && m.metadata !== null && !isObj(m.metadata)) return 'message.metadata: want an object';
  if (!Array.isArray(m.parts) || m.parts.length === 0) return 'message.parts: want a non-empty array';
  for (let i = 0; i < m.parts.length; i++) {
    const e = part(m.parts[i], i, wire);
    if (e) return e;
  }
  return null;
}

/** ListTasks filters: what cannot be honoured is refused, never read as "no filter". */
function listFilters(p: Record<string, unknown>): string | null {
  if (p.pageSize !== undefined && !(typeof p.pageSize === 'number' && Number.isInteger(p.pageSize) && p.pageSize >= 1 && p.pageSize <= 100))
    return 'pageSize: want an integer 1 to 100';
  if (p.includeArtifacts !== undefined && p.includeArtifacts !== null && typeof p.includeArtifacts !== 'boolean') return 'includeArtifacts: want true or false';
  const after = p.statusTimestampAfter;
  if (after !== undefined && after !== null && after !== '') {
    if (
      typeof after !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(after) ||
      !Number.isFinite(Date.parse(after))
    ) {
      return 'statusTimestampAfter: want an RFC 3339 timestamp';
    }
  }
  return null;
}

/** The reason a call's params are invalid, or null. Only the shapes; the SDK checks the rest. */
export function invalidParams(method: string, params: unknown, wire: Wire): string | null {
  if (params === undefined) return SEND.has(method) || BY_ID.has(method) ? 'params: want an object' : null;
  if (!isObj(params)) return 'params: want an object';
  const top = strings('', params) ?? historyLength('', params);
  if (top) return top;
  if (BY_ID.has(method) && (typeof params.id !== 'string' || !params.id.trim())) return 'id: want a task id (a non-empty string)';
  if (SEND.has(method)) {
    const m = message(params.message, wire);
    if (m) return m;
    const conf = params.configuration;
    if (conf !== undefined && conf !== null) {
      if (!isObj(conf)) return 'configuration: want an object';
      const h = historyLength('configuration.', conf);
      if (h) return h;
      const modes = conf.acceptedOutputModes;
      if (modes !== undefined && modes !== null && !(Array.isArray(modes) && modes.every((x) => typeof x === 'string')))
        return 'configuration.acceptedOutputModes: want an array of strings';
      for (const f of ['blocking', 'returnImmediately'])
        if (conf[f] !== undefined && conf[f] !== null && typeof conf[f] !== 'boolean') return `configuration.${f}: want true or false`;
      for (const f of ['pushNotificationConfig', 'taskPushNotificationConfig']) {
        const p = conf[f];
        if (p === undefined || p === null) continue;
        if (!isObj(p) || typeof p.url !== 'string') return `configuration.${f}: want an object with a url`;
      }
    }
  }
  if (method === 'ListTasks') return listFilters(params);
  if (PUSH_SET.has(method)) {
    // 0.3 nests the config; 1.0 sends its fields beside taskId.
    const cfg = wire === '0.3' ? params.pushNotificationConfig : params;
    if (!isObj(cfg)) return 'pushNotificationConfig: want an object';
    const s = strings(wire === '0.3' ? 'pushNotificationConfig.' : '', cfg);
    if (s) return s;
    if (typeof cfg.url !== 'string' || !cfg.url) return `${wire === '0.3' ? 'pushNotificationConfig.' : ''}url: want a non-empty string`;
    if (cfg.token !== undefined && cfg.token !== null && typeof cfg.token !== 'string') return 'token: want a string';
    if (typeof params.taskId !== 'string' || !params.taskId.trim()) return 'taskId: want a task id (a non-empty string)';
  }
  return null;
}

const PUSH_SET = new Set(['tasks/pushNotificationConfig/set', 'CreateTaskPushNotificationConfig']);
