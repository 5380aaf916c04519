// What the Node tests of web/data/ share (tests/test_web_storage.py,
// tests/test_web_storage_model.py): an in-memory localStorage with a quota,
// a stand-in for the engine's `stats`, and saves made to order. Imported by
// a script that tests/webnode.py runs: `await import(web + "/../tests/webdata.mjs")`.

// A localStorage of characters (keys and values, as browsers count them).
export function memory() {
  const m = new Map();
  const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    map: m,
    quota: Infinity,
    used,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem(k, v) {
      const before = m.get(k);
      m.set(k, String(v));
      if (used() > this.quota) {
        if (before === undefined) m.delete(k);
        else m.set(k, before);
        throw new Error("QuotaExceededError");
      }
    },
    removeItem: (k) => void m.delete(k),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

export const DEAL_MOVES = 10; // a deal of these saves ends every 10 moves

// A save of `seed` with `moves` moves; `end`: the match is over at its last
// move. Moves are numbered from 0, so two saves of a seed with the same number
// of moves are the same match (a "Repetir" played otherwise passes `alt`).
export function save(seed, moves, { end = false, profile = "standard", level = "easy", alt = "" } = {}) {
  return {
    version: 1,
    seed,
    rules: { profile, options: {} },
    level,
    end,
    actions: Array.from({ length: moves }, (_, i) => ({ type: "discard", card: `${alt}${i}` })),
  };
}

// The engine's `stats` for these saves: deal k ends at move 10k (won by the
// player's gin when k is odd, lost when even); the match line at the last move
// when the save says `end`. A save with `broken` is refused, as the engine
// refuses one it cannot replay. `gate`: a promise each call waits for first
// (another tab's step can run in between).
export function engine(options = {}) {
  const calls = { n: 0 };
  async function call(method, params) {
    calls.n++;
    if (options.gate) await options.gate();
    if (method !== "stats") throw new Error(`no ${method} here`);
    const s = params.saves[0];
    if (s.broken) throw new Error("bad_save");
    const moves = s.actions.length;
    const records = [];
    const base = { seed: s.seed, level: s.level, profile: s.rules.profile, knock_deadwood: 0 };
    const zero = { matches: 0, won: 0, lost: 0, drawn: 0, deals: 0, deals_won: 0, gins: 0, big_gins: 0, knocks: 0, undercuts_made: 0, undercuts_suffered: 0, knock_count: 0 };
    let deals = 0;
    for (let k = 1; k * DEAL_MOVES <= moves; k++) {
      const won = k % 2 === 1;
      records.push({ ...zero, ...base, kind: "deal", deal: k, actions: k * DEAL_MOVES, deals: 1, deals_won: won ? 1 : 0, gins: won ? 1 : 0, knock_count: won ? 1 : 0 });
      deals = k;
    }
    if (s.end && moves > 0) {
      const won = deals % 2 === 1;
      records.push({ ...zero, ...base, kind: "match", deal: Math.max(1, deals), actions: moves, matches: 1, won: won ? 1 : 0, lost: won ? 0 : 1, totals: won ? [100, 20] : [30, 100] });
    }
    return { counted: s.end ? 1 : 0, records };
  }
  return { call, calls };
}
