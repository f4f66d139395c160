// zarr-codecs-wasm/fizarrita-worker is a worker script, not a library: it
// exports nothing. Give its URL to fizarrita's getWorker/setWorker as
// `workerUrl` (see the README's fizarrita recipe).
export {};
