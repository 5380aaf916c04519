// Runs web/runtime/snapshotformat.js both ways the browser loads it: as a
// classic script, the way the service worker's importScripts() does (it
// writes the sparse form), and as a module, the way the engine's worker
// imports it (it reads the sparse form back). tests/test_snapshot_format.py
// hands it snapshots to write and read, and checks what comes back.
//
// usage: node tests/snapshot_format.mjs <cases dir>
//   <cases dir>/whole-<n>.bin   memories to write sparse and read back
//   <cases dir>/stored-<n>.bin  stored copies to read (corrupt ones among them)
//   <cases dir>/packed.gz       a gzip file to recognise and decode
// writes <cases dir>/result.json and <cases dir>/sparse-<n>.bin (what the
// service worker's code wrote for whole-<n>.bin).

import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const source = await readFile(path.join(here, "..", "web", "runtime", "snapshotformat.js"), "utf8");
const [dir] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node tests/snapshot_format.mjs <cases dir>");
  process.exit(2);
}

// The service worker's way: a classic script in a global of its own.
const swGlobal = vm.createContext({ crypto, btoa, Response, Blob, DecompressionStream });
swGlobal.self = swGlobal;
vm.runInContext(source, swGlobal, { filename: "snapshotformat.js (classic)" });
const written = swGlobal.self.ginSnapshotFormat;

// The engine's worker's way: a module, imported for its side effect.
globalThis.self = globalThis;
await import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
const read = globalThis.self.ginSnapshotFormat;
if (read === written) throw new Error("the two ways share one global: nothing is checked");

const same = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const bytesOf = (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
const names = (await readdir(dir)).sort();
const result = { round_trips: {}, stored: {}, gzip: {} };

for (const name of names.filter((n) => n.startsWith("whole-"))) {
  const whole = bytesOf(await readFile(path.join(dir, name)));
  const sparse = written.sparseOf(whole);
  await writeFile(path.join(dir, name.replace("whole-", "sparse-")), sparse);
  const back = read.expandSparse(sparse, new Uint8Array(whole.length));
  result.round_trips[name] = {
    is_sparse: read.isSparse(sparse),
    same_bytes: same(back, whole),
    written_integrity: await written.integrityOf(sparse),
    read_integrity: await read.integrityOf(sparse),
    whole_integrity: await read.integrityOf(whole),
  };
}

for (const name of names.filter((n) => n.startsWith("stored-"))) {
  const stored = bytesOf(await readFile(path.join(dir, name)));
  const outcome = { is_sparse: read.isSparse(stored) };
  if (outcome.is_sparse) {
    const size = new DataView(stored.buffer, stored.byteOffset).getUint32(8, true);
    try {
      read.expandSparse(stored, new Uint8Array(size));
      outcome.read = "whole";
    } catch (err) {
      outcome.read = err instanceof read.SnapshotUnusable ? err.reason : `not SnapshotUnusable: ${err}`;
    }
  }
  result.stored[name] = outcome;
}

const packed = bytesOf(await readFile(path.join(dir, "packed.gz")));
result.gzip = {
  packed_is_gzip: read.isGzip(packed) && written.isGzip(packed),
  plain_is_gzip: read.isGzip(new TextEncoder().encode("GINSPARS")),
  gunzipped: Buffer.from(await read.gunzip(packed)).toString("latin1"),
};
result.notes = { max_failures: read.MAX_FAILURES, note: read.notePath("snapshot/abc.bin.gz") };
// Two copies of the game at different paths of one origin: their caches never share a name.
result.names = ["http://h/", "http://h/gin/", "http://h/gin-beta/"].map((scope) => { const n = read.cacheNames(scope); return [n.build("v1"), n.staging, n.notes]; });
await writeFile(path.join(dir, "result.json"), JSON.stringify(result));
