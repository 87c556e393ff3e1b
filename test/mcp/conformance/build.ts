// The test build of the MCP face: the real face (registry tools, guides, prompts) plus the fixture
// tools, resources and prompts the official conformance suite calls by fixed names. Never shipped:
// src/ mounts no extras; this file is the only one that knows the fixtures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import pino from 'pino';
import { RpcError } from '../../../src/mcp/handlers.js';
import { loadConfig } from '../../../src/config.js';
import { buildCore } from '../../../src/compose/core.js';
import { OPS } from '../../../src/compose/registry.js';
import { createHost } from '../../../src/http/host.js';
import type { McpExtras } from '../../../src/mcp/handlers.js';
import { mcpFace } from '../../../src/mcp/routes.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';

// 1x1 red PNG and a minimal silent WAV.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Multi round-trip fixtures: requestState is HMAC-sealed so a tampered one is refused.
const KEY = randomBytes(32);
const seal = (payload: string) => `${Buffer.from(payload).toString('base64url')}.${createHmac('sha256', KEY).update(payload).digest('base64url')}`;
function unseal(state: string | undefined): string | null {
  if (state === undefined) return null;
  const [p, sig] = state.split('.');
  if (!p || !sig) throw new RpcError(-32602, 'Invalid or expired requestState');
  const payload = Buffer.from(p, 'base64url').toString();
  const want = Buffer.from(createHmac('sha256', KEY).update(payload).digest('base64url'));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw new RpcError(-32602, 'Invalid or expired requestState');
  return payload;
}
const ask = (message: string, field: string, type = 'string') => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] } },
});
const sample = (text: string, maxTokens: number) => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const ROOTS = { method: 'roots/list', params: {} };
const inputRequired = (inputRequests: Record<string, unknown>, requestState?: string) =>
  ({ resultType: 'input_required', inputRequests, ...(requestState ? { requestState } : {}) }) as never;
const contentOf = (r: unknown, field: string) => {
  const c = (r as { content?: Record<string, unknown> } | undefined)?.content;
  return c && typeof c === 'object' ? c[field] : undefined;
};
const textOf = (r: unknown) => {
  const c = (r as { content?: { text?: string } | Array<{ text?: string }> } | undefined)?.content;
  return Array.isArray(c) ? c[0]?.text : c?.text;
};

const noArgs = { type: 'object' as const, properties: {} };
const tool = (name: string, description: string, inputSchema: Record<string, unknown> = noArgs) => ({
  name,
  description,
  inputSchema: inputSchema as { type: 'object' },
});

