// The interface between this JS and the wasm module (bindings/bindings.cpp
// and the Module.zcwIo protocol of io.js): bumped whenever either changes
// how they talk, so that a .wasm of another release is refused with a
// clear message. CMakeLists.txt reads this line to build the module.
export const ABI_VERSION = 6;
