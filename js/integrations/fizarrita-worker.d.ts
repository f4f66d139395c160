// zarr-codecs-wasm/fizarrita-worker is a worker script, not a library: it
// exports nothing. Give its URL to fizarrita's getWorker/setWorker as
// `workerUrl` (docs/where-it-runs.md, "fizarrita worker pools").
export {};
