"""Firefox and WebKit for the cross-engine set (test_engines.py), behind one small interface.

- ``Firefox``: Debian's firefox-esr, headless, spoken to in WebDriver BiDi, which
  Firefox implements itself (``--remote-debugging-port``): no geckodriver, which
  Debian does not package. The messages travel over PyPI's ``websockets``.
- ``WebKit``: Debian's WebKitWebDriver (classic W3C WebDriver over HTTP, spoken
  with urllib) driving webkit_window.py, a window that is only a WebKitGTK view,
  under an Xvfb of its own.

Both offer: goto, reload, call (a JS function with JSON arguments and result,
awaited), actions (W3C pointer actions, the same in both protocols), screenshot,
viewport, console (the console messages of the pages and their workers since the
last call) and close. The helpers on ``Engine`` (tap, drag, wait) build on them.
"""

from __future__ import annotations

import base64
import json
import os
import platform
import queue
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

WINDOW = Path(__file__).with_name("webkit_window.py")
CALL_TIMEOUT_S = 120


class EngineError(AssertionError):
    pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Engine:
    name = ""

    # --- what each engine implements
    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def _call(self, source: str, args_json: str): ...
    def actions(self, pointer: list[dict]) -> None: ...
    def screenshot(self, path: Path) -> None: ...
    def viewport(self, width: int, height: int) -> None: ...
    def console(self) -> list[str]: ...
    def close(self) -> None: ...

    # --- built on them
    def seed_storage(self, origin: str, key: str, value: str) -> None:
        """localStorage[key] = value on `origin` before the game's first visit,
        from an image of the site (no page script, no service worker)."""
        self.goto(origin + "icons/favicon-32.png")
        self.call("(k, v) => localStorage.setItem(k, v)", key, value)

    def call(self, fn: str, *args):
        """The value (JSON) of the JS function `fn` applied to `args`, awaited."""
        return self._call(fn, json.dumps(list(args)))

    def wait(self, fn: str, *args, timeout_s: float = 60, what: str = ""):
        """Until `fn(...args)` is truthy; returns that value."""
        deadline = time.monotonic() + timeout_s
        while True:
            value = self.call(fn, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise EngineError(f"{self.name}: timed out after {timeout_s}s waiting for {what or fn}")
            time.sleep(0.1)

    def center(self, selector: str) -> tuple[int, int]:
        """A point of the first visible element matching `selector` that reaches it (its centre
        where nothing covers it), scrolled into view."""
        x, y, _ = self.center_and_text(selector)
        return x, y

    def center_and_text(self, selector: str) -> tuple[int, int, str]:
        """center(selector) and that element's text (trimmed), in one round trip."""
        x, y, text = self.wait(_CENTER, selector, timeout_s=30, what=f"a visible {selector}")
        return x, y, text

    def tap(self, selector: str, at: tuple[int, int] | None = None) -> None:
        """A real click (pointer down and up) on the element's centre (`at`: the point center()
        gave for it, not asked again)."""
        x, y = at or self.center(selector)
        self.actions([{"type": "pointerMove", "x": x, "y": y}, {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}])

    def drag(self, source: str, target: str, steps: int = 8) -> None:
        """Press on `source`, move in steps onto `target`, release there."""
        (x0, y0), (x1, y1) = self.center(source), self.center(target)
        moves = [{"type": "pointerMove", "x": x0 + (x1 - x0) * i // steps, "y": y0 + (y1 - y0) * i // steps, "duration": 30} for i in range(1, steps + 1)]
        self.actions([{"type": "pointerMove", "x": x0, "y": y0}, {"type": "pointerDown", "button": 0}, *moves, {"type": "pointerUp", "button": 0}])


# A point of the first visible element matching the selector that reaches it (scrolled into view),
# and its text: [x, y, text], or null while there is none.
_CENTER = """(sel) => {
     const el = [...document.querySelectorAll(sel)].find(e => e.getClientRects().length);
     if (!el) return null;
     el.scrollIntoView({block: "nearest", inline: "nearest"});
     const r = el.getBoundingClientRect();
     const y = Math.round(r.top + r.height / 2);
     // The centre, else the first point along it that reaches this
     // element (a hand card under its neighbour shows a strip).
     const hits = (x) => el.contains(document.elementFromPoint(x, y));
     const mid = Math.round(r.left + r.width / 2);
     const text = el.textContent.trim();
     if (hits(mid)) return [mid, y, text];
     for (let x = Math.ceil(r.left) + 2; x < r.right; x += 3) if (hits(x)) return [x, y, text];
     return [mid, y, text];
   }"""


# --------------------------------------------------------------------------- Firefox


class Firefox(Engine):
    """firefox-esr --headless with WebDriver BiDi on a free port."""

    name = "firefox"
    # Classic scrollbars (as on Windows), so the sheets meet the scrollbar that takes room.
    PREFS = {
        "intl.accept_languages": "es-ES, es",  # a Spanish browser, as the other engines' legs
        "widget.gtk.overlay-scrollbars.enabled": False,
        "browser.shell.checkDefaultBrowser": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "app.update.disabledForTesting": True,
        "browser.safebrowsing.update.enabled": False,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
    }

    def __init__(self, binary: str, width: int, height: int) -> None:
        from websockets.sync.client import connect

        self.profile = Path(tempfile.mkdtemp(prefix="gin-firefox-"))
        (self.profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in self.PREFS.items()))
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-remote", "--profile", str(self.profile), "--remote-debugging-port=0", "--width", str(width), "--height", str(height), "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
        )
        url = self._ws_url(time.monotonic() + 60)
        self.ws = connect(url + "/session", max_size=None, open_timeout=30).__enter__()  # closed in close()
        self._next = 0
        self._answers: dict[int, queue.Queue] = {}
        self._lock = threading.Lock()
        self._logs: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.send("session.new", {"capabilities": {"alwaysMatch": {"unhandledPromptBehavior": {"default": "ignore"}}}})
        self.send("session.subscribe", {"events": ["log.entryAdded"]})
        self.context = self.send("browsingContext.getTree", {})["contexts"][0]["context"]
        self.viewport(width, height)

    def _ws_url(self, deadline: float) -> str:
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if m := re.search(r"WebDriver BiDi listening on (ws://\S+)", line):
                threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
                return m.group(1)
        self.proc.kill()
        raise EngineError("firefox-esr did not start its WebDriver BiDi server: " + "".join(lines[-20:]))

    def _read(self) -> None:
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                if "id" in msg and msg["id"] in self._answers:
                    self._answers[msg["id"]].put(msg)
                elif msg.get("method") == "log.entryAdded":
                    entry = msg["params"]
                    if entry.get("level") in ("warn", "error"):
                        self._logs.append(f"{entry['level']}: {entry.get('text')}")
        except Exception:  # noqa: BLE001 - the socket closed: the session is over
            pass

    def send(self, method: str, params: dict, timeout_s: float = CALL_TIMEOUT_S) -> dict:
        with self._lock:
            self._next += 1
            ident = self._next
            self._answers[ident] = box = queue.Queue()
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        try:
            msg = box.get(timeout=timeout_s)
        except queue.Empty:
            raise EngineError(f"firefox: no answer to {method} in {timeout_s}s") from None
        finally:
            self._answers.pop(ident, None)
        if msg.get("type") == "error":
            raise EngineError(f"firefox: {method}: {msg.get('error')}: {msg.get('message')}")
        return msg["result"]

    def goto(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def _call(self, source: str, args_json: str):
        result = self.send(
            "script.callFunction",
            {
                "functionDeclaration": f"async (json) => JSON.stringify(await ({source})(...JSON.parse(json)))",
                "arguments": [{"type": "string", "value": args_json}],
                "target": {"context": self.context},
                "awaitPromise": True,
                "userActivation": True,
            },
        )
        if result["type"] == "exception":
            raise EngineError(f"firefox: {result['exceptionDetails'].get('text')}")
        value = result["result"]
        return json.loads(value["value"]) if value.get("type") == "string" else None

    def actions(self, pointer: list[dict]) -> None:
        self.send(
            "input.performActions",
            {"context": self.context, "actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": pointer}]},
        )
        self.send("input.releaseActions", {"context": self.context})

    def screenshot(self, path: Path) -> None:
        data = self.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        path.write_bytes(base64.b64decode(data))

    def viewport(self, width: int, height: int) -> None:
        self.send("browsingContext.setViewport", {"context": self.context, "viewport": {"width": width, "height": height}})

    def console(self) -> list[str]:
        out, self._logs[:] = list(self._logs), []
        return out

    def close(self) -> None:
        try:
            self.send("session.end", {}, timeout_s=10)
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# --------------------------------------------------------------------------- WebKit


