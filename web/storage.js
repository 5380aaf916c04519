// localStorage behind a small adapter that never throws: the game plays on
// when storage is blocked, missing or full, and the page is told so.

export const KEYS = Object.freeze({
  match: "gin.match.v1", // the current match's save (gin.save format)
  brokenMatch: "gin.match.broken", // a save that could not be loaded, kept aside
  settings: "gin.settings.v1", // language, level, speed, sort...
  acknowledged: "gin.acknowledged.v1", // {seed, deal}: the last deal result the player closed
  ui: "gin.ui.v1", // {seed, actions, selected, order, knock}: the selection, the hand order, an open knock panel
  finished: "gin.finished.v1", // [{at, save}]: the last 50 finished matches, oldest first (history.js)
  records: "gin.records.v2", // [line]: one per deal ever ended and per match ever finished (history.js)
  cleared: "gin.cleared.v1", // [line id]: the match in progress's lines when "Borrar" was pressed (history.js)
});

function defaultBackend() {
  // Merely reading window.localStorage throws where storage is blocked.
  return window.localStorage;
}

export function createStorage(getBackend = defaultBackend) {
  let backend = null;
  try {
    backend = getBackend();
    const probe = "gin.probe";
    backend.setItem(probe, "1");
    backend.removeItem(probe);
  } catch {
    backend = null;
  }
  // Becomes false after any failed write (quota, blocked), so the page can
  // say "cannot save" once instead of pretending.
  let writable = backend !== null;

  function read(key) {
    if (!backend) return null;
    try {
      return backend.getItem(key);
    } catch {
      return null;
    }
  }

  function write(key, value) {
    if (!backend) return false;
    try {
      backend.setItem(key, value);
      writable = true;
      return true;
    } catch {
      writable = false;
      return false;
    }
  }

  function remove(key) {
    if (!backend) return false;
    try {
      backend.removeItem(key);
      return true;
    } catch {
      return false;
    }
  }

  return {
    get available() {
      return backend !== null;
    },
    get writable() {
      return writable;
    },

    // {status: "none"} | {status: "ok", save, raw} | {status: "corrupt", raw}
    readMatch() {
      const raw = read(KEYS.match);
      if (raw === null) return { status: "none" };
      try {
        const save = JSON.parse(raw);
        if (save === null || typeof save !== "object" || Array.isArray(save)) return { status: "corrupt", raw };
        return { status: "ok", save, raw };
      } catch {
        return { status: "corrupt", raw };
      }
    },
    writeMatch(save) {
      return write(KEYS.match, JSON.stringify(save));
    },
    clearMatch() {
      return remove(KEYS.match);
    },
    // Keep an unreadable save under another key (never delete a player's
    // data) and free the main key for a new match.
    setAsideMatch(raw) {
      const kept = raw === null || raw === undefined ? true : write(KEYS.brokenMatch, raw);
      remove(KEYS.match);
      return kept;
    },
    readBrokenMatch() {
      return read(KEYS.brokenMatch);
    },

    readSettings() {
      const raw = read(KEYS.settings);
      if (raw === null) return {};
      try {
        const value = JSON.parse(raw);
        return value && typeof value === "object" && !Array.isArray(value) ? value : {};
      } catch {
        return {};
      }
    },
    writeSettings(settings) {
      return write(KEYS.settings, JSON.stringify(settings));
    },

    // The number of the last deal whose result the player closed with
    // "Siguiente", for the match on `seed`; null when unknown.
    readAcknowledged(seed) {
      const raw = read(KEYS.acknowledged);
      if (raw === null) return null;
      try {
        const value = JSON.parse(raw);
        return value && value.seed === seed && Number.isInteger(value.deal) ? value.deal : null;
      } catch {
        return null;
      }
    },
    writeAcknowledged(seed, deal) {
      return write(KEYS.acknowledged, JSON.stringify({ seed, deal }));
    },

    // What the player had selected or open at the position after `actions`
    // moves of the match on `seed`; null when unreadable.
    readUi() {
      const raw = read(KEYS.ui);
      if (raw === null) return null;
      try {
        const value = JSON.parse(raw);
        return value && typeof value === "object" && !Array.isArray(value) ? value : null;
      } catch {
        return null;
      }
    },
    writeUi(value) {
      return write(KEYS.ui, JSON.stringify(value));
    },

    // Any JSON value under one of KEYS (history.js); null when missing or unreadable.
    readJson(key) {
      const raw = read(key);
      if (raw === null) return null;
      try {
        return JSON.parse(raw);
      } catch {
        return null;
      }
    },
    writeJson(key, value) {
      return write(key, JSON.stringify(value));
    },
    remove(key) {
      return remove(key);
    },
  };
}
