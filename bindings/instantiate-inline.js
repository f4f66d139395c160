// --pre-js: instantiate the wasm from the bytes inlined by -sSINGLE_FILE.
// Emscripten's own loader first tries fetch() on the inlined data: URL,
// which a Content-Security-Policy without connect-src data: blocks (and
// reports as a violation) before it falls back to decoding the base64
// itself. This does the fallback directly: no fetch, no eval.
Module["instantiateWasm"] = function (imports, receiveInstance) {
  WebAssembly.instantiate(tryParseAsDataURI(wasmBinaryFile), imports).then(
    function (output) {
      receiveInstance(output["instance"], output["module"]);
    },
    readyPromiseReject,
  );
  return {};
};
