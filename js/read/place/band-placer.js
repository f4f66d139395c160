// Placing chunks through bands (bands.js): a band of whole output rows
// lives in wasm memory, every chunk that reaches it is decoded into it by
// the core (read's own decoder: the package's codecs, N5 blocks,
// little-endian bytes copied; zarrita's decoded chunks copied; missing
// chunks filled), and the band is copied out in one piece. Bands come alive
// as the realm's budget allows (scratch-budget.js); a chunk that arrives
// before its band is alive waits in it.
import { ZarrCodecError } from "../../errors.js";
import { cOrderStrides } from "../../codecs/chunk.js";
import { wasm } from "../../wasm/load.js";
import { hold } from "../../wasm/recycle.js";
import { chunkWhere, withWhere } from "../chunk-where.js";
import { countRead } from "../read-counts.js";
import { bandsOf, layBands, LIVE_BYTES } from "./bands.js";
import { detached, zarritaFill } from "./output.js";
import { give, request, tryTake } from "./scratch-budget.js";
import { allocateBand, copyBandOut, copyInPlace, describe as describePlacement, fillInPlace, freeBand } from "./wasm-placement.js";

// Storage order of a chunk zarrita decoded: its axes by decreasing stride
// (a transposed chunk's are permuted), checked to be dense.
function storageOrder(shape, stride) {
  const order = shape.map((_, i) => i).sort((a, b) => stride[b] - stride[a] || a - b);
  let step = 1;
  for (let j = order.length - 1; j >= 0; j--) {
    const axis = order[j];
    if (shape[axis] > 1 && stride[axis] !== step) return undefined;
    step *= shape[axis];
  }
  return order;
}

/**
 * @param {import("./placer.js").PlaceContext} ctx
 * @returns {import("./placer.js").Placer}
 */
