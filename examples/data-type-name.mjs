// A data type as metadata names it, in one line for people: names as they
// are, a struct as its fields ("struct {x: float32, label:
// fixed_length_utf32 (32 B)}"), nested structs nested. The demo, the Node
// example and the viewer's info panel print types this way.

/** @param {unknown} spec a Zarr v3 data type (name or object form), or a v2 dtype */
export function dataTypeName(spec) {
  if (typeof spec === "string") return spec;
  if (Array.isArray(spec)) {
    // A Zarr v2 structured dtype: [name, dtype, shape?] entries.
    return `structured {${spec.map(([name, type, shape]) => `${name}: ${dataTypeName(type)}${shape ? ` [${shape}]` : ""}`).join(", ")}}`;
  }
  const { name, configuration } = spec ?? {};
  if ((name === "struct" || name === "structured") && Array.isArray(configuration?.fields)) {
    const fields = configuration.fields.map((f) => (Array.isArray(f) ? { name: f[0], data_type: f[1] } : f));
    return `${name} {${fields.map((f) => `${f.name}: ${dataTypeName(f.data_type)}`).join(", ")}}`;
  }
  if (configuration?.length_bytes !== undefined) return `${name} (${configuration.length_bytes} B)`;
  if (configuration?.unit !== undefined) return `${name} (${configuration.scale_factor ?? 1} ${configuration.unit})`;
  return String(name);
}
