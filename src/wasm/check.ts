// The core's WasmCheck port (src/core/platform/wasm-check.ts) on this adapter's module reader: a
// refusal's reason as the BadModule message it always was; any other error propagates as before.
import type { WasmCheck } from '../core/platform/wasm-check.js';
import { BadModule, checkModule, checkUpload, inspectModule } from './module.js';

function reason(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (err) {
    if (err instanceof BadModule) return err.message;
    throw err;
  }
}

export const wasmCheck: WasmCheck = {
  upload: (bytes) => reason(() => checkUpload(bytes)),
  publish: (bytes, entry, memPages) => reason(() => checkModule(inspectModule(bytes), entry, memPages)),
};