export function bandPlacer({ arr, plan, axes, chunks, out, signal, placed, failures, ending }) {
  const module = wasm();
  const { za, decoder } = plan;
  const eb = plan.elementBytes;
  const rank = axes.length;
  // A chunk that failed under chunkErrors: "fill" where zarrita would have
  // filled the array's missing chunks: zarrita's fill, made when needed.
  let fill = plan.fill;
  const fillElement = () => (fill ??= zarritaFill(plan.Container, za.fillValue));
  const shape = axes.filter((a) => !a.dropped).map((a) => a.count);
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const outLength = outBytes.byteLength;
  // Byte strides of the output, per axis of the array (0 where dropped).
  const outStride = cOrderStrides(shape);
  const strideBytes = [];
  let first = -1;
  for (let i = 0, o = 0; i < rank; i++) {
    if (axes[i].dropped) strideBytes.push(0);
    else {
      if (first < 0) first = i;
      strideBytes.push(outStride[o++] * eb);
    }
  }
  const rowBytes = strideBytes[first];
  const bands = layBands(axes[first].chunks, rowBytes);
  for (const c of chunks) {
    const m = c.mapping[first];
    c.bands = bandsOf(bands, m.out, m.out + m.count);
    c.usesLeft = c.bands.length;
    for (const b of c.bands) bands[b].chunksLeft += 1;
  }

  let alive = 0;
  let next = 0;
  let bandsLeft = bands.length;
  let allPlaced;
  const placedAll = new Promise((resolve) => {
    allPlaced = resolve;
  });
  if (bandsLeft === 0) allPlaced();
  // The band waiting for its bytes of the realm's budget (scratch-budget.js).
  let cancelWait;
  let release;

  // The placement of chunk `c` into band `band`, written to wasm memory.
  function placement(c, band, order) {
    const descAxes = new Array(rank);
    let base = 0;
    for (let i = 0; i < rank; i++) {
      const m = c.mapping[i];
      let { from, count, out: at } = m;
      if (i === first) {
        const lo = Math.max(at, band.r0);
        const hi = Math.min(at + count, band.r1);
        from += (lo - at) * m.step;
        count = Math.max(0, hi - lo);
        at = lo - band.r0;
      }
      base += at * strideBytes[i];
      descAxes[i] = { extent: axes[i].virtual ? 1 : za.chunkShape[i], from, count, step: m.step, stride: strideBytes[i] };
    }
    return describePlacement(module, eb, base, band.bytes, order ? order.map((i) => descAxes[i]) : descAxes);
  }

  // The chunk's part of `band` written; its decode, where the decoder
  // decodes in place. A frame refused whole leaves the band untouched: the
  // chain decodes a frame before it places any of it.
  function write(c, band, where) {
    if (c.kind === "fill") {
      fillInPlace(module, fillElement(), placement(c, band, null), band.at, where);
    } else if (c.kind === "decoded") {
      decoder.place(c.opened, placement(c, band, plan.order), band.at, where);
    } else {
      const { data, shape: chunkShape, stride } = c.opened;
      const order = axes[0].virtual ? null : storageOrder(chunkShape, stride);
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if ((!order && !axes[0].virtual) || chunkShape.some((d, i) => d !== za.chunkShape[i])) {
        throw new ZarrCodecError("INVALID_INPUT", `${where()}: zarrita gave a chunk of shape ${JSON.stringify(chunkShape)} and strides ${JSON.stringify(stride)}, not a dense chunk of shape ${JSON.stringify(za.chunkShape)}`);
      }
      copyInPlace(module, bytes, placement(c, band, order && order.length ? order : null), band.at, where);
    }
  }

  function place(c, band) {
    if (c.reopening) {
      c.reopening.push(band);
      return;
    }
    // Messages name the chunk; its key is made only for one.
    const where = () => chunkWhere(arr, plan, c.coords);
    try {
      write(c, band, where);
    } catch (error) {
      if (c.kind === "decoded" && decoder.reopen && error?.code === "UNSUPPORTED_CODEC") {
        reopen(c, band, error);
        return;
      }
      const named = withWhere(error, where());
      if (c.kind === "fill" || !failures?.absorb(c, named)) throw named;
      // Failed under chunkErrors: "fill": this band and the chunk's others
      // get the fill.
      c.kind = "fill";
      c.opened = undefined;
      write(c, band, where);
    }
    band.chunksLeft -= 1;
    if (--c.usesLeft === 0) {
      c.opened = undefined;
      placed(c);
    }
  }

  // A frame the wasm chain refused as one it does not take (snappy inside
  // blosc) is decoded again, asynchronously, by the compressor register()
  // replaced (chunk-decoder.js), then placed into each band that reached
  // for it meanwhile.
  const reopenings = new Set();
  function reopen(c, band, refusal) {
    c.reopening = [band];
    const task = (async () => {
      const opened = await decoder.reopen(c.opened, refusal);
      if (ending.failed) return;
      signal?.throwIfAborted();
      const waiting = c.reopening;
      c.opened = opened;
      c.reopening = undefined;
      for (const b of waiting) place(c, b);
      pump();
    })()
      .catch((error) => ending.fail(withWhere(error, chunkWhere(arr, plan, c.coords))))
      .finally(() => reopenings.delete(task));
    reopenings.add(task);
  }

  // Bands that are complete are copied out and freed; then as many as
  // fit come alive, taking the chunks that were waiting for them.
  function pump() {
    let progress = true;
    while (progress) {
      progress = false;
      for (let i = 0; i < next; i++) {
        const band = bands[i];
        if (band.state !== "alive" || band.chunksLeft > 0) continue;
        // A transferred `into` has no bytes left to write to.
        if (outBytes.byteLength !== outLength) throw detached();
        copyBandOut(module, band.at, band.bytes, outBytes, band.r0 * rowBytes);
        retire(band);
        if (--bandsLeft === 0) allPlaced();
        progress = true;
      }
      while (!cancelWait && next < bands.length && (alive === 0 || alive + bands[next].bytes <= LIVE_BYTES)) {
        const band = bands[next];
        if (!tryTake(band.bytes)) {
          // Its turn in the budget: the band comes alive when granted.
          cancelWait = request(band.bytes, {
            signal,
            granted() {
              cancelWait = undefined;
              if (ending.failed) {
                give(band.bytes);
                return;
              }
              try {
                next += 1;
                bringAlive(band);
                pump();
              } catch (error) {
                ending.fail(error);
              }
            },
            aborted(reason) {
              cancelWait = undefined;
              ending.fail(reason);
            },
          });
          // On to the bands completed meanwhile: freeing them is what
          // lets this one (or another read's) through.
          break;
        }
        next += 1;
        bringAlive(band);
        progress = true;
      }
    }
  }

  // A band whose bytes were taken from the budget: allocated, and the
  // chunks that arrived before it placed into it.
  function bringAlive(band) {
    try {
      band.at = allocateBand(module, band.bytes);
    } catch (error) {
      give(band.bytes);
      band.state = "done";
      throw error;
    }
    band.state = "alive";
    alive += band.bytes;
    const waiting = band.waiting;
    band.waiting = [];
    for (const c of waiting) place(c, band);
  }

  // A band freed and its bytes given back.
  function retire(band) {
    freeBand(module, band.at);
    band.state = "done";
    alive -= band.bytes;
    give(band.bytes);
  }

  return {
    begin() {
      // The instance is held (not replaced: wasm/recycle.js) while its
      // memory holds this read's bands: from here, with no await since
      // `module`.
      release = hold();
      pump(); // the first bands come alive before any chunk arrives
    },
    deliver(c, decoded) {
      c.kind = decoded.kind;
      c.opened = decoded.kind === "decoded" ? decoded.opened : decoded.chunk;
      if (!decoded.fromCache) countRead(c.kind === "fill" ? "filled" : c.kind === "decoded" ? (decoder.kind === "codec" || decoder.kind === "values" ? "decoded" : decoder.kind === "n5" ? "n5" : "copied") : "viaZarrita");
      if (c.kind === "decoded" && (decoder.inWasm || c.opened?.compressed)) countRead("decompressed");
      for (const b of c.bands) {
        const band = bands[b];
        if (band.state === "alive") place(c, band);
        else band.waiting.push(c);
      }
      pump();
    },
    async settle(failure) {
      while (reopenings.size > 0 && !ending.failed) await Promise.race([Promise.all(reopenings), failure]);
      if (ending.failed) return;
      // Every chunk has arrived; bands still waiting for their bytes of the
      // budget are placed as they get them.
      await Promise.race([placedAll, failure]);
    },
    end() {
      cancelWait?.();
      cancelWait = undefined;
      for (const band of bands) {
        if (band.state === "alive") retire(band);
        band.state = "done";
      }
      release?.();
    },
  };
}

