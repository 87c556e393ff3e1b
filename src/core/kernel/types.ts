// An operation is a capability defined once; REST, MCP and A2A are generated from these.
import type { z } from 'zod';
import type { Identity, OperatorClass, TokenClass } from './caller.js';
import type { QuotaBucket } from './limits.js';
import type { FreezeKind, ShedClass } from './kinds.js';
import type { Logger } from './log.js';
import type { HintFace } from './hints.js';

export type AuthClass = 'anon' | 'token' | 'pow' | OperatorClass;

// Logger is a kernel type (src/core/kernel/log.ts); re-exported for the files that take it here.
export type { Logger } from './log.js';

/**
 * Shared services of the core, built once in the composition root (src/compose/core.ts). The kernel
 * names only what it needs itself; the composition root adds the platform's and the adapters'
 * services by declaration merging (src/compose/core-type.ts), so the kernel imports none of them.
 */
export interface Core {
  store: Store;
  log: Logger;
  now(): number;
  random(n: number): Buffer;
  started: number;
  version: string;
}

/** The storage ports, one member per port; gathered by declaration merging in src/compose/store.ts. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the composition root
export interface Store {}

export interface Caller {
  identity: Identity | null;
  tokenClass: TokenClass | null;
  operator: OperatorClass | null;
  /** Set when an anonymous caller paid with a PoW proof (auth class `pow`). */
  powPaid: boolean;
}

export interface Ctx {
  core: Core;
  caller: Caller;
  /** Network key: IPv4 /24 or IPv6 /48. */
  net: string;
  reqId: string;
  face: 'rest' | 'mcp' | 'a2a';
  /** How this caller's face words next steps (kernel/hints.ts); absent: REST routes. */
  hints?: HintFace;
  /** Aborted when the caller goes away (a closed stream): streaming ops end their iterator on it. */
  signal?: AbortSignal;
  /** Calls another operation as this same caller (same credentials, network, face) through invoke,
   *  so every guard of that operation applies; invoke sets it (an op that routes to others uses it). */
  call?<I extends z.ZodType, O>(op: Operation<I, O>, raw: unknown): Promise<{ out: O; ctx: Ctx }>;
}

/** Raw credentials as a face found them. */
export interface Credentials {
  bearer?: string;
  urlToken?: string;
  pow?: string;
}

export interface RestBinding<O = any> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  path: string;
  /** Status on success (default 200). */
  status?: number;
  /** Input field that receives a text/plain body. */
  textBody?: string;
  /** Media type of that raw body in /openapi.json when it is not text/plain (e.g. application/octet-stream). */
  bodyType?: string;
  /** Body cap in bytes (default the table's body.default). */
  bodyLimit?: number;
  /** The limits key that bounds the text body (`textBody`): a body past the byte cap above is refused
   *  in the words of that limit (`err size <field> over <value> <unit>`), as the check of the text
   *  itself and /limits state it, so a route has one size limit however it is passed. */
  sizeLimit?: string;
  /** Request headers copied into input fields when the field is absent (e.g. x-pow → pow). */
  headerInputs?: Record<string, string>;
  /** Extra paths serving the same result: `.json` (JSON), `.md` (the op's md renderer), `.txt`, `.svg` (the op's svg renderer), `.html` (the md as a page titled by htmlTitle). */
  twins?: Array<'json' | 'md' | 'txt' | 'svg' | 'html'>;
  /** The reply is JSON unless text is asked for (`Accept: text/plain` above JSON, `?f=txt`, the `.txt`
   *  twin): operator routes the spec answers with "JSON rows". */
  defaultJson?: boolean;
  /** Cache-Control for a successful read. */
  cache?: string;
  /** Extra text renderings chosen by `?f=<key>` (e.g. `gha` for GitHub Actions annotations). */
  formats?: Record<string, (out: any, ctx: Ctx) => string>;
  /** Where a browser (Accept: text/html) is sent instead, with 301. */
  htmlRedirect?: (input: Record<string, unknown>) => string;
  /** Browsers (Accept: text/html) get the op's markdown as an HTML page with this title. */
  htmlTitle?: (out: any) => string;
  /** Path parameters renamed into input fields (e.g. the wildcard `*` → `msg`). */
  paramAlias?: Record<string, string>;

  // ---- Declared request and reply (the one generic adapter, src/rest/ops.ts, serves them) ----
  /** The query fields the route takes (`f=json|txt` is negotiation); any other is `400 err bad`.
   *  Set, non-path fields come only from these, from headerInputs (headers only) and the raw body. */
  query?: readonly string[];
  /** The request body is raw bytes of any content type, given to `textBody` as strict UTF-8 text or
   *  as base64 (binary); other bodies on the route are ignored. */
  rawBody?: 'utf8' | 'base64';
  /** Success status from the result (e.g. 201 only when it created something); else `status`. */
  statusOf?(out: O): number;
  /** Reply headers every success of this route carries (beside the op's `headers` from the result). */
  replyHeaders?: Record<string, string>;
  /** Reply body as is (text or bytes with its media type) instead of the text rendering; JSON is
   *  still served when asked unless `rawOnly`. */
  raw?(out: O): { body: string | Buffer; type: string };
  /** Successful replies (every twin and format) carry `X-Cx-Sig-Server`: a resp1 signature of the exact
   *  body bytes sent (src/core/platform/trust, /signing). A function decides per request from the raw input
   *  (e.g. only the announcement topic of a topic read). */
  signed?: boolean | ((raw: Record<string, unknown>) => boolean);
  /** Only the raw body is served: no JSON or text negotiation, so `f` is an unknown query field. */
  rawOnly?: boolean;
  /** When it gives a location, the reply is `303 See Other` there with a one-line `see <location>`. */
  redirect?(out: O): string | null;
  // A binding with method HEAD answers status and headers only (nothing counted is the op's promise),
  // and the GET of the same path then gets no implicit HEAD from the framework.
}

