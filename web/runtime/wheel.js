// gin from its wheel, whenever the snapshot cannot be used: micropip installs
// the wheel (fetched while Pyodide starts), and what it installed is kept in
// IndexedDB (Emscripten's IDBFS mounted on INSTALLED_DIR), so a later visit
// of the same build imports gin straight away and never pays for loading and
// importing micropip. Any failure (IndexedDB blocked, private mode, a damaged
// copy) falls back to installing afresh.
//
// Every function takes the start-up record first (worker.js newStartup).

import { BootError, fetchShipped } from "./protocol.js";

const INSTALLED_DIR = "/gin-installed";
const STAMP = `${INSTALLED_DIR}/.gin-wheel`; // the integrity of the wheel installed there

function syncfs(FS, populate) {
  return new Promise((resolve, reject) => FS.syncfs(populate, (err) => (err ? reject(err) : resolve())));
}

function readText(FS, path) {
  try {
    return FS.readFile(path, { encoding: "utf8" });
  } catch {
    return null;
  }
}

function requested(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// The stamp, read straight from IDBFS's database before the runtime exists,
// so the start knows whether to load micropip alongside Pyodide's own.
async function stampInIndexedDB() {
  if (typeof indexedDB === "undefined") return null;
  try {
    const opening = indexedDB.open(INSTALLED_DIR);
    opening.onupgradeneeded = () => opening.transaction.abort(); // no such database: create nothing
    const db = await requested(opening);
    try {
      const entry = await requested(db.transaction("FILE_DATA", "readonly").objectStore("FILE_DATA").get(STAMP));
      return entry && entry.contents ? new TextDecoder().decode(entry.contents) : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

// What the start from the wheel begins before Pyodide starts: the stamp's
// read and the wheel's download. Gives {wheelBytes, installed}: installed,
// whether IndexedDB holds this very wheel installed (then micropip is not
// loaded with Pyodide).
export async function beginWheel(startup) {
  const stamp = stampInIndexedDB();
  // Our wheel downloads while Pyodide starts.
  const wheelBytes = fetchShipped(startup.urls.gin, "engine");
  wheelBytes.catch(() => {}); // reported where installWithMicropip awaits it
  return { wheelBytes, installed: (await stamp) === startup.build.gin_integrity };
}

async function mountInstalled(FS) {
  if (typeof indexedDB === "undefined" || !FS.filesystems || !FS.filesystems.IDBFS) return false;
  try {
    FS.mkdirTree(INSTALLED_DIR);
    FS.mount(FS.filesystems.IDBFS, {}, INSTALLED_DIR);
  } catch {
    return false;
  }
  try {
    await syncfs(FS, true);
    return true;
  } catch {
    try {
      FS.unmount(INSTALLED_DIR);
    } catch {
      // already gone
    }
    return false;
  }
}

function importInstalled(pyodide) {
  pyodide.runPython(`
import importlib, sys
sys.path.insert(0, ${JSON.stringify(INSTALLED_DIR)})
importlib.invalidate_caches()
`);
  return pyodide.pyimport("gin.bridge");
}

// Forget a failed attempt: the installed directory leaves sys.path and
// whatever it imported leaves sys.modules.
function forgetInstalled(pyodide) {
  pyodide.runPython(`
import sys
while ${JSON.stringify(INSTALLED_DIR)} in sys.path:
    sys.path.remove(${JSON.stringify(INSTALLED_DIR)})
for _name in [m for m in sys.modules if m == "gin" or m.startswith("gin.")]:
    del sys.modules[_name]
`);
}

// Replace the directory's contents with gin as micropip installed it
// (package, dist-info and the bytecode its import just wrote), then the stamp.
function fillInstalled(pyodide, integrity) {
  pyodide.runPython(`
import os, shutil, site
import gin
_cache = ${JSON.stringify(INSTALLED_DIR)}
for _name in os.listdir(_cache):
    _p = os.path.join(_cache, _name)
    shutil.rmtree(_p) if os.path.isdir(_p) and not os.path.islink(_p) else os.remove(_p)
_site = os.path.dirname(os.path.dirname(gin.__file__))
for _name in os.listdir(_site):
    if _name == "gin" or (_name.startswith("gin-") and _name.endswith(".dist-info")):
        shutil.copytree(os.path.join(_site, _name), os.path.join(_cache, _name))
`);
  pyodide.FS.writeFile(STAMP, integrity);
}

// For the next visit, once the first match is served: the installed copy
// kept (when this visit installed it: `fill`) and written to IndexedDB.
function keepInstalled(pyodide, integrity, fill) {
  try {
    if (fill) fillInstalled(pyodide, integrity);
  } catch {
    return; // the next visit installs again
  }
  syncfs(pyodide.FS, false).catch(() => {});
}

function importBridge(pyodide) {
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  return pyodide.pyimport("gin.bridge");
}

// micropip from our own copy of its wheel (unless the start loaded it
// already), then our wheel through micropip.
async function installWithMicropip(startup, pyodide, wheelBytes, micropipLoaded) {
  const micropipURL = startup.urls.micropip;
  const ginURL = startup.urls.gin;
  self.postMessage({ type: "progress", stage: "installer" });
  const errors = [];
  if (!micropipLoaded) {
    await pyodide.loadPackage(micropipURL, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  }
  // loadPackage reports a failed wheel instead of throwing: importing is the
  // check that counts.
  let micropip;
  try {
    micropip = pyodide.pyimport("micropip");
  } catch (err) {
    throw new BootError("installer", "missing_file", `micropip (${micropipURL}): ${errors.join(" ") || err}`);
  }
  self.postMessage({ type: "progress", stage: "engine" });
  const bytes = await wheelBytes;
  // Hand micropip the bytes fetched during the start, through Pyodide's file
  // system, instead of a second request for the same wheel.
  const name = ginURL.slice(ginURL.lastIndexOf("/") + 1);
  const wheelPath = `/tmp/${name}`;
  pyodide.FS.writeFile(wheelPath, bytes);
  const install = micropip.install;
  try {
    await install.callKwargs(`emfs:${wheelPath}`, { deps: false });
  } catch (err) {
    throw new BootError("engine", "boot_failed", `micropip.install(${ginURL}): ${err}`);
  } finally {
    install.destroy();
    micropip.destroy();
    try {
      pyodide.FS.unlink(wheelPath);
    } catch {
      // nothing to clean up
    }
  }
}

// gin.bridge in a freshly started Pyodide (`wheel`: beginWheel's): imported
// from IndexedDB's copy when it holds this very wheel, else installed with
// micropip. Gives {pyodide, module, afterReady}; timings.boot says which.
export async function importFromWheel(startup, pyodide, wheel) {
  const integrity = startup.build.gin_integrity;
  const persistent = await mountInstalled(pyodide.FS);
  let module = null;
  if (persistent && readText(pyodide.FS, STAMP) === integrity) {
    // micropip installed this very wheel on an earlier visit.
    self.postMessage({ type: "progress", stage: "engine" });
    try {
      module = importInstalled(pyodide);
      startup.timings.boot = "cache";
    } catch {
      forgetInstalled(pyodide); // a damaged copy: install afresh below
      module = null;
    }
  }
  if (!module) {
    await installWithMicropip(startup, pyodide, wheel.wheelBytes, !wheel.installed);
    startup.mark("installer");
    try {
      module = importBridge(pyodide);
    } catch (err) {
      throw new BootError("engine", "boot_failed", `import gin.bridge: ${err}`);
    }
    startup.timings.boot = "micropip";
  }
  // Filling and persisting the copy waits until the first match is served:
  // it is for the next visit, not this one.
  const fill = persistent && startup.timings.boot !== "cache";
  startup.mark("engine");
  return { pyodide, module, afterReady: persistent ? () => keepInstalled(pyodide, integrity, fill) : null };
}
