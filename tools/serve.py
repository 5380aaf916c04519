"""`build.py serve`: dist/ on 127.0.0.1 with the headers the page needs (its
Content-Security-Policy, gzip siblings sent when the browser accepts gzip,
no-cache revalidated by Last-Modified)."""

from __future__ import annotations

import http.server
import socketserver
import sys
from pathlib import Path

from .common import DIST

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".txt": "text/plain; charset=utf-8",
}
# Only our own origin. Pyodide compiles WebAssembly (wasm-unsafe-eval) and
# needs nothing else: no eval, no inline scripts, no other hosts.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page load is a few dozen requests
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        # Revalidate everything (cheap on loopback, never stale); the service
        # worker script in particular must never come from the HTTP cache.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """The precompressed sibling (name + ".gz") when the browser accepts
        gzip; the file as it is otherwise."""
        path = Path(self.translate_path(self.path))
        packed = path.with_name(path.name + ".gz")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        # A sibling older than its file is stale (the file was edited by hand).
        if not (accepts and path.is_file() and packed.is_file()) or packed.stat().st_mtime < path.stat().st_mtime:
            return super().send_head()
        stat = packed.stat()
        last_modified = self.date_time_string(int(stat.st_mtime))
        ctype = self.guess_type(str(path))
        if self.headers.get("If-Modified-Since") == last_modified:
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        f = packed.open("rb")
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", last_modified)
        self.end_headers()
        return f

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a connection mid-download is not our error.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def make_server(port: int, directory: Path = DIST, quiet: bool = False) -> Server:
    handler = type("GinHandler", (Handler,), {"quiet": quiet})

    def factory(*args, **kw):
        return handler(*args, directory=str(directory), **kw)

    return Server(("127.0.0.1", port), factory)


def serve(port: int, quiet: bool, directory: Path = DIST) -> None:
    server = make_server(port, directory=directory, quiet=quiet)
    print(f"Serving gin at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
