// How an A2A message reaches an operation: a data part {"skill": "<op or tool name>", "input": {...}},
// or a text command `<verb> <argument>` where the verb is the operation's REST path without its
// leading `/` or `/v1/` (e.g. `e <error text>` → POST /e, `search <words>`, `healthz`) or its name.
// Free text falls back to the KB search when the registry has one.
import type { Part } from '@a2a-js/sdk';
import { z } from 'zod';
import { agentOps, toolName } from '../core/kernel/agent-facing.js';
import { HintRoutes, type HintFace } from '../core/kernel/hints.js';
import type { Operation } from '../core/kernel/types.js';
import { coerce, propTypes, type JsonType } from '../http/input.js';

/** Free text goes to the first of these that exists, as its main text field. */
const FALLBACK = ['kb.search'];
const HELP = new Set(['help', 'skills', '?']);

export interface Content {
  texts: string[];
  datas: unknown[];
  files: number;
}

export type Plan =
  /** `free`: free text read as a search; its task stays open for the next words (input-required). */
  { kind: 'call'; op: Operation; input: Record<string, unknown>; free?: boolean } | { kind: 'help' } | { kind: 'bad'; detail: string };

interface Skill {
  op: Operation;
  verb: string | null;
  /** Input field that takes a command's whole argument (the REST text body, or the only required string). */
  main: string | null;
  types: Map<string, JsonType>;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mainField(op: Operation): string | null {
  if (op.rest?.textBody) return op.rest.textBody;
  const js = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as { required?: string[]; properties?: Record<string, { type?: string }> };
  const strings = (js.required ?? []).filter((k) => js.properties?.[k]?.type === 'string');
  return strings.length === 1 ? strings[0]! : null;
}

function verbOf(op: Operation): string | null {
  const path = op.rest?.path;
  if (!path || /[:*]/.test(path)) return null;
  const v = path
    .replace(/^\/(v1\/)?/, '')
    .replace(/\/$/, '')
    .toLowerCase();
  return /^[a-z0-9][a-z0-9._/-]*$/.test(v) ? v : null;
}

export function contentOfCore(parts: Part[]): Content {
  const c: Content = { texts: [], datas: [], files: 0 };
  for (const p of parts) {
    const k = p.content?.$case;
    if (k === 'text') c.texts.push(p.content!.value as string);
    else if (k === 'data') c.datas.push(p.content!.value);
    else c.files++;
  }
  return c;
}

/** Parts as a client sent them (0.3 `kind` parts or 1.0 field-named parts); null when malformed. */
export function contentOfWire(parts: unknown, wire: string): Content | null {
  if (!Array.isArray(parts)) return null;
  const c: Content = { texts: [], datas: [], files: 0 };
  for (const p of parts) {
    if (!isObj(p)) return null;
    const kind = wire === '0.3' ? p.kind : 'text' in p ? 'text' : 'data' in p ? 'data' : 'file';
    if (kind === 'text' && typeof p.text === 'string') c.texts.push(p.text);
    else if (kind === 'data') c.datas.push(p.data);
    else c.files++;
  }
  return c;
}

export class Skills {
  readonly list: Skill[];
  private byName = new Map<string, Skill>();
  private byVerb = new Map<string, Skill>();
  private fallback: Skill | null;
  /** Next steps (of replies and errors) worded as the messages that run these skills (kernel/hints.ts). */
  readonly hints: HintFace;

  /** Every operation of the registry (next lines name routes of operations reached through a skill, `via`). */
  constructor(readonly ops: readonly Operation[]) {
    this.list = agentOps(ops).map((op) => ({ op, verb: verbOf(op), main: mainField(op), types: propTypes(op) }));
    for (const s of this.list) {
      this.byName.set(s.op.name, s);
      this.byName.set(toolName(s.op), s);
    }
    for (const s of this.list) {
      if (!s.verb) continue;
      const other = this.byVerb.get(s.verb);
      // Two methods on one path: the read wins the short verb; the other keeps its name.
      if (!other || (s.op.readOnly && !other.op.readOnly)) this.byVerb.set(s.verb, s);
    }
    for (const s of this.list) if (s.verb && this.byVerb.get(s.verb) !== s) s.verb = null;
    const fb = FALLBACK.map((n) => this.byName.get(n)).find((s) => s?.main);
    this.fallback = fb ?? null;
    // Every operation's route: one reached through another skill (`via`) names that skill.
    this.hints = new HintRoutes(ops).skills(new Set(this.list.map((s) => s.op.name)));
  }

