// The tile viewer's sample: a multiscale uint16 image of three levels in
// one Zarr v3 group, as OME-Zarr 0.5 lays a 2-D image out (its
// `multiscales` attribute lists the levels, finest first, with their
// scales):
//   0   2048 x 2048, shards of 1024 x 1024 (4 shards of 16 tiles)
//   1   1024 x 1024, one shard of 16 tiles
//   2    512 x  512, one shard of 4 tiles (the overview)
// Every shard holds inner chunks of 256 x 256 (one tile each), zstd, its
// index at the end with a crc32c. Each level's values come from
// `pixel(level, y, x)`, so a test can check any pixel of any level.
//
// zarrita writes the metadata; it does not write shards, so each shard is
// laid out here as the sharding_indexed spec defines it, its inner chunks
// and its index encoded by the codecs zarr.registry holds (the package's
// zstd and crc32c once register() ran).
import * as zarr from "zarrita";

export const TILE = 256;
export const LEVELS = [
  { path: "0", shape: [2048, 2048], shard: [1024, 1024], scale: 1 },
  { path: "1", shape: [1024, 1024], shard: [1024, 1024], scale: 2 },
  { path: "2", shape: [512, 512], shard: [512, 512], scale: 4 },
];
const ZSTD = { level: 1, checksum: false };
const LITTLE = { name: "bytes", configuration: { endian: "little" } };

/**
 * The value at row y, column x of `level`: in the high byte, level 0's
 * coordinates in blocks of 8 pixels, XOR'd ("munching squares": the same
 * picture at every level, at the level's scale); in the low byte, 4 bits
 * of noise that depend on the level and the place (a tile of the wrong
 * level or place reads as wrong, and a tile is about 80 KB compressed, as
 * a camera's noise keeps it).
 */
export function pixel(level, y, x) {
  const scale = LEVELS[level].scale;
  const [Y, X] = [y * scale, x * scale];
  const picture = ((Y >> 3) ^ (X >> 3)) & 0xff;
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(level + 1, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (picture << 8) | (h & 0x0f);
}

/** The group's attributes: OME-Zarr 0.5's multiscales of the levels. */
export function multiscales() {
  return {
    ome: {
      version: "0.5",
      multiscales: [{
        name: "tiles",
        axes: [{ name: "y", type: "space" }, { name: "x", type: "space" }],
        datasets: LEVELS.map(({ path, scale }) => ({ path, coordinateTransformations: [{ type: "scale", scale: [scale, scale] }] })),
      }],
    },
  };
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// One tile's values, little-endian (the bytes codec: typed arrays are
// little-endian on every platform the package runs on).
function tileBytes(level, row, col) {
  const values = new Uint16Array(TILE * TILE);
  for (let y = 0; y < TILE; y++) {
    for (let x = 0; x < TILE; x++) values[y * TILE + x] = pixel(level, row * TILE + y, col * TILE + x);
  }
  return new Uint8Array(values.buffer);
}

/**
 * Writes the group and its levels into `store` (any zarrita store with
 * set), with zarr.registry holding the package's codecs (register).
 * Returns the levels' paths.
 */
export async function writePyramidStore(store) {
  const root = await zarr.create(zarr.root(store), { attributes: multiscales() });
  const tileMeta = { data_type: "uint16", shape: [TILE, TILE], codecs: [LITTLE, { name: "zstd", configuration: ZSTD }], fill_value: 0 };
  const zstd = (await zarr.registry.get("zstd")()).fromConfig(ZSTD, tileMeta);
  const crc32c = (await zarr.registry.get("crc32c")()).fromConfig({}, tileMeta);
  for (const [level, { path, shape, shard }] of LEVELS.entries()) {
    const arr = await zarr.create(root.resolve(path), {
      shape,
      chunkShape: shard,
      dtype: "uint16",
      fillValue: 0,
      dimensionNames: ["y", "x"],
      codecs: [{
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [TILE, TILE],
          codecs: tileMeta.codecs,
          index_codecs: [LITTLE, { name: "crc32c" }],
          index_location: "end",
        },
      }],
    });
    const perShard = shard.map((s) => s / TILE);
    for (let sy = 0; sy < shape[0] / shard[0]; sy++) {
      for (let sx = 0; sx < shape[1] / shard[1]; sx++) {
        // Inner chunks in C order, each an (offset, nbytes) pair of the index.
        const chunks = [];
        const index = new BigUint64Array(2 * perShard[0] * perShard[1]);
        let offset = 0;
        for (let r = 0; r < perShard[0]; r++) {
          for (let c = 0; c < perShard[1]; c++) {
            const bytes = await zstd.encode(tileBytes(level, sy * perShard[0] + r, sx * perShard[1] + c));
            const i = r * perShard[1] + c;
            index[2 * i] = BigInt(offset);
            index[2 * i + 1] = BigInt(bytes.length);
            chunks.push(bytes);
            offset += bytes.length;
          }
        }
        const indexBytes = await crc32c.encode(new Uint8Array(index.buffer));
        await store.set(arr.resolve(`c/${sy}/${sx}`).path, concat([...chunks, indexBytes]));
      }
    }
  }
  return LEVELS.map((l) => l.path);
}
