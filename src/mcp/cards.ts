// Discovery documents from the templates in cards/, filled with the base URL and the registry.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const dir = fileURLToPath(new URL('../../cards/', import.meta.url));

/** Reverse-DNS registry name from the base URL's host, as the MCP registry expects. */
export function registryName(base: string): string {
  return `${new URL(base).hostname.split('.').reverse().join('.')}/commons`;
}

/** A template from cards/ with `{{VAR}}` placeholders filled (also used by the A2A cards). */
export function fill(file: string, vars: Record<string, string>): Record<string, unknown> {
  const raw = readFileSync(dir + file, 'utf8');
  // Values are JSON-escaped so a base URL can never break the document.
  const text = raw.replace(/\{\{([A-Z_]+)\}\}/g, (_, k: string) => JSON.stringify(vars[k] ?? '').slice(1, -1));
  return JSON.parse(text) as Record<string, unknown>;
}

export function buildCards(base: string, version: string, tools: Tool[]) {
  const vars = { BASE: base, HOST: new URL(base).hostname, VERSION: version, REGISTRY_NAME: registryName(base), TOOLS: '' };
  const card = fill('mcp-server-card.json', vars);
  card.tools = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, annotations: t.annotations }));
  return {
    serverCard: card,
    registry: fill('mcp-registry-server.json', vars),
    aiPlugin: fill('ai-plugin.json', vars),
  };
}
