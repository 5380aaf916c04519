// The memory snapshot as the two workers keep and read it: one file for the
// service worker, which writes the sparse form (a classic script:
// importScripts), and the engine's worker, which reads it (a module:
// `import "./runtime/snapshotformat.js"`). So it exports nothing and sets
// self.ginSnapshotFormat, like wasmdata.js.
//
// The forms of one snapshot (build.py memory_snapshot writes the first):
//   served   gzip -9 of the memory XORed with the wasm's data segments
//            (snapshot.url; its hash: integrity)
//   decoded  the same, gunzipped by a host that sent it with
//            Content-Encoding (xor_integrity)
//   whole    the memory itself, XOR undone (raw_integrity, raw_size long):
//            what Pyodide restores; an older build's cache kept it so
//   sparse   the whole without its 64 KB pages of zeros (half of its 31 MB),
//            each run of pages after a table of where it goes:
//              "GINSPARS" | u32 size | u32 page size | u32 runs
//              | per run: u32 first page, u32 pages | the runs' bytes, in order
//            (u32 little-endian). How the service worker keeps it
//            (snapshot.raw_url), with the build's hash of the whole it was
//            checked to rebuild (INTEGRITY_HEADER, which every file the
//            service worker keeps carries) and the hash of the sparse bytes
//            themselves (SPARSE_INTEGRITY_HEADER). A repeat visit reads and
//            hashes half as much.
(() => {
  const SPARSE_MAGIC = "GINSPARS";
  const SPARSE_PAGE = 65536;
  const SPARSE_HEADER = 20; // magic, size, page size, runs

  // A copy that cannot be booted, and why (reason: a stable code the boot's
  // timings report as snapshot_fallback).
  class SnapshotUnusable extends Error {
    constructor(reason, detail = "") {
      super(`${reason}${detail ? `: ${detail}` : ""}`);
      this.reason = reason;
    }
  }

  // Subresource-integrity form of the bytes' SHA-256, as the build's manifest writes it.
  async function integrityOf(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    let binary = "";
    for (const byte of digest) binary += String.fromCharCode(byte);
    return "sha256-" + btoa(binary);
  }

  function isGzip(bytes) {
    return bytes[0] === 0x1f && bytes[1] === 0x8b;
  }

  function gunzip(bytes) {
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  }

  function isSparse(stored) {
    if (stored.length < SPARSE_HEADER) return false;
    for (let i = 0; i < SPARSE_MAGIC.length; i++) if (stored[i] !== SPARSE_MAGIC.charCodeAt(i)) return false;
    return true;
  }

  function isZero(bytes, start, end) {
    for (let i = start; i < end; i++) if (bytes[i] !== 0) return false;
    return true;
  }

  // The sparse form of `whole`: only its pages that are not all zeros.
  function sparseOf(whole) {
    const runs = []; // [first page, pages]
    const pages = Math.ceil(whole.length / SPARSE_PAGE);
    for (let page = 0; page < pages; page++) {
      if (isZero(whole, page * SPARSE_PAGE, Math.min(whole.length, (page + 1) * SPARSE_PAGE))) continue;
      const last = runs[runs.length - 1];
      if (last && last[0] + last[1] === page) last[1]++;
      else runs.push([page, 1]);
    }
    const header = SPARSE_HEADER + 8 * runs.length;
    const spans = runs.map(([first, count]) => [first * SPARSE_PAGE, Math.min(whole.length, (first + count) * SPARSE_PAGE)]);
    const out = new Uint8Array(header + spans.reduce((n, [start, end]) => n + end - start, 0));
    const view = new DataView(out.buffer);
    for (let i = 0; i < SPARSE_MAGIC.length; i++) out[i] = SPARSE_MAGIC.charCodeAt(i);
    view.setUint32(8, whole.length, true);
    view.setUint32(12, SPARSE_PAGE, true);
    view.setUint32(16, runs.length, true);
    let at = header;
    runs.forEach(([first, count], i) => {
      view.setUint32(SPARSE_HEADER + 8 * i, first, true);
      view.setUint32(SPARSE_HEADER + 4 + 8 * i, count, true);
      out.set(whole.subarray(spans[i][0], spans[i][1]), at);
      at += spans[i][1] - spans[i][0];
    });
    return out;
  }

  // The sparse form made whole again in `whole` (all zeros, as long as the
  // snapshot): each run of pages copied to its place. Anything that does not
  // add up is SnapshotUnusable("corrupt").
  function expandSparse(stored, whole) {
    const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
    const size = view.getUint32(8, true);
    const page = view.getUint32(12, true);
    const runs = view.getUint32(16, true);
    if (size !== whole.length || !page || SPARSE_HEADER + 8 * runs > stored.length) throw new SnapshotUnusable("corrupt", "sparse header");
    let at = SPARSE_HEADER + 8 * runs;
    let next = 0; // runs come in order and never overlap
    for (let i = 0; i < runs; i++) {
      const start = view.getUint32(SPARSE_HEADER + 8 * i, true) * page;
      const end = Math.min(size, start + view.getUint32(SPARSE_HEADER + 4 + 8 * i, true) * page);
      if (start < next || end <= start || at + end - start > stored.length) throw new SnapshotUnusable("corrupt", `sparse run ${i}`);
      whole.set(stored.subarray(at, at + end - start), start);
      at += end - start;
      next = end;
    }
    if (at !== stored.length) throw new SnapshotUnusable("corrupt", "sparse length");
    return whole;
  }

  // Where a snapshot's failures are noted: the engine's worker notes each
  // copy that failed (and deletes it, so the next visit fetches a fresh
  // one); neither worker fetches a build's snapshot that failed
  // MAX_FAILURES times (the next build has a new snapshot and a clean note).
  // The service worker drops the notes of older builds' snapshots.
  const MAX_FAILURES = 2;

  // Cache Storage is shared by the whole origin, so every cache's name ends
  // with the path of the copy of the game it belongs to (issue 36, item 11):
  // two copies at different paths (/gin/ and /gin-beta/) never delete or
  // take each other's caches. `scope`: the service worker's scope, which is
  // also the folder of worker.js. Names from before this (no "@") are
  // another build's of some copy: sw.js drops them only when they are this
  // copy's.
  function cacheNames(scope) {
    const at = "@" + new URL(scope).pathname;
    return {
      at,
      build: (version) => `gin-${version}${at}`, // a build's precache
      staging: `gin-staging${at}`, // a first visit's fetches, for the precache (staging.js)
      notes: `gin-snapshot-notes${at}`, // the snapshots that failed (notePath)
    };
  }

  // The note's path (beside the build's files) for the snapshot served at `path`.
  function notePath(path) {
    return `snapshot-failures/${path.slice(path.lastIndexOf("/") + 1)}`;
  }

  self.ginSnapshotFormat = {
    SnapshotUnusable,
    integrityOf,
    isGzip,
    gunzip,
    isSparse,
    sparseOf,
    expandSparse,
    INTEGRITY_HEADER: "x-gin-integrity",
    SPARSE_INTEGRITY_HEADER: "x-gin-sparse-integrity",
    cacheNames,
    MAX_FAILURES,
    notePath,
  };
})();
