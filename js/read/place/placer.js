// What every placer of read's place stage is (value-placer.js,
// direct-placer.js, band-placer.js, and a pool's workers on their side):
// read's driver (../run-chunks.js) hands it each chunk once, after the
// fetch and decode stages, and waits for it to settle.

/**
 * @typedef {object} PlaceContext
 * @property {object} arr      the zarrita Array
 * @property {import("../plan/plan.js").Plan} plan
 * @property {object[]} axes   the resolved selection (selection/selection.js)
 * @property {import("../selection/chunks.js").ChunkTask[]} chunks
 * @property {ArrayLike<unknown> & {buffer?: ArrayBufferLike}} out  the output
 * @property {{aborted: boolean, throwIfAborted(): void} | undefined} signal
 * @property {(c: object) => void} placed  once per chunk, when all of it is placed
 * @property {import("../failed-chunks.js").FailedChunks | undefined} failures
 *   chunkErrors: "fill": where a chunk that failed is recorded and filled
 * @property {import("../run-chunks.js").Ending} ending  the read's first failure
 */

/**
 * @typedef {object} Placer
 * @property {() => void} [begin]   before any chunk arrives
 * @property {(c: object, decoded: object) => void} deliver  a chunk the
 *   decode stage made ready (decode/decode-stage.js): placed, or kept until
 *   its place is ready
 * @property {(failure: Promise<never>) => Promise<void>} [settle]  once every
 *   chunk was delivered: until all is placed
 * @property {() => void} [end]     always, last
 * @property {boolean} [direct]     stored bytes are placed as they are (the
 *   decode stage leaves them)
 */

export {};
