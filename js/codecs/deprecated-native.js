// nativeCodecs(): the low-level API of 0.2, kept for code that uses it and
// deprecated (CHANGELOG, 0.3.0): classes with positional constructors,
// errors as status values ({ code, message }) instead of exceptions, and
// .delete(). It now wraps the package's codec classes (decodeInto is the
// allocation-free path it existed for), so nothing passed to it reaches
// wasm unchecked.
import { BytesCodec } from "./bytes.js";
import { NumcodecsPackBitsCodec } from "./numcodecs-packbits.js";
import { PackBitsCodec } from "./packbits.js";
import { coreOf } from "./wasm-codec.js";
import { bytesOf } from "./chunk.js";
import { ZarrCodecError } from "../errors.js";
import { wasm } from "../wasm/load.js";

const OK = Object.freeze({ code: "OK", message: "" });

function outcome(error) {
  return error instanceof ZarrCodecError
    ? { code: error.code, message: error.message }
    : { code: "INVALID_INPUT", message: String(error?.message ?? error) };
}

function lowLevel(name, make) {
  return class {
    #codec;
    #status = OK;

    constructor(dataType, configuration, shape, presentation = "native") {
      try {
        if (presentation !== "native" && presentation !== "float32") {
          throw new ZarrCodecError("INVALID_CONFIGURATION", `${name}: presentation must be "native" or "float32", got ${JSON.stringify(String(presentation))}`);
        }
        this.#codec = make(configuration, { dataType, shape }, { floats: presentation === "float32" ? "float32" : "bits" });
      } catch (error) {
        this.#status = outcome(error);
      }
    }

    status() {
      return this.#status;
    }
    decodedBytes() {
      return this.#codec?.[coreOf].decodedBytes ?? 0;
    }
    encodedBytes() {
      return this.#codec?.[coreOf].encodedBytes ?? 0;
    }
    valueType() {
      return this.#codec?.[coreOf].valueType ?? "";
    }
    encodedSizeFor(decodedByteLength) {
      try {
        return this.#codec ? this.#codec.computeEncodedSize(decodedByteLength) : -1;
      } catch {
        return -1;
      }
    }
    /** Decodes `input` into `output` (exactly decodedBytes() long). */
    decode(input, output) {
      return this.#run((core) => core.decodeInto(bytesOf(name, "input", input), bytesOf(name, "output", output)));
    }
    /** Encodes `input` (decodedBytes() long) into `output` (encodedBytes() long). */
    encode(input, output) {
      return this.#run((core) => {
        const out = bytesOf(name, "output", output);
        out.set(core.encode(name, bytesOf(name, "input", input)).subarray(0, out.length));
        if (out.length !== core.encodedBytes) {
          throw new ZarrCodecError("LENGTH_MISMATCH", `${name}: the output holds ${out.length} bytes, but the chunk encodes to ${core.encodedBytes}`);
        }
      });
    }
    delete() {
      this.#codec?.dispose();
    }

    #run(step) {
      if (!this.#codec) return this.#status;
      try {
        step(this.#codec[coreOf]);
        return OK;
      } catch (error) {
        return outcome(error);
      }
    }
  };
}

const classes = {
  BytesCodec: lowLevel("bytes", (c, m, a) => new BytesCodec(c, m, a)),
  PackBitsCodec: lowLevel("packbits", (c, m, a) => new PackBitsCodec(c, m, a)),
  NumcodecsPackBitsCodec: lowLevel("numcodecs.packbits", (c, m) => new NumcodecsPackBitsCodec(c, m)),
};

/**
 * @deprecated since 0.3.0: use the codec classes (decodeInto for output
 * into your own array) and catch ZarrCodecError.
 */
export function nativeCodecs() {
  wasm();
  return { ...classes, dataTypeInfo: (name) => wasm().dataTypeInfo(typeof name === "string" ? name.slice(0, 300) : "") };
}
