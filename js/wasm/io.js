// The call protocol between the JS layer and the module's plain exports:
// a call's inputs and outputs stay TypedArrays in JavaScript memory, and
// the C++ side copies them block by block (bindings/js_io.h). This file is
// the protocol's only JS owner:
//
//   module.zcwIo = {
//     inputs:  [Uint8Array, ...]        what the call reads, by slot
//     outputs: [Uint8Array | null, ...] where it writes; null: "leave the
//                                       single block in wasm memory"
//     kept:    number                   where that block sits (for null)
//     view:    Uint8Array | undefined   a cached view of wasm memory
//   }
//
// Every view is checked (a live Uint8Array) before the call, and the slots
// are cleared after it, returned or thrown, so no caller's array outlives
// its call in the module.

/** Gives `module` its (empty) protocol object; load.js calls this once. */
export function attachIo(module) {
  module.zcwIo = { inputs: [], outputs: [], kept: 0, view: undefined };
}

/**
 * Runs `module[exportName](a, b, c)` with one input and one output in
 * place: the codecs' hot path (no allocation per call). Returns the
 * export's result (0: success).
 * @param {object} module
 * @param {string} exportName e.g. "_zcw_decode"
 * @param {Uint8Array} input
 * @param {Uint8Array | null} output
 */
export function callWithIo(module, exportName, input, output, a, b, c, d) {
  const io = module.zcwIo;
  io.inputs[0] = input;
  io.outputs[0] = output;
  try {
    return module[exportName](a, b, c, d);
  } finally {
    // Emptied in place: shrinking the arrays' length costs more per call.
    io.inputs[0] = undefined;
    io.outputs[0] = undefined;
  }
}

/**
 * The same with any number of inputs and outputs, by slot.
 * @param {Uint8Array[]} inputs
 * @param {(Uint8Array | null)[]} outputs
 * @param {number[]} args
 */
export function callWithSlots(module, exportName, inputs, outputs, args) {
  const io = module.zcwIo;
  io.inputs = inputs;
  io.outputs = outputs;
  try {
    return module[exportName](...args);
  } finally {
    io.inputs = [];
    io.outputs = [];
  }
}

/** The `length` bytes the last call left in wasm memory (null output), copied out. */
export function keptBytes(module, length) {
  const at = module.zcwIo.kept;
  return module.HEAPU8.slice(at, at + length);
}