export const FIXTURES: McpExtras = {
  tools: [
    tool('test_simple_text', 'Returns simple text'),
    tool('test_image_content', 'Returns an image'),
    tool('test_audio_content', 'Returns audio'),
    tool('test_embedded_resource', 'Returns an embedded resource'),
    tool('test_multiple_content_types', 'Returns text, image and a resource'),
    tool('test_error_handling', 'Always fails'),
    tool('test_tool_with_progress', 'Reports progress'),
    tool('test_input_required_result_elicitation', 'Asks for a name (input_required)'),
    tool('test_input_required_result_sampling', 'Asks for a sampling answer (input_required)'),
    tool('test_input_required_result_list_roots', 'Asks for the roots (input_required)'),
    tool('test_input_required_result_request_state', 'Round-trips a requestState'),
    tool('test_input_required_result_multiple_inputs', 'Asks for three inputs at once'),
    tool('test_input_required_result_multi_round', 'Two rounds of input'),
    tool('test_input_required_result_tampered_state', 'Refuses a tampered requestState'),
    tool('test_missing_capability', 'Needs the sampling capability (the SDK refuses it with -32021 when undeclared)'),
    tool('test_streaming_elicitation', 'Asks for input: the response stream carries only the result'),
    tool('test_logging_tool', 'Would log only when the request sets a logLevel'),
    tool('test_input_required_result_capabilities', 'Asks only for what the client declared'),
    // The suite's own schema, verbatim: it checks that every 2020-12 keyword survives the listing.
    tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    }),
  ],
  async callTool(name, _args, io) {
    switch (name) {
      case 'test_simple_text':
        return { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] };
      case 'test_image_content':
        return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
      case 'test_audio_content':
        return { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] };
      case 'test_embedded_resource':
        return {
          content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
        };
      case 'test_multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
          ],
        };
      case 'test_error_handling':
        return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
      case 'test_tool_with_progress':
        for (const progress of [0, 50, 100]) {
          if (io.progressToken !== undefined) await io.notify('notifications/progress', { progressToken: io.progressToken, progress, total: 100 });
          if (progress < 100) await sleep(50);
        }
        return { content: [{ type: 'text', text: 'Progress tool completed' }] };
      case 'test_input_required_result_elicitation': {
        const r = io.inputResponses?.user_name;
        if (!r) return inputRequired({ user_name: ask('What is your name?', 'name') });
        return { content: [{ type: 'text', text: `Hello, ${String(contentOf(r, 'name') ?? 'unknown')}!` }] };
      }
      case 'test_missing_capability':
        // Needs sampling, which the suite's client does not declare: the SDK answers -32021.
        if (Object.keys(io.inputResponses ?? {}).length) return { content: [{ type: 'text', text: 'thanks' }] };
        return inputRequired({ answer: sample('Say yes', 10) });
      case 'test_streaming_elicitation':
        if (Object.keys(io.inputResponses ?? {}).length) return { content: [{ type: 'text', text: 'thanks' }] };
        return inputRequired({ confirm: ask('Please confirm', 'ok', 'boolean') });
      case 'test_logging_tool':
        return { content: [{ type: 'text', text: 'done (no log: the request set no logLevel)' }] };
      case 'test_input_required_result_capabilities': {
        if (Object.keys(io.inputResponses ?? {}).length) return { content: [{ type: 'text', text: 'capabilities respected' }] };
        const caps = io.clientCapabilities ?? {};
        const asks: Record<string, unknown> = {};
        if (caps.elicitation) asks.user_name = ask('What is your name?', 'name');
        if (caps.sampling) asks.greeting = sample('Generate a greeting', 50);
        if (caps.roots) asks.client_roots = ROOTS;
        if (!Object.keys(asks).length) return { content: [{ type: 'text', text: 'no input capability declared' }] };
        return inputRequired(asks);
      }
      case 'test_input_required_result_sampling': {
        const r = io.inputResponses?.capital_question;
        if (!r) return inputRequired({ capital_question: sample('What is the capital of France?', 100) });
        return { content: [{ type: 'text', text: `Sampling answered: ${textOf(r) ?? ''}` }] };
      }
      case 'test_input_required_result_list_roots': {
        const r = io.inputResponses?.client_roots as { roots?: Array<{ uri: string }> } | undefined;
        if (!r) return inputRequired({ client_roots: ROOTS });
        return { content: [{ type: 'text', text: `Roots: ${(r.roots ?? []).map((x) => x.uri).join(', ')}` }] };
      }
      case 'test_input_required_result_request_state':
      case 'test_input_required_result_tampered_state': {
        const state = unseal(io.requestState);
        if (!io.inputResponses?.confirm || state === null) return inputRequired({ confirm: ask('Please confirm', 'ok', 'boolean') }, seal(`${name}:1`));
        return { content: [{ type: 'text', text: `state-ok (${state})` }] };
      }
      case 'test_input_required_result_multiple_inputs': {
        const r = io.inputResponses ?? {};
        unseal(io.requestState);
        if (!r.user_name || !r.greeting || !r.client_roots)
          return inputRequired(
            { user_name: ask('What is your name?', 'name'), greeting: sample('Generate a greeting', 50), client_roots: ROOTS },
            seal('multi:1'),
          );
        return { content: [{ type: 'text', text: `Name: ${String(contentOf(r.user_name, 'name'))}; greeting: ${textOf(r.greeting) ?? ''}; roots received` }] };
      }
      case 'test_input_required_result_multi_round': {
        const state = unseal(io.requestState);
        const r = io.inputResponses ?? {};
        if (state === null || (state === 'round:1' && !r.step1)) return inputRequired({ step1: ask('Step 1: What is your name?', 'name') }, seal('round:1'));
        if (state === 'round:1')
          return inputRequired({ step2: ask('Step 2: What is your favorite color?', 'color') }, seal(`round:2:${String(contentOf(r.step1, 'name'))}`));
        if (!r.step2) return inputRequired({ step2: ask('Step 2: What is your favorite color?', 'color') }, io.requestState);
        return { content: [{ type: 'text', text: `Name: ${state.slice(8)}; color: ${String(contentOf(r.step2, 'color'))}` }] };
      }
      default:
        return { content: [{ type: 'text', text: `called ${name}` }] };
    }
  },
  resources: [
    { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', description: 'Static text resource' },
    { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', description: 'Static binary resource' },
  ],
  templates: [{ uriTemplate: 'test://template/{id}/data', name: 'template-data', mimeType: 'application/json', description: 'Templated data' }],
  readResource(uri) {
    if (uri === 'test://static-text') return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
    return null;
  },
  prompts: [
    { name: 'test_simple_prompt', description: 'A simple prompt' },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt with an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    { name: 'test_prompt_with_image', description: 'A prompt with an image' },
    { name: 'test_input_required_result_prompt', description: 'A prompt that asks for context first' },
  ],
  getPrompt(name, args, io) {
    const user = (content: Record<string, unknown>) => ({ role: 'user', content });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
      case 'test_prompt_with_arguments':
        return { messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })] };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            user({ type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }),
            user({ type: 'text', text: 'Please process the embedded resource above.' }),
          ],
        };
      case 'test_input_required_result_prompt': {
        const r = io?.inputResponses?.user_context;
        if (!r) return inputRequired({ user_context: ask('What context should the prompt use?', 'context') });
        return { messages: [user({ type: 'text', text: `Use this context: ${String(contentOf(r, 'context'))}` })] };
      }
      case 'test_prompt_with_image':
        return { messages: [user({ type: 'image', data: PNG, mimeType: 'image/png' }), user({ type: 'text', text: 'Please analyze the image above.' })] };
      default:
        return null;
    }
  },
};

/** Starts the host with only the MCP face and the fixtures, on an ephemeral port. */
export async function startFixtureBuild(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-conf-'));
  const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8', CX_BASE_URL: 'http://commons.test' });
  const store = openSqliteStore(config.dataDir, config.sync, config.workspaceKey);
  const core = buildCore(config, store, pino({ enabled: false }));
  const app = await createHost(core, { logger: false });
  await app.register(mcpFace, { core, ops: OPS, extras: FIXTURES });
  const addr = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: addr,
    async stop() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
