// The words of issue 32 (play/luck.js): Difícil with your cards on the deal
// result. Functions take the translator t (i18n.js) and return finished text.

// Deal points from the player's side: "+8", "−12" (a true minus), "0".
export function signedPoints(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

// How a deal ended for the player's seat (seat 0): the i18n key's last part.
export function dealEnd(result) {
  if (result.kind === "void" || result.winner === null || result.winner === undefined) return "void";
  return `${result.winner === 0 ? "won" : "lost"}_${result.kind}`;
}

// "Tú: +8 (cierre) · Difícil con tus cartas: +21 (gin)", from the bridge's
// `duplicate` answer's points, played and replayed.
export function duplicateLine(t, { points, played, replayed }) {
  const side = (n, result) => t("luck.side", { points: signedPoints(n), end: t(`luck.end.${dealEnd(result)}`) });
  return t("luck.line", { you: side(points.player, played), hard: side(points.hard, replayed) });
}
