// The sample data of the demo and the viewer, in one Zarr v3 store:
//   image        uint16 holding 12-bit values (a camera image), packbits
//   mask         bool, its bright ring, packbits
//   weights      int4 (low-bit model weights), packbits
//   activations  float8_e4m3 (an activation map), bytes
//   detections   struct (x, y: float32, score: float16, label:
//                fixed_length_utf32), 64 records, bytes
//   labels       fixed_length_utf32, the detections' label names, bytes
// zarrita writes image and mask itself; the other types it does not know,
// so those go through withDataTypes: the metadata is written as the
// zarr-extensions pages define it, and zarr.set writes the presented values
// (int8, float32, a record's bytes, zarrita's strings) back to the stored
// types. Deterministic, so tests can recompute every value.
import * as zarr from "zarrita";
import { withDataTypes } from "../js/index.js";
import { packRecords } from "./record-bytes.mjs";

export const SHAPE = [512, 512];
export const CHUNKS = [128, 128];

/** Names of the detections' labels: 8 code points at most, one beyond U+FFFF. */
export const LABELS = ["cell", "nucleus", "vesicle", "μtubule", "débris", "axon", "synapse", "🦠 virus"];
const LABEL_BYTES = 32; // 8 code points of UTF-32
const utf32 = { name: "fixed_length_utf32", configuration: { length_bytes: LABEL_BYTES } };

/** The detections' record type, as the struct page writes it. */
export const DETECTION_FIELDS = [
  { name: "x", data_type: "float32" },
  { name: "y", data_type: "float32" },
  { name: "score", data_type: "float16" },
  { name: "label", data_type: utf32 },
];

const grid = { shape: SHAPE, chunks: CHUNKS };
export const ARRAYS = {
  image: { ...grid, dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], fillValue: 0 },
  mask: { ...grid, dtype: "bool", codecs: [{ name: "packbits", configuration: {} }], fillValue: false },
  weights: { ...grid, dtype: "int4", codecs: [{ name: "packbits", configuration: {} }], fillValue: 0 },
  activations: { ...grid, dtype: "float8_e4m3", codecs: [{ name: "bytes", configuration: {} }], fillValue: 0 },
  detections: {
    shape: [64],
    chunks: [16],
    dtype: { name: "struct", configuration: { fields: DETECTION_FIELDS } },
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    fillValue: { x: 0, y: 0, score: 0, label: "" },
  },
  labels: { shape: [LABELS.length], chunks: [4], dtype: utf32, codecs: [{ name: "bytes", configuration: { endian: "little" } }], fillValue: "" },
};

/** The 12-bit image: rings around an off-centre spot, plus fine noise. */
export function makeImage([h, w] = SHAPE) {
  const image = new Uint16Array(h * w);
  let x = 12345;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const dy = r - h * 0.45;
      const dx = c - w * 0.55;
      const d = Math.sqrt(dx * dx + dy * dy);
      x = (x * 1103515245 + 12345) >>> 0;
      const noise = (x >>> 16) % 97;
      const v = 1800 + 1500 * Math.cos(d / 18) * Math.exp(-d / 400) + (c / w) * 600 + noise;
      image[r * w + c] = Math.max(0, Math.min(4095, Math.round(v)));
    }
  }
  return image;
}

/** The mask: pixels brighter than 2900. */
export function makeMask(image) {
  return Uint8Array.from(image, (v) => (v > 2900 ? 1 : 0));
}

/** int4 weights in [-8, 7]: a smooth pattern, as quantised weights look. */
export function makeWeights([h, w] = SHAPE) {
  const out = new Int8Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      out[r * w + c] = Math.max(-8, Math.min(7, Math.floor(8 * Math.sin(r / 23) * Math.cos(c / 31))));
    }
  }
  return out;
}

/**
 * float8_e4m3 from its definition (zarr-extensions): 1 sign, 4 exponent
 * and 3 mantissa bits, bias 7, exponent 0 subnormal, exponent 15 infinity
 * and NaN. Codes with exponent 15 are not used here.
 */