class WebKit(Engine):
    """WebKitWebDriver, driving webkit_window.py under an Xvfb of its own."""

    name = "webkit"

    def __init__(self, driver: str, xvfb: str, python: str, width: int, height: int) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="gin-webkit-"))
        self.console_file = self.tmp / "console.log"
        self.console_file.touch()
        self._seen = 0
        self.procs: list[subprocess.Popen] = []
        read, write = os.pipe()
        xvfb_proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        self.procs.append(xvfb_proc)
        os.close(write)
        with os.fdopen(read) as f:
            display = f.readline().strip()
        if not display:
            self.close()
            raise EngineError("Xvfb did not start")
        port = _free_port()
        # The browser's website data (storage, service workers, Cache Storage, HTTP cache) in this
        # session's folder: under ~/.local/share and ~/.cache/webkit_window.py every run left its
        # build there (~20 MB each), and a later run whose server got the same port found it, its
        # first visit a returning one. GStreamer's plugin registry and Mesa's shader cache stay
        # the user's: they are not the page's, and cost seconds to make again.
        home_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        env = {
            **os.environ,
            "DISPLAY": f":{display}",
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "XDG_DATA_HOME": str(self.tmp / "data"),
            "XDG_CACHE_HOME": str(self.tmp / "cache"),
            "GST_REGISTRY": str(home_cache / "gstreamer-1.0" / f"registry.{platform.machine()}.bin"),
            "MESA_SHADER_CACHE_DIR": str(home_cache / "mesa_shader_cache"),
        }
        self.procs.append(subprocess.Popen([driver, f"--port={port}", "--host=127.0.0.1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                self._http("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline:
                    self.close()
                    raise EngineError("WebKitWebDriver did not start") from None
                time.sleep(0.1)
        options = {
            "binary": python,
            "args": [str(WINDOW), "--console", str(self.console_file), "--width", str(width), "--height", str(height)],
            "useOverlayScrollbars": False,  # scrollbars that take room, as a desktop WebKit may draw them
        }
        answer = self._http("POST", "/session", {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": options, "timeouts": {"script": CALL_TIMEOUT_S * 1000, "pageLoad": 120_000}}}})
        self.session = f"/session/{answer['sessionId']}"
        self.viewport(width, height)

    def _http(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=CALL_TIMEOUT_S + 30) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as exc:
            value = json.loads(exc.read() or b"{}").get("value", {})
            raise EngineError(f"webkit: {method} {path}: {value.get('error')}: {value.get('message')}") from None

    def _command(self, method: str, path: str, body: dict | None = None):
        return self._http(method, self.session + path, body)

    def goto(self, url: str) -> None:
        self._command("POST", "/url", {"url": url})

    def reload(self) -> None:
        self._command("POST", "/refresh", {})

    def _call(self, source: str, args_json: str):
        script = (
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({source})(...JSON.parse(arguments[0])))"
            ".then(v => done({ok: JSON.stringify(v)}), e => done({error: String(e && e.stack || e)}));"
        )
        result = self._command("POST", "/execute/async", {"script": script, "args": [args_json]})
        if "error" in result:
            raise EngineError(f"webkit: {result['error']}")
        return json.loads(result["ok"]) if result.get("ok") is not None else None

    def actions(self, pointer: list[dict]) -> None:
        self._command("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": pointer}]})
        self._command("DELETE", "/actions")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._command("GET", "/screenshot")))

    def viewport(self, width: int, height: int) -> None:
        self._command("POST", "/window/rect", {"width": width, "height": height})

    def console(self) -> list[str]:
        text = self.console_file.read_text(errors="replace")
        new, self._seen = text[self._seen :], len(text)
        # "url:line:column: CONSOLE [SOURCE] LEVEL text", from the page or a worker:
        # "CONSOLE WARN x" (console.warn), "CONSOLE JS ERROR Error: x" (uncaught),
        # "CONSOLE NETWORK ERROR", "CONSOLE SECURITY ERROR" (a CSP refusal)...
        return [line for line in new.splitlines() if re.search(r": CONSOLE (?:[A-Z]+ )?(WARN|WARNING|ERROR) ", line)]

    def close(self) -> None:
        if getattr(self, "session", None):
            try:
                self._http("DELETE", self.session)
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)
