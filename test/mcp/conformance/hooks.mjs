// Resolve hook: the conformance package's bare 'fs' import gets the shim (node:fs stays real).
const shim = new URL('./fs-shim.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if (specifier === 'fs' && context.parentURL && /\/(@modelcontextprotocol\/conformance|mcp-conformance-016)\//.test(context.parentURL))
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
