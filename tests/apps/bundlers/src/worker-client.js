// The page's side of its module Web Worker: one request at a time, the
// answer or the worker's error.
export function ask(worker, message) {
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(`worker: ${data.error}`)) : resolve(data.result));
    worker.onerror = (event) => reject(new Error(`worker failed to load: ${event.message}`));
    worker.postMessage(message);
  });
}

// The worker's side: runs `handle` on each message and posts the result.
export function serveRequests(handle) {
  self.onmessage = async ({ data }) => {
    try {
      self.postMessage({ result: await handle(data) });
    } catch (error) {
      self.postMessage({ error: `${error.code ?? error.name}: ${error.message}` });
    }
  };
}

// What this page or worker fetched (its Resource Timing entries), as
// paths; a worker's own script too, which its page's entries list.
export function fetchedPaths() {
  const paths = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
  return typeof document === "undefined" ? [self.location.pathname, ...paths] : paths;
}