  skill(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  resolve(c: Content): Plan {
    const data = c.datas.find((d) => isObj(d) && typeof d.skill === 'string') as Record<string, unknown> | undefined;
    if (data) {
      const s = this.byName.get(data.skill as string);
      if (!s) return { kind: 'bad', detail: `unknown skill "${String(data.skill).slice(0, 64)}": send "help" for the list` };
      const input = data.input ?? {};
      if (!isObj(input)) return { kind: 'bad', detail: 'input: want an object' };
      return { kind: 'call', op: s.op, input };
    }
    if (c.datas.length && !c.texts.length) return { kind: 'bad', detail: 'data part: want {"skill": "<name>", "input": {...}}' };
    const text = c.texts.join('\n').trim();
    if (!text) return { kind: 'bad', detail: c.files ? 'file parts are not read: send text or a data part' : 'empty message: send "help" for the skills' };
    const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(text)!;
    const word = m[1]!.toLowerCase();
    if (HELP.has(word) && !m[2]) return { kind: 'help' };
    const s = this.byVerb.get(word) ?? this.byName.get(m[1]!);
    if (s) return this.command(s, (m[2] ?? '').trim());
    if (this.fallback) return { kind: 'call', op: this.fallback.op, input: { [this.fallback.main!]: text.slice(0, 400) }, free: true };
    return { kind: 'bad', detail: `no command "${m[1]!.slice(0, 40)}": send "help" for the skills` };
  }

  /** A command's argument: JSON object, the main field's text, or key=value pairs. */
  private command(s: Skill, arg: string): Plan {
    if (!arg) return { kind: 'call', op: s.op, input: {} };
    if (arg.startsWith('{')) {
      try {
        const v = JSON.parse(arg);
        if (isObj(v)) return { kind: 'call', op: s.op, input: v };
      } catch {
        /* not JSON: read as text below */
      }
    }
    if (s.main) return { kind: 'call', op: s.op, input: { [s.main]: arg } };
    const pairs = arg.split(/\s+/).map((kv) => /^([A-Za-z_][\w]*)=(\S*)$/.exec(kv));
    if (pairs.every(Boolean)) return { kind: 'call', op: s.op, input: Object.fromEntries(pairs.map((p) => [p![1], coerce(p![2], s.types.get(p![1]!))])) };
    return { kind: 'bad', detail: `usage: ${s.verb ?? s.op.name} key=value ... or a JSON object` };
  }

  /** Fills missing fields of a paused call from a follow-up message. */
  resume(op: Operation, input: Record<string, unknown>, missing: string[], c: Content): Record<string, unknown> {
    const s = this.byName.get(op.name)!;
    const next = { ...input };
    for (const d of c.datas) if (isObj(d)) Object.assign(next, isObj(d.input) ? d.input : d);
    const text = c.texts.join('\n').trim();
    const field = missing.find((f) => next[f] === undefined);
    if (text && field) next[field] = coerce(text, s.types.get(field));
    return next;
  }

  usage(s: Skill): string {
    return s.verb ? (s.main ? `${s.verb} <${s.main}>` : s.verb) : s.op.name;
  }

  helpText(): string {
    return [
      `skills ${this.list.length}: send a text command, or a data part {"skill": "<name>", "input": {...}}`,
      ...this.list.map((s) => `${s.op.name} ${s.verb ? `"${this.usage(s)}" ` : ''}${s.op.auth === 'anon' ? '' : '(token) '}${s.op.title}`),
      this.fallback
        ? `free text: ${this.fallback.op.name}; the task stays input-required, so more words in it search again (cancel it when done)`
        : 'free text: not understood; use a command',
      'tasks: yours only; anonymous tasks belong to your network (IPv4 /24, IPv6 /48), a bearer token keeps them across networks',
      'next: GET /.well-known/agent.json for the card; GET /grammar for the reply grammar',
    ].join('\n');
  }
}
