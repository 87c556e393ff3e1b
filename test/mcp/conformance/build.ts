// The test build of the MCP face: the real face (registry tools, guides, prompts) plus the fixture
// tools, resources and prompts the official conformance suite calls by fixed names. Never shipped:
// src/ mounts no extras; this file is the only one that knows the fixtures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { buildCore } from '../../../src/core/build.js';
import { OPS } from '../../../src/core/ops/registry.js';
import { createHost } from '../../../src/http/host.js';
import type { McpExtras } from '../../../src/mcp/handlers.js';
import { mcpFace } from '../../../src/mcp/routes.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';

// 1x1 red PNG and a minimal silent WAV.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const noArgs = { type: 'object' as const, properties: {} };
const tool = (name: string, description: string, inputSchema: Record<string, unknown> = noArgs) => ({ name, description, inputSchema: inputSchema as { type: 'object' } });

export const FIXTURES: McpExtras = {
  tools: [
    tool('test_simple_text', 'Returns simple text'),
    tool('test_image_content', 'Returns an image'),
    tool('test_audio_content', 'Returns audio'),
    tool('test_embedded_resource', 'Returns an embedded resource'),
    tool('test_multiple_content_types', 'Returns text, image and a resource'),
    tool('test_error_handling', 'Always fails'),
    tool('test_tool_with_progress', 'Reports progress'),
    tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' }, kind: { type: 'string' }, contact: { anyOf: [{ type: 'string', format: 'email' }, { type: 'string', pattern: '^\\+' }] } },
      allOf: [{ required: ['name'] }],
      if: { properties: { kind: { const: 'company' } } },
      then: { required: ['address'] },
      else: {},
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
        return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
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
    { name: 'test_prompt_with_arguments', description: 'A prompt with arguments', arguments: [{ name: 'arg1', description: 'First test argument', required: true }, { name: 'arg2', description: 'Second test argument', required: true }] },
    { name: 'test_prompt_with_embedded_resource', description: 'A prompt with an embedded resource', arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
    { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  ],
  getPrompt(name, args) {
    const user = (content: Record<string, unknown>) => ({ role: 'user', content });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
      case 'test_prompt_with_arguments':
        return { messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })] };
      case 'test_prompt_with_embedded_resource':
        return { messages: [user({ type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }), user({ type: 'text', text: 'Please process the embedded resource above.' })] };
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
