"""What build.py runs, one module per concern (standard library only, so a fresh
Python 3.11 can run it before anything is installed):

  common     paths (ROOT, WEB, DIST, CACHE, VENV), logging, hashes, the cache helpers
  dist       the build of dist/: npm ci, micropip, the gin wheel, web files, gzip, manifest
  pyodide    Pyodide under Node (pyodide_tool.mjs): compiled bytecode, the memory snapshot
  wasmdata   the snapshot's memory XORed with the wasm's data segments (web/wasmdata.js's twin)
  font       the card font copied from npm
  icons      the app's icons, painted here
  serve      the static server with the page's headers (CSP, gzip siblings, no-cache)
  testenv    the test environment: .venv, Chromium, Firefox/WebKit, apt, ffmpeg for videos
  bench      the benchmarks `build.py bench` runs

Tests and benches import from here (`from tools.serve import make_server`).
"""
