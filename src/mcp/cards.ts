// Discovery documents from the templates in cards/, filled with the base URL and the registry.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { fill } from '../http/templates.js';
import { TOOLSETS } from './tools.js';

/** Reverse-DNS registry name from the base URL's host, as the MCP registry expects. */
export function registryName(base: string): string {
  return `${new URL(base).hostname.split('.').reverse().join('.')}/commons`;
}

export function buildCards(base: string, version: string, tools: Array<Tool & { title?: string }>) {
  const vars = { BASE: base, HOST: new URL(base).hostname, VERSION: version, REGISTRY_NAME: registryName(base), TOOLS: '', TOOLSETS: '' };
  const card = fill('mcp-server-card.json', vars);
  card.tools = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, annotations: t.annotations }));
  (card.toolsets as Record<string, unknown>).available = Object.entries(TOOLSETS).map(([name, about]) => ({ name, description: about }));
  return {
    serverCard: card,
    registry: fill('mcp-registry-server.json', vars),
    aiPlugin: fill('ai-plugin.json', vars),
  };
}
