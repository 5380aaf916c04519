"""A phone-class CPU for a whole browser: its processes in a CPU cgroup with a quota.

Chromium's DevTools throttling (Emulation.setCPUThrottlingRate) slows the page
only: it answers "Operation is only supported for pages, not workers" for a
dedicated worker (Chromium 156), and the engine runs in one. So the bench puts
the browser itself (the process that has `marker` in its command line, and
every process under it: the zygotes, hence every renderer forked later) in a
cgroup whose CPU quota is QUOTA_MS per 100 ms of one core: each thread of the
browser runs at most that share of a core, all of them together too. With
25 ms that is at least 4x slower than one idle core for every thread, and
harsher than DevTools' x4 for work that runs in parallel (the page, the worker,
the wasm's background compilation share that quarter).

Needs Linux, root and a writable cgroup (v1 `cpu` or v2 `cpu.max`); otherwise
`Throttle.start` returns None and the bench says the throttled part was not run.
"""

from __future__ import annotations

import os
from pathlib import Path

PERIOD_US = 100_000
QUOTA_MS = 25
NAME = "gin-bench-throttle"


def _read_each(name: str):
    """(pid, bytes of /proc/<pid>/<name>) for every process still there to read."""
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                yield int(proc.name), (proc / name).read_bytes()
            except OSError:
                continue


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for pid, stat in _read_each("stat"):
        ppid = int(stat.rsplit(b")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(pid)
    return tree


def _browser_pids(marker: str) -> list[int]:
    roots = [pid for pid, cmd in _read_each("cmdline") if marker.encode() in cmd and b"--type=" not in cmd]
    tree = _children()
    out, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(tree.get(pid, []))
    return out


class Throttle:
    def __init__(self, folder: Path, procs: Path) -> None:
        self.folder = folder
        self.procs = procs

    @classmethod
    def start(cls, quota_ms: int = QUOTA_MS) -> "Throttle | None":
        for base, v2 in ((Path("/sys/fs/cgroup/cpu"), False), (Path("/sys/fs/cgroup"), True)):
            folder = base / NAME
            try:
                if v2 and not (base / "cgroup.controllers").exists():
                    continue
                folder.mkdir(exist_ok=True)
                if v2:
                    (folder / "cpu.max").write_text(f"{quota_ms * 1000} {PERIOD_US}")
                else:
                    (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                    (folder / "cpu.cfs_quota_us").write_text(str(quota_ms * 1000))
                return cls(folder, folder / "cgroup.procs")
            except OSError:
                continue
        return None

    def enter(self, marker: str) -> int:
        """Move the browser started with `marker` and its processes in; returns how many."""
        moved = 0
        for pid in _browser_pids(marker):
            try:
                self.procs.write_text(str(pid))
                moved += 1
            except OSError:
                pass  # gone already
        return moved

    def stop(self) -> None:
        parent = self.folder.parent / "cgroup.procs"
        try:
            for pid in self.procs.read_text().split():
                try:
                    parent.write_text(pid)
                except OSError:
                    pass
            os.rmdir(self.folder)
        except OSError:
            pass
