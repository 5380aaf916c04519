"""The memory snapshot's codec on the build's side: its memory XORed with the
WebAssembly module's data segments (web/wasmdata.js undoes it in the page)."""

from __future__ import annotations

import struct


def _leb128(data: bytes, i: int, signed: bool = False) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, i


def wasm_data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of a WebAssembly module, (memory offset,
    bytes): what instantiating it writes into a fresh memory."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    segments = []
    i = 8
    while i < len(wasm):
        section = wasm[i]
        size, i = _leb128(wasm, i + 1)
        end = i + size
        if section == 11:  # data
            count, j = _leb128(wasm, i)
            for _ in range(count):
                flags, j = _leb128(wasm, j)
                if flags == 1:  # passive: not written at instantiation
                    length, j = _leb128(wasm, j)
                    j += length
                    continue
                if flags == 2:
                    _, j = _leb128(wasm, j)  # memory index
                if wasm[j] != 0x41:  # i32.const
                    raise ValueError(f"data segment offset by opcode {wasm[j]:#x}")
                offset, j = _leb128(wasm, j + 1, signed=True)
                if wasm[j] != 0x0B:
                    raise ValueError("data segment offset is not a constant")
                length, j = _leb128(wasm, j + 1)
                segments.append((offset, wasm[j:j + length]))
                j += length
        i = end
    return segments


def snapshot_header_size(snapshot: bytes) -> int:
    """Where the memory starts in a Pyodide memory snapshot (its second
    32-bit word, as Pyodide's restoreSnapshot reads it)."""
    if snapshot[:4] != b"\0snp":
        raise ValueError("not a Pyodide memory snapshot")
    return struct.unpack_from("<I", snapshot, 4)[0]


def xor_wasm_data(snapshot: bytes, wasm: bytes) -> bytes:
    """The snapshot with its memory XORed with the wasm's data segments: the
    static data a running interpreter barely changes (3.8 MB, 1.5 MB of the
    snapshot's gzip) become zeros, and the page, which has the wasm anyway,
    undoes it (worker.js). The same call undoes it here."""
    out = bytearray(snapshot)
    base = snapshot_header_size(snapshot)
    for offset, data in wasm_data_segments(wasm):
        start = base + offset
        part = int.from_bytes(out[start:start + len(data)], "little") ^ int.from_bytes(data, "little")
        out[start:start + len(data)] = part.to_bytes(len(data), "little")
    return bytes(out)

