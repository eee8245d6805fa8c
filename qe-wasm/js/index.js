// The entry module of the `qe-engine` package: loads the WebAssembly (in Node.js from the file next
// to this one, in a browser or worker by fetch), turns a trap after a panic into a `QePanic` error,
// and exports the API. Everything else is the engine's, through the generated glue `qe_wasm.js`.
import initWasm, * as glue from './qe_wasm.js';
import { QeError, QePanic } from './qe-error.js';

const wasmUrl = new URL('./qe_wasm_bg.wasm', import.meta.url);
if (wasmUrl.protocol === 'file:') {
  const { readFile } = await import('node:fs/promises');
  glue.initSync({ module: await readFile(wasmUrl) });
} else {
  await initWasm({ module_or_path: wasmUrl });
}

/** The error a trap becomes: a `QePanic` with the panic's message, when the engine panicked. */
function fromTrap(err) {
  if (err instanceof WebAssembly.RuntimeError) {
    const message = glue.__takePanic();
    return new QePanic(`qe panicked (a bug in qe; please report it): ${message ?? err.message}`);
  }
  return err;
}

/** `fn`, with a trap turned into a `QePanic` (other errors unchanged). */
function guard(fn) {
  return function guarded(...args) {
    try {
      return fn.apply(this, args);
    } catch (err) {
      throw fromTrap(err);
    }
  };
}

/** The class `cls` with every method, getter and static method guarded, and its constructor. */
function guardClass(cls) {
  for (const target of [cls.prototype, cls]) {
    for (const key of Object.getOwnPropertyNames(target)) {
      if (key === 'constructor' || key === 'prototype' || key === 'length' || key === 'name') {
        continue;
      }
      const d = Object.getOwnPropertyDescriptor(target, key);
      if (typeof d.value === 'function') d.value = guard(d.value);
      if (d.get) d.get = guard(d.get);
      if (d.set) d.set = guard(d.set);
      Object.defineProperty(target, key, d);
    }
  }
  return new Proxy(cls, {
    construct(target, args, newTarget) {
      try {
        return Reflect.construct(target, args, newTarget);
      } catch (err) {
        throw fromTrap(err);
      }
    },
  });
}

export const Game = guardClass(glue.Game);
export const Bot = guardClass(glue.Bot);
export const botNames = guard(glue.botNames);
export const expansionNames = guard(glue.expansionNames);
export const pileNames = guard(glue.pileNames);
export const tileNames = guard(glue.tileNames);
export const errorCodes = guard(glue.errorCodes);
export const version = guard(glue.version);
/** @internal For the package's test of the panic boundary only. */
export const __panicForTests = guard(glue.__panicForTests);
export { QeError, QePanic };