export interface Operation<I extends z.ZodType = z.ZodType, O = unknown> {
  name: string;
  title: string;
  summary: string;
  input: I;
  output: z.ZodType<O>;
  auth: AuthClass;
  readOnly: boolean;
  /**
   * A read-only operation whose KB reads may come from a read standby when the caller is anonymous
   * (PostgreSQL with CX_DATABASE_READ_URL: src/core/platform/standby.ts). A token's calls read the primary.
   */
  standby?: boolean;
  idempotent?: boolean;
  destructive?: boolean;
  /** Quota buckets charged per call (see QUOTAS in limits.ts). */
  quota?: QuotaBucket[];
  /** Input fields that will be published: the scrub guard checks them (a dotted name reaches into an object field). */
  scrub?: string[];
  /** Input fields whose value counts as the request body in `err scrub <kind> body@<off>`. */
  bodyField?: string;
  // ---- Declared guards: src/core/platform/guards.ts applies them, in order, for every face. ----
  /**
   * A rule of who may call that depends on the input (a veto needs the admin token): the auth guard
   * applies it to the raw, not yet validated input, so a caller without the right is refused (401/403)
   * whatever else is wrong with the input. Throws a CxError('auth') to refuse.
   */
  authInput?: (raw: Record<string, unknown>, caller: Caller) => void;
  /**
   * The freeze kind the operation belongs to (src/core/kernel/kinds.ts): while that kind, `all`, or
   * (for a write kind) `write` is frozen, it answers 503 `err frozen <kind>`. A function of the
   * validated input when only some inputs write (null: this call is not frozen). Absent: never frozen.
   */
  freeze?: FreezeKind | ((input: z.output<I>) => FreezeKind | null);
  /**
   * Whether a running maintenance window stops it (also `err frozen <kind>`). Default: true when its
   * freeze kind is a write kind, false otherwise (reads, compute, operations with no kind).
   */
  maintenance?: boolean;
  /**
   * Texts checked against the hazard families (`err hazard <family>`): input field names (a dotted name
   * reaches into an object field), or functions
   * of the validated input that derive the text (a joined or normalized string). Empty and absent
   * values are skipped.
   */
  hazard?: ReadonlyArray<string | ((input: z.output<I>) => string | undefined)>;
  /**
   * The class of work load shedding refuses it under (src/core/platform/control/shed.ts: bulk from level 1,
   * heavy from 2, anon_write from 3; core and never are always served). Absent: never for operator
   * routes, anon_write for anonymous writes, core otherwise.
   */
  shed?: ShedClass;
  // ---- end of declared guards ----
  /**
   * Agents reach it through another operation, not as an MCP tool or A2A skill of its own (agentOps
   * leaves it out): that operation's name and the input fields that select this one (e.g. space.manage
   * with act=invite). Its REST route stays; `next:` lines naming the route become calls of `op`.
   */
  via?: { op: string; input: Record<string, string> };
  rest?: RestBinding<O>;
  /** Streaming kind: `run` resolves to an AsyncIterable of StreamItems, which every face streams. */
  stream?: StreamSpec<ItemOf<O>>;
  /** Extra REST headers for a result (Link, Cache-Control ...). */
  headers?(out: O, ctx: Ctx): Record<string, string>;
  /** Markdown form, for `.md` twins. */
  md?(out: O, ctx: Ctx): string;
  /** SVG image, for `.svg` twins (badges). */
  svg?(out: O, ctx: Ctx): string;
  /** One-line-per-fact text form; agents read this. */
  text(out: O, ctx: Ctx): string;
  run(ctx: Ctx, input: z.output<I>): Promise<O>;
}

// ---- Streaming operations (faces: REST text/event-stream, MCP progress, A2A message/stream) ----
/** One item of a stream; `id` resumes after it (SSE event id, `since`). */
export interface StreamItem<T = unknown> {
  id: string;
  item: T;
}
export type ItemOf<O> = O extends AsyncIterable<StreamItem<infer T>> ? T : unknown;

export interface StreamSpec<T = unknown> {
  /** Schema of one item (the JSON forms; MCP's outputSchema of the collected result). */
  item: z.ZodType<T>;
  /** One item as text: SSE `data`, MCP progress `message`, A2A artifact text. */
  text(item: T, ctx: Ctx): string;
  /** Input field taking the id to resume after (REST also reads Last-Event-ID and ?last_event_id). */
  resume: string;
  /** Input fields bounding a call that must end (MCP tool call, A2A task): items, and seconds to wait. */
  max: string;
  wait: string;
}

/** An operation whose input and output types are erased: what the registry and the faces hold. */
export type AnyOperation = Operation<z.ZodType, unknown>;

/** Keeps input/output inference at definition sites while storing ops uniformly. */
export function defineOp<I extends z.ZodType, O>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
