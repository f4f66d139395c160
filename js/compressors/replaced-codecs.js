// The compressors register() replaced: zarrita's own (numcodecs.js's
// blosc, zstd and lz4; zarrita's gzip and zlib over DecompressionStream),
// kept for the frames the package's decoders do not take (snappy inside
// blosc, a zstd frame that needs a dictionary: UNSUPPORTED_CODEC), so that
// registering never makes zarrita read less. They load only when such a
// frame arrives. Kept per compression, every registry's, first registered
// first: a frame is the same frame to each of them.
import { describe, messageOf } from "../errors.js";
import { compressionNamed } from "./kinds.js";

const replaced = new Map(); // compression name -> loaders

/** Keeps `loader`, which register() replaced under the registry name `name`. */
export function keepReplaced(name, loader) {
  const compression = compressionNamed(name);
  if (!compression || typeof loader !== "function") return;
  const loaders = replaced.get(compression.name) ?? [];
  if (!loaders.includes(loader)) loaders.push(loader);
  replaced.set(compression.name, loaders);
}

/**
 * `input` decoded by the first replaced codec of `name` ("blosc") that
 * decodes it, each made as zarrita makes it (fromConfig(configuration,
 * meta)), to `size` bytes where that is known. Returns { bytes } or,
 * where none could, { tried }: what each said (empty where none was kept).
 */
export async function decodeReplaced(name, configuration, meta, input, size) {
  const tried = [];
  for (const load of replaced.get(name) ?? []) {
    try {
      const Codec = await load();
      const codec = Codec.fromConfig(configuration, meta);
      // A copy: a codec may keep or change what it is given.
      const decoded = await codec.decode(input.slice());
      const bytes = decoded instanceof Uint8Array ? decoded : ArrayBuffer.isView(decoded) ? new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength) : undefined;
      if (bytes === undefined) tried.push(`it returned ${describe(decoded)}, not bytes`);
      else if (size !== undefined && bytes.byteLength !== size) tried.push(`it decoded ${bytes.byteLength} bytes, the chunk has ${size}`);
      else return { bytes };
    } catch (error) {
      tried.push(messageOf(error));
    }
  }
  return { tried };
}