export function float8E4m3Value(code) {
  const sign = code & 0x80 ? -1 : 1;
  const e = (code >> 3) & 15;
  const m = code & 7;
  return sign * (e === 0 ? (m / 8) * 2 ** -6 : (1 + m / 8) * 2 ** (e - 7));
}

/**
 * float8_e4m3 activations: every finite magnitude from 0 to 240 (the
 * format's largest), both signs, as a field of bumps. Values are exactly
 * representable, so writing them through withDataTypes narrows exactly.
 */
export function makeActivations([h, w] = SHAPE) {
  const out = new Float32Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const t = 0.5 + 0.5 * Math.sin(r / 19) * Math.sin(c / 27);
      const magnitude = Math.min(119, Math.floor(t * 120)); // codes 0..119: exponent 0..14
      const sign = Math.cos((r + c) / 40) < -0.6 ? 0x80 : 0;
      out[r * w + c] = float8E4m3Value(sign | magnitude);
    }
  }
  return out;
}

/**
 * The detections: positions on the image's grid in eighths of a pixel and
 * scores in 64ths, so float32 and float16 hold them exactly (no rounding
 * for a reader to reproduce), each with one of LABELS.
 */
export function makeDetections(count = ARRAYS.detections.shape[0]) {
  return Array.from({ length: count }, (_, i) => ({
    x: ((i * 173) % 4096) / 8,
    y: ((i * 97 + 1000) % 4096) / 8,
    score: ((i * 37) % 65) / 64,
    label: LABELS[(i * 5) % LABELS.length],
  }));
}

const json = (value) => new TextEncoder().encode(JSON.stringify(value, null, 2));

/**
 * Writes the arrays into `store` (any zarrita store with set) under the
 * root group, with zarr.registry already holding the wasm codecs
 * (register). Returns the values written.
 */
export async function writeSampleStore(store) {
  const image = makeImage();
  const mask = makeMask(image);
  const weights = makeWeights();
  const activations = makeActivations();
  const detections = makeDetections();
  const labels = [...LABELS];
  const root = await zarr.create(zarr.root(store), {
    attributes: {
      description: "zarr-codecs-wasm sample: a 12-bit image, its mask, int4 weights, float8_e4m3 activations, " +
        "detections as struct records and their label names as fixed_length_utf32",
    },
  });
  for (const name of ["image", "mask"]) {
    const { dtype, codecs, fillValue } = ARRAYS[name];
    const arr = await zarr.create(root.resolve(name), { shape: SHAPE, chunkShape: CHUNKS, dtype, codecs, fillValue });
    const data = name === "image" ? image : new zarr.BoolArray(Array.from(mask, Boolean));
    await zarr.set(arr, null, { data, shape: SHAPE, stride: [SHAPE[1], 1] });
  }
  const typed = withDataTypes(store);
  for (const name of ["weights", "activations", "detections", "labels"]) {
    const { shape, chunks, dtype, codecs, fillValue } = ARRAYS[name];
    await store.set(`/${name}/zarr.json`, json({
      zarr_format: 3,
      node_type: "array",
      shape,
      data_type: dtype,
      chunk_grid: { name: "regular", configuration: { chunk_shape: chunks } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: fillValue,
      codecs,
      attributes: {},
      dimension_names: shape.length === 2 ? ["y", "x"] : ["i"],
    }));
    const arr = await zarr.open.v3(zarr.root(typed).resolve(name), { kind: "array" });
    let value;
    if (name === "detections") {
      // The presented array: uint8, [64, record bytes].
      const { bytes, recordBytes } = packRecords(DETECTION_FIELDS, detections);
      value = { data: bytes, shape: [shape[0], recordBytes], stride: [recordBytes, 1] };
    } else if (name === "labels") {
      // Presented as an Array of strings (zarrita's v2:object).
      value = { data: labels, shape, stride: [1] };
    } else {
      value = { data: name === "weights" ? weights : activations, shape, stride: [shape[1], 1] };
    }
    await zarr.set(arr, null, value);
  }
  return { image, mask, weights, activations, detections, labels };
}
