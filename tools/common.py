"""Paths, logging and the small helpers every part of the build shares."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
# GIN_DIST builds into another directory (tests build changed sources there).
DIST = Path(os.environ.get("GIN_DIST", ROOT / "dist")).resolve()
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kw)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sri(data: bytes) -> str:
    """Subresource-integrity form of a SHA-256, as fetch({integrity}) checks it."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def cache_key(*parts: bytes | str) -> str:
    """A hash of the parts, each length-prefixed (no two lists of parts collide)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def prune(folder: Path, keep: set[str], spare: int = 3) -> None:
    """Forget cached results of earlier inputs but the `spare` most recent
    (keeps .cache/ from growing; a test's build of changed sources does not
    evict the tree's own)."""
    for path in keep:
        os.utime(folder / path)
    others = sorted((p for p in folder.iterdir() if p.name not in keep), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in others[spare:]:
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
