"""The snapshot's stored forms (web/runtime/snapshotformat.js): what the service worker's code writes, the engine's worker's code reads back, byte for byte."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("snapshot_format.mjs")
PAGE = 65536


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def memory(rng: random.Random, pages: list[str], tail: int = 0) -> bytes:
    """A memory of 64 KB pages, each "0" (all zeros), "x" (random bytes) or
    "1" (zeros but for one byte at a random place), then `tail` bytes of a
    page cut short."""
    out = bytearray()
    for kind in pages:
        page = bytearray(PAGE)
        if kind == "x":
            page[:] = rng.randbytes(PAGE)
        elif kind == "1":
            page[rng.randrange(PAGE)] = rng.randrange(1, 256)
        out += page
    if tail:
        out += rng.randbytes(tail)
    return bytes(out)


def sparse_header(size: int, runs: list[tuple[int, int]]) -> bytes:
    return b"GINSPARS" + struct.pack("<3I", size, PAGE, len(runs)) + b"".join(struct.pack("<2I", *run) for run in runs)


def expand(stored: bytes) -> bytes:
    """The sparse form read as its comment in snapshotformat.js describes it,
    apart from the JavaScript that reads it."""
    assert stored[:8] == b"GINSPARS"
    size, page, runs = struct.unpack_from("<3I", stored, 8)
    table = struct.iter_unpack("<2I", stored[20:20 + 8 * runs])
    body = memoryview(stored)[20 + 8 * runs:]
    whole = bytearray(size)
    for first, count in table:
        start = first * page
        span = min(size, start + count * page) - start
        whole[start:start + span], body = body[:span], body[span:]
    assert not body, "bytes past the last run"
    return bytes(whole)


@pytest.fixture(scope="module")
def formats(tmp_path_factory) -> tuple[Path, dict, dict[str, bytes]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run the snapshot format's code")
    rng = random.Random(37)
    cases = tmp_path_factory.mktemp("snapshot-format")
    wholes = {
        "whole-1-zeros.bin": memory(rng, ["0", "0", "0"]),
        "whole-2-full.bin": memory(rng, ["x", "x"]),
        "whole-3-mixed.bin": memory(rng, ["x", "0", "0", "1", "x", "x", "0", "1", "0"]),
        "whole-4-tail.bin": memory(rng, ["0", "x", "0"], tail=1000),
        "whole-5-tail-zero.bin": memory(rng, ["x", "0"]) + bytes(300),
        "whole-6-short.bin": rng.randbytes(100),
    }
    for name, data in wholes.items():
        (cases / name).write_bytes(data)
    good = b"".join(rng.randbytes(PAGE) for _ in range(2))
    stored = {
        # one run of two pages, then the last page on its own
        "stored-1-good.bin": sparse_header(4 * PAGE, [(0, 2), (3, 1)]) + good + good[:PAGE],
        "stored-2-overlap.bin": sparse_header(4 * PAGE, [(1, 2), (2, 1)]) + good + good[:PAGE],
        "stored-3-short.bin": sparse_header(4 * PAGE, [(0, 2)]) + good[:-1],
        "stored-4-long.bin": sparse_header(4 * PAGE, [(0, 2)]) + good + b"\0",
        "stored-5-past-the-end.bin": sparse_header(2 * PAGE, [(1, 2)]) + good,
        "stored-6-no-page.bin": b"GINSPARS" + struct.pack("<3I", PAGE, 0, 0),
        "stored-7-whole.bin": good,
        "stored-8-no-header.bin": b"GINSPARS" + bytes(4),
    }
    for name, data in stored.items():
        (cases / name).write_bytes(data)
    (cases / "packed.gz").write_bytes(gzip.compress("a snapshot, gzip -9".encode(), compresslevel=9))
    proc = subprocess.run([node, str(RUNNER), str(cases)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return cases, json.loads((cases / "result.json").read_text()), wholes


def test_what_the_service_worker_writes_the_worker_reads_back_byte_for_byte(formats):
    cases, result, wholes = formats
    assert set(result["round_trips"]) == set(wholes)
    for name, whole in wholes.items():
        got = result["round_trips"][name]
        sparse = (cases / name.replace("whole-", "sparse-")).read_bytes()
        assert got["is_sparse"], name
        assert got["same_bytes"], name
        # The format is the one its comment describes (read here apart from the JavaScript) ...
        assert expand(sparse) == whole, name
        # ... and both ways of loading the code hash alike, as the manifest does.
        assert got["written_integrity"] == got["read_integrity"] == sri(sparse), name
        assert got["whole_integrity"] == sri(whole), name


def test_the_sparse_form_leaves_out_exactly_the_pages_of_zeros(formats):
    cases, _, wholes = formats
    for name, whole in wholes.items():
        sparse = (cases / name.replace("whole-", "sparse-")).read_bytes()
        pages = [whole[i:i + PAGE] for i in range(0, len(whole), PAGE)]
        kept = [page for page in pages if any(page)]
        runs = struct.unpack_from("<I", sparse, 16)[0]
        assert len(sparse) == 20 + 8 * runs + sum(len(page) for page in kept), name
    mixed = (cases / "sparse-3-mixed.bin").read_bytes()
    # pages x 0 0 1 x x 0 1 0: runs at 0 (1 page), 3 (3 pages), 7 (1 page)
    assert struct.unpack_from("<3I6I", mixed, 8) == (9 * PAGE, PAGE, 3, 0, 1, 3, 3, 7, 1)


def test_a_stored_copy_that_does_not_add_up_is_corrupt(formats):
    _, result, _ = formats
    stored = result["stored"]
    assert stored["stored-1-good.bin"] == {"is_sparse": True, "read": "whole"}
    for name in ("stored-2-overlap.bin", "stored-3-short.bin", "stored-4-long.bin", "stored-5-past-the-end.bin", "stored-6-no-page.bin"):
        assert stored[name] == {"is_sparse": True, "read": "corrupt"}, name
    # Neither a whole copy nor a magic without its header is taken for sparse.
    assert stored["stored-7-whole.bin"] == {"is_sparse": False}
    assert stored["stored-8-no-header.bin"] == {"is_sparse": False}


def test_gzip_is_recognised_and_decoded_and_the_notes_are_shared(formats):
    _, result, _ = formats
    assert result["gzip"] == {"packed_is_gzip": True, "plain_is_gzip": False, "gunzipped": "a snapshot, gzip -9"}
    assert result["notes"] == {"max_failures": 2, "note": "snapshot-failures/abc.bin.gz"}


def test_each_copy_of_the_game_names_its_caches_by_its_path(formats):
    """Issue 36, item 11: Cache Storage is the origin's; a copy at /gin/ and one at /gin-beta/
    (or at /) must never share a cache name, or one's activation deletes the other's cache."""
    _, result, _ = formats
    names = result["names"]
    assert names[1] == ["gin-v1@/gin/", "gin-staging@/gin/", "gin-snapshot-notes@/gin/"], names
    every = [n for copy in names for n in copy]
    assert len(set(every)) == len(every), names
