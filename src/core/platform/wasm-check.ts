// What the core asks of the WebAssembly adapter before it stores or publishes a module: the core
// imports no adapter (issue 36), so src/wasm/check.ts implements this port by reading the module's
// declarations, and the composition root hands it to the core as `core.wasm`.

export interface WasmCheck {
  /**
   * Upload (PUT /v1/b, PUT /admin/blob): bytes that read as a module must fit the size caps. The
   * reason it is refused, or null (bytes that only start like a module are left to publication).
   */
  upload(bytes: Uint8Array): string | null;
  /** Publication: imports, the exported entry, memory and tables within `memPages`; the reason it is refused, or null. */
  publish(bytes: Uint8Array, entry: string, memPages: number): string | null;
}
