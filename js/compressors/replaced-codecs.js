// The compressors register() replaced: zarrita's own (numcodecs.js's
// blosc, zstd and lz4; zarrita's gzip and zlib over DecompressionStream),
// kept for the frames the package's decoders do not take (snappy inside
// blosc, a zstd frame that needs a dictionary: UNSUPPORTED_CODEC), so that
// registering never makes zarrita read less. They load only when such a
// frame arrives. Kept per compression, every registry's, first registered
// first: a frame is the same frame to each of them.
import { messageOf } from "../errors.js";
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
 * meta)). Returns { bytes } or, where none could, { tried }: what each
 * said (empty where none was kept).
 */
export async function decodeReplaced(name, configuration, meta, input) {
  const tried = [];
  for (const load of replaced.get(name) ?? []) {
    try {
      const Codec = await load();
      const codec = Codec.fromConfig(configuration, meta);
      const bytes = await codec.decode(input);
      if (bytes instanceof Uint8Array) return { bytes };
      if (ArrayBuffer.isView(bytes)) return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
      tried.push(`it returned ${messageOf(bytes)}, not bytes`);
    } catch (error) {
      tried.push(messageOf(error));
    }
  }
  return { tried };
}
