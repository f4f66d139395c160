// Where zarrita's own error reaches the user through the package's paths,
// it says what to do: a store with nothing at a path names the path (and
// the URL a FetchStore would fetch), an unknown codec names the array, the
// codec and which package registers it.
import { beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { memoryStore, rejectionOf, v3Array } from "../support/memory-store.js";
import { ZARRITAS } from "../support/zarritas.js";

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
});

describe.each(ZARRITAS)("zarrita %s", (_version, z) => {
  const store = () =>
    memoryStore([
      ["/zarr.json", { zarr_format: 3, node_type: "group", attributes: {} }],
      ["/image/zarr.json", v3Array({ shape: [2] })],
      ["/image/c/0", Uint8Array.of(1, 2)],
      ["/old/.zarray", { zarr_format: 2, shape: [2], chunks: [2], dtype: "|u1", order: "C", compressor: null, filters: null, fill_value: 0 }],
      ["/lzma/zarr.json", v3Array({ shape: [2], codecs: [{ name: "bytes" }, { name: "lzma_made_up", configuration: {} }] })],
      ["/lzma/c/0", Uint8Array.of(1, 2)],
    ]);

  test("a path with no node names the path; a v2 array, a v3 array and the root still open", async () => {
    const typed = withDataTypes(store());
    for (const kind of ["array", "group", undefined]) {
      const error = await rejectionOf(z.open(z.root(typed).resolve("imgae"), kind ? { kind } : {}));
      expect(error.code).toBe("NOT_FOUND");
      expect(error.message).toBe(
        "withDataTypes: no Zarr array or group at /imgae: the store has no zarr.json, .zarray, .zgroup there; check the store's URL or folder " +
          "and the path (the path is relative to the store's root, the folder that holds the root's zarr.json or .zgroup)",
      );
    }
    expect((await z.open(z.root(typed).resolve("image"), { kind: "array" })).shape).toEqual([2]);
    expect((await z.open(z.root(typed).resolve("old"), { kind: "array" })).shape).toEqual([2]);
    expect((await z.open(z.root(typed), { kind: "group" })).path).toBe("/");
  });

  test("an unknown codec names the array and the codec, through read", async () => {
    const arr = await z.open(z.root(withDataTypes(store())).resolve("lzma"), { kind: "array" });
    const error = await rejectionOf(read(arr));
    expect(error.code).toBe("UNKNOWN_CODEC");
    expect(error.message).toBe(
      'read: array /lzma names the codec "lzma_made_up", which is in no codec registry of the zarrita that opened it; no JavaScript package we know of registers it; ' +
        "a codec class registered under that name (zarr.registry.set(name, loader)) would read it",
    );
  });
});

test("the URL a FetchStore asks for is named", async () => {
  // A FetchStore on a server that answers 404 to everything.
  const server = await import("node:http").then(({ createServer }) => createServer((_, res) => res.writeHead(404).end()));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/data.zarr`;
    const error = await rejectionOf(zarr.open(zarr.root(withDataTypes(new zarr.FetchStore(url))).resolve("a/b"), { kind: "array" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toMatch(new RegExp(`^withDataTypes: no Zarr array or group at /a/b \\(${url.replace(/[.]/g, "\\.")}/a/b/\\): `));
  } finally {
    server.close();
  }
});

test("an unknown codec through zarr.get (zarrita 0.7: withDataTypes' array extension)", async () => {
  const typed = withDataTypes(
    memoryStore([
      ["/a/zarr.json", v3Array({ shape: [2], codecs: [{ name: "bytes" }, { name: "lzma", configuration: {} }] })],
      ["/a/c/0", Uint8Array.of(1, 2)],
    ]),
  );
  const error = await rejectionOf(zarr.get(await zarr.open(zarr.root(typed).resolve("a"), { kind: "array" })));
  expect(error.code).toBe("UNKNOWN_CODEC");
  expect(error.message).toMatch(/^withDataTypes: array \/a names the codec "lzma", which is in no codec registry of the zarrita that opened it/);
});
