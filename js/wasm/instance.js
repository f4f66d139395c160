// One embind instance of the core (bindings/bindings.cpp) and its
// lifetime. Users never call .delete(): the instance is freed when the
// object that owns it is collected (a FinalizationRegistry), or at once by
// dispose(); after that every use throws DISPOSED. The instance never
// leaves this object, so nothing outside can free it twice.
import { ZarrCodecError } from "../errors.js";

// Frees an instance whose owner was collected without dispose().
const finalizer =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((instance) => instance.delete())
    : undefined;

export class WasmInstance {
  /** The module the instance lives in. */
  module;
  /** The instance's address, for the plain exports (zcw_decode, ...). */
  handle;
  #instance;
  #name;

  /**
   * @param {object} owner the object whose collection frees the instance
   * @param {object} module the loaded wasm module
   * @param {object} instance a new embind instance; deleted here, and its
   *   status thrown, if the core refused its arguments
   * @param {string} name the codec's name, for messages
   */
  constructor(owner, module, instance, name) {
    const status = instance.status();
    if (status.code !== "OK") {
      instance.delete();
      throw new ZarrCodecError(status.code, status.message);
    }
    this.module = module;
    this.handle = instance.handle();
    this.#instance = instance;
    this.#name = name;
    finalizer?.register(owner, instance, this);
  }

  /** The embind instance, for a query; throws DISPOSED after dispose(). */
  get live() {
    if (this.#instance === null) {
      throw new ZarrCodecError(
        "DISPOSED",
        `${this.#name}: this codec was disposed; create a new one with fromConfig()`,
      );
    }
    return this.#instance;
  }

  /** Throws the error of the instance's last failed call. */
  fail() {
    const { code, message } = this.live.lastStatus();
    throw new ZarrCodecError(code, message);
  }

  /** Frees the instance now; later uses throw DISPOSED. */
  dispose() {
    if (this.#instance === null) return;
    finalizer?.unregister(this);
    this.#instance.delete();
    this.#instance = null;
  }
}
