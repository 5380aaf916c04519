// Match seeds: short human strings like "K7Q2-M9XD". New ones come from
// crypto.getRandomValues over an alphabet without look-alikes (no 0/O, 1/I).

// The guided first deal's seed (play/tutorial.js; bench/tune/tutorial_seed.py found it).
export const GUIDE_SEED = "GUIA-0130";

export const SEED_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"; // 32 symbols, 5 bits each

export function newSeed(random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(8));
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === 4) out += "-";
    out += SEED_ALPHABET[bytes[i] % 32]; // 256 is a multiple of 32: no bias
  }
  return out;
}

// A seed as typed or linked (any case, spaces around) → canonical, or null.
export function normalizeSeed(text) {
  if (typeof text !== "string") return null;
  const seed = text.trim().toUpperCase();
  return /^[A-Z0-9]([A-Z0-9-]{0,30}[A-Z0-9])?$/.test(seed) ? seed : null;
}

export function seedFromHash(hash) {
  const match = /(?:^#|&)seed=([^&]*)/.exec(hash || "");
  if (!match) return null;
  try {
    return normalizeSeed(decodeURIComponent(match[1]));
  } catch {
    return null;
  }
}
