// Fullscreen for the menu's toggle (Fullscreen API). Entering or leaving only
// changes the viewport: the match, the save and the UI state are untouched.
// The browser may leave fullscreen on its own (Escape, a system gesture), so
// the label is drawn from document.fullscreenElement on every render and the
// page redraws on fullscreenchange.

import { intentButton } from "./dom.js";

// Where the browser has no Fullscreen API, or forbids it here (an iframe
// without allowfullscreen, iOS Safari on a phone), there is no button at all.
export function fullscreenAvailable() {
  return Boolean(document.fullscreenEnabled && document.documentElement.requestFullscreen);
}

export function isFullscreen() {
  return Boolean(document.fullscreenElement);
}

// Must run inside the click that asked for it: requestFullscreen needs a user
// gesture. A refusal changes nothing but the console.
export function toggleFullscreen() {
  const request = isFullscreen() ? document.exitFullscreen() : document.documentElement.requestFullscreen({ navigationUI: "hide" });
  return Promise.resolve(request).catch((err) => console.warn("fullscreen:", err));
}

export function onFullscreenChange(listener) {
  document.addEventListener("fullscreenchange", listener);
}

export function fullscreenButton(t) {
  if (!fullscreenAvailable()) return null;
  return intentButton(t(isFullscreen() ? "menu.fullscreen_leave" : "menu.fullscreen_enter"), "fullscreen");
}
