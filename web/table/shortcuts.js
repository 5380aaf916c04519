// Single-key shortcuts of the table's buttons. render.js puts each in its
// button's aria-keyshortcuts, input.js presses the visible button whose
// aria-keyshortcuts is the key, the rules page lists them. Each language has
// its own letters, from the names the player reads: Spanish (Mazo,
// Descarte, Tomar, Pasar, Cerrar, Gin, pista, Siguiente) and English (Stock,
// Pile, Take, X for pass, Knock, Gin, Hint, Next).

export const SHORTCUTS = Object.freeze({
  drawStock: "M",
  drawDiscard: "D",
  take: "T",
  pass: "P",
  knock: "C",
  gin: "G",
  hint: "H",
  next: "N",
});

const ENGLISH = Object.freeze({
  drawStock: "S",
  drawDiscard: "P",
  take: "T",
  pass: "X",
  knock: "K",
  gin: "G",
  hint: "H",
  next: "N",
});

export function shortcutsFor(lang) {
  return lang === "en" ? ENGLISH : SHORTCUTS;
}
