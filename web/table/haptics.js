// Vibration (issue 30): a short pulse on the player's own draw, discard and
// knock, on touch devices whose browser has navigator.vibrate (Chromium on
// Android; Safari has none, and a desktop has nothing to shake: there the
// menu hides the switch).

// How long each pulse lasts, in ms: short, a tap felt rather than a buzz.
export const PULSE_MS = { draw_stock: 18, draw_pile: 18, discard: 24, knock: [30, 60, 30], gin: [30, 60, 30] };

// Whether this device can vibrate for the player: the API and a touch screen.
export function canVibrate() {
  const nav = globalThis.navigator;
  if (!nav || typeof nav.vibrate !== "function") return false;
  return Boolean(globalThis.matchMedia && matchMedia("(any-pointer: coarse)").matches);
}

// One pulse for the player's move `name` (a cue of table/cues.js), if it has one.
export function pulse(name) {
  const pattern = PULSE_MS[name];
  if (pattern === undefined || !canVibrate()) return false;
  try {
    return navigator.vibrate(pattern);
  } catch {
    return false;
  }
}
