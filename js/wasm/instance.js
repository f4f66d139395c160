// One embind instance of the core (bindings/bindings.cpp) and its
// lifetime. Users never call .delete(): the instance is freed when the
// object that owns it is collected (a FinalizationRegistry), or at once by
// dispose(); after that every use throws DISPOSED. The instance never
// leaves this object, so nothing outside can free it twice.
//
// The realm's module instance can be replaced by a fresh one when it is
// idle (wasm/recycle.js: WebAssembly memory never shrinks, a new instance
// lets the old memory go). Every instance made in the realm's module is
// then let go (detach()), and made again in the new module, from the same
// arguments, on its next use: `module` and `handle` are always the current
// instance's, so a codec made before a replacement decodes after it.
import { ZarrCodecError } from "../errors.js";
import { instanceGeneration, wasm } from "./load.js";

// Frees an instance whose owner was collected without dispose(). The
// held value is a box, so a rebound instance is the one freed, and emptied,
// so nothing frees it again: the WasmInstance, garbage with its owner, may
// still be handed out by its WeakRef (`bound`) until a later collection
// (V8 collected a young owner before its promoted WasmInstance), and
// detach() then finds nothing to free.
const finalizer =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((held) => {
        const { instance } = held;
        held.instance = null;
        if (instance && !instance.isDeleted()) instance.delete();
      })
    : undefined;

// The instances bound to the realm's module (weakly: their owners may be
// collected at any time), let go when it is replaced.
const bound = new Set();
let pruneAt = 64;

function track(instance) {
  if (typeof WeakRef !== "function") return;
  bound.add(new WeakRef(instance));
  if (bound.size < pruneAt) return;
  for (const ref of bound) if (!ref.deref()) bound.delete(ref);
  pruneAt = Math.max(64, 2 * bound.size);
}

/**
 * Lets go of every instance bound to the realm's module (they bind again
 * on their next use). Internal: wasm/recycle.js, as it replaces the module.
 */
export function detachAll() {
  for (const ref of bound) ref.deref()?.detach();
  bound.clear();
  pruneAt = 64;
}

export class WasmInstance {
  #module;
  #handle;
  #held; // { instance }: the embind instance, null once disposed or detached
  #make;
  #name;
  #generation; // of the realm's module it was made in; undefined: another module's
  #disposed = false;

  /**
   * @param {object} owner the object whose collection frees the instance
   * @param {object} module the loaded wasm module
   * @param {(module: object) => object} make makes a new embind instance
   *   in a module; what it makes is deleted here, and its status thrown,
   *   if the core refused its arguments. It runs again where the realm's
   *   module was replaced, so it must hold no module of its own.
   * @param {string} name the codec's name, for messages
   */
  constructor(owner, module, make, name) {
    this.#make = make;
    this.#name = name;
    this.#held = { instance: null };
    this.#bind(module);
    finalizer?.register(owner, this.#held, this);
  }

  #bind(module) {
    const instance = this.#make(module);
    const status = instance.status();
    if (status.code !== "OK") {
      instance.delete();
      throw new ZarrCodecError(status.code, status.message);
    }
    this.#module = module;
    this.#handle = instance.handle();
    this.#held.instance = instance;
    let current;
    try {
      current = wasm();
    } catch {
      current = undefined;
    }
    this.#generation = module === current ? instanceGeneration() : undefined;
    if (this.#generation !== undefined) track(this);
  }

  // Binds again where the realm's module was replaced since.
  #current() {
    if (this.#disposed) {
      throw new ZarrCodecError(
        "DISPOSED",
        `${this.#name}: this codec was disposed; create a new one with fromConfig()`,
      );
    }
    if (this.#generation !== undefined && this.#generation !== instanceGeneration()) {
      this.#held.instance?.delete();
      this.#held.instance = null;
      this.#bind(wasm());
    }
  }

  /** The module the instance lives in. */
  get module() {
    this.#current();
    return this.#module;
  }

  /** The instance's address, for the plain exports (zcw_decode, ...). */
  get handle() {
    this.#current();
    return this.#handle;
  }

  /** The embind instance, for a query; throws DISPOSED after dispose(). */
  get live() {
    this.#current();
    return this.#held.instance;
  }

  /** Throws the error of the instance's last failed call. */
  fail() {
    const { code, message } = this.live.lastStatus();
    throw new ZarrCodecError(code, message);
  }

  /**
   * Lets go of the instance and its module; the next use makes it again
   * in the realm's current module.
   */
  detach() {
    if (this.#disposed || this.#held.instance === null) return;
    const { instance } = this.#held;
    this.#held.instance = null;
    if (!instance.isDeleted()) instance.delete();
    this.#module = undefined;
    this.#handle = 0;
    this.#generation = -1; // never current: binds on next use
  }

  /** Frees the instance now; later uses throw DISPOSED. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    finalizer?.unregister(this);
    this.#held.instance?.delete();
    this.#held.instance = null;
    this.#module = undefined;
  }
}
