// Placing chunks through bands (bands.js): a band of whole output rows
// lives in wasm memory, every chunk that reaches it is decoded into it by
// the core (read's own decoder: the package's codecs, N5 blocks,
// little-endian bytes copied; zarrita's decoded chunks copied; missing
// chunks filled: band-writes.js), and the band is copied out in one piece.
// Bands come alive as the realm's budget allows (band-schedule.js); a
// chunk that arrives before its band is alive waits in it.
import { wasm } from "../../wasm/load.js";
import { hold } from "../../wasm/recycle.js";
import { chunkWhere, withWhere } from "../chunk-where.js";
import { countDecodedBy, countRead } from "../read-counts.js";
import { bandsOf, layBands } from "./bands.js";
import { bandSchedule } from "./band-schedule.js";
import { bandWriter, outputLayout } from "./band-writes.js";

// Each chunk told the bands its rows reach (`c.bands`, `c.usesLeft`), and
// each band how many chunks it waits for.
function spreadOverBands(chunks, bands, first) {
  for (const c of chunks) {
    const m = c.mapping[first];
    c.bands = bandsOf(bands, m.out, m.out + m.count);
    c.usesLeft = c.bands.length;
    for (const b of c.bands) bands[b].chunksLeft += 1;
  }
}

// Counts a chunk on the path it took, as it arrives (one a chunk cache
// gave was counted by the cache).
function countDelivered(c, decoded, decoder) {
  if (!decoded.fromCache) {
    if (c.kind === "decoded") countDecodedBy(decoder.kind);
    else countRead(c.kind === "fill" ? "filled" : "viaZarrita");
  }
  if (c.kind === "decoded" && (decoder.inWasm || c.opened?.compressed)) countRead("decompressed");
}

/**
 * Chunks placed into alive bands: each band's part written, a chunk that
 * failed under chunkErrors: "fill" filled instead, a frame the wasm chain
 * refused as one it does not take decoded again (`reopen`), and each
 * chunk handed to `placed` once all its bands have it.
 * @returns {{place: (c: object, band: object) => void,
 *   reopened: (failure: Promise<never>) => Promise<void>}}
 */
function chunkPlacing({ arr, plan, signal, failures, ending, write, placed, pump }) {
  const { decoder } = plan;

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

  return {
    place,
    // Until every chunk decoded again is placed (or the read failed).
    async reopened(failure) {
      while (reopenings.size > 0 && !ending.failed) await Promise.race([Promise.all(reopenings), failure]);
    },
  };
}

/**
 * @param {import("./placer.js").PlaceContext} ctx
 * @returns {import("./placer.js").Placer}
 */
export function bandPlacer({ arr, plan, axes, chunks, out, signal, placed, failures, ending }) {
  const module = wasm();
  const layout = outputLayout(axes, plan.elementBytes);
  const bands = layBands(axes[layout.first].chunks, layout.rowBytes);
  spreadOverBands(chunks, bands, layout.first);
  const write = bandWriter({ module, plan, axes, layout });
  const placing = chunkPlacing({ arr, plan, signal, failures, ending, write, placed, pump: () => schedule.pump() });
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const output = { bytes: outBytes, length: outBytes.byteLength, rowBytes: layout.rowBytes };
  const schedule = bandSchedule({ module, bands, output, signal, ending, place: placing.place });
  let release;

  return {
    begin() {
      // The instance is held (not replaced: wasm/recycle.js) while its
      // memory holds this read's bands: from here, with no await since
      // `module`.
      release = hold();
      schedule.pump(); // the first bands come alive before any chunk arrives
    },
    deliver(c, decoded) {
      c.kind = decoded.kind;
      c.opened = decoded.kind === "decoded" ? decoded.opened : decoded.chunk;
      countDelivered(c, decoded, plan.decoder);
      for (const b of c.bands) {
        const band = bands[b];
        if (band.state === "alive") placing.place(c, band);
        else band.waiting.push(c);
      }
      schedule.pump();
    },
    async settle(failure) {
      await placing.reopened(failure);
      if (ending.failed) return;
      // Every chunk has arrived; bands still waiting for their bytes of the
      // budget are placed as they get them.
      await Promise.race([schedule.placedAll, failure]);
    },
    end() {
      schedule.end();
      release?.();
    },
  };
}
