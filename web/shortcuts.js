// Single-key shortcuts of the table's buttons. render.js puts each in its
// button's aria-keyshortcuts, input.js presses the visible button whose
// aria-keyshortcuts is the key, the rules page lists them.
// The letters follow the Spanish names (Mazo, Descarte, Tomar, Pasar,
// Cerrar, Gin, pista = Hint, Siguiente = Next) in both languages.

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
