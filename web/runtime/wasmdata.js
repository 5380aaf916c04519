// The memory snapshot ships with its memory XORed with the wasm's active
// data segments (build.py xor_wasm_data): the static data a running
// interpreter barely changes become zeros, 1.5 MB less gzip on the wire.
// xorWasmData undoes it, in place. One file for the engine's worker (a
// module: `await import("./runtime/wasmdata.js")`) and the service worker (a classic
// script: importScripts), so it exports nothing and sets self.ginWasmData.
(() => {
  function leb128(bytes, at, signed = false) {
    let value = 0;
    let scale = 1;
    let byte;
    do {
      byte = bytes[at.i++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return signed && byte & 0x40 ? value - scale : value;
  }

  // XOR memory (the snapshot past its header) with the wasm's active data
  // segments, in place.
  function xorWasmData(snapshot, wasm) {
    const base = new DataView(snapshot.buffer, snapshot.byteOffset).getUint32(4, true);
    const at = { i: 8 };
    while (at.i < wasm.length) {
      const section = wasm[at.i++];
      const size = leb128(wasm, at);
      const end = at.i + size;
      if (section === 11) {
        for (let count = leb128(wasm, at); count > 0; count--) {
          const flags = leb128(wasm, at);
          if (flags === 1) {
            at.i += leb128(wasm, at); // passive
            continue;
          }
          if (flags === 2) leb128(wasm, at);
          if (wasm[at.i++] !== 0x41) throw new Error("wasm data offset not constant");
          const offset = leb128(wasm, at, true);
          at.i++; // end
          const length = leb128(wasm, at);
          const start = base + offset;
          if (start + length > snapshot.length) throw new Error("wasm data past the snapshot");
          for (let k = 0; k < length; k++) snapshot[start + k] ^= wasm[at.i + k];
          at.i += length;
        }
      }
      at.i = end;
    }
    return snapshot;
  }

  self.ginWasmData = { xorWasmData };
})();
