// The info panel's words for an array's codecs: the chain as the metadata
// says it, "packbits {"last_bit":11} -> gzip {"level":5}", codecs that
// hold codecs (sharding_indexed, n5_default) with theirs in brackets.

function describeCodec({ name, configuration }) {
  if (Array.isArray(configuration?.codecs)) {
    const { codecs, ...rest } = configuration;
    const own = Object.keys(rest).length ? ` ${JSON.stringify(rest.chunk_shape ?? rest)}` : "";
    return `${name}${own} [${codecs.map(describeCodec).join(" -> ")}]`;
  }
  const config = configuration && Object.keys(configuration).length ? ` ${JSON.stringify(configuration)}` : "";
  return `${name}${config}`;
}

/** @param {{version: 2 | 3, doc: object}} stored */
export function codecChain({ version, doc }) {
  if (version === 3) return doc.codecs.map(describeCodec).join(" -> ");
  const parts = (doc.filters ?? []).map(({ id, ...config }) => describeCodec({ name: id, configuration: config }));
  if (doc.compressor) {
    const { id, ...config } = doc.compressor;
    parts.push(describeCodec({ name: id, configuration: config }));
  }
  return parts.length ? `v2: ${parts.join(" -> ")}` : "v2: no filters or compressor";
}

/** The packbits configuration of a v3 chain (inside sharding too), or undefined. */
export function findPackBits(codecs) {
  for (const { name, configuration } of codecs) {
    if (name === "packbits") return configuration ?? {};
    if (name === "sharding_indexed") return findPackBits(configuration.codecs);
  }
  return undefined;
}
