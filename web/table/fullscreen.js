// Fullscreen for the menu's toggle (Fullscreen API). Entering or leaving only
// changes the viewport: the match, the save and the UI state are untouched.
// The browser may leave fullscreen on its own (Escape, a system gesture), so
// the label is drawn from document.fullscreenElement on every render and the
// page redraws on fullscreenchange.

import { el, intentButton } from "./dom.js";

// Where the browser has no Fullscreen API, or forbids it here (an iframe
// without allowfullscreen, iOS Safari on a phone), there is no button at all.
export function fullscreenAvailable() {
  return Boolean(document.fullscreenEnabled && document.documentElement.requestFullscreen);
}

export function isFullscreen() {
  return Boolean(document.fullscreenElement);
}

// Whether the browser refused the last request (Firefox does under automation
// and wherever a permissions policy says no): the menu then says so under the
// button instead of the click doing nothing. Cleared by the next attempt.
let refused = false;

// Must run inside the click that asked for it: requestFullscreen needs a user
// gesture. `redraw` shows the refusal (a success redraws on fullscreenchange).
export function toggleFullscreen(redraw) {
  refused = false;
  let request;
  try {
    request = isFullscreen() ? document.exitFullscreen() : document.documentElement.requestFullscreen({ navigationUI: "hide" });
  } catch (err) {
    request = Promise.reject(err); // an engine that throws instead of rejecting
  }
  return Promise.resolve(request).catch(() => {
    refused = true;
    redraw();
  });
}

export function onFullscreenChange(listener) {
  document.addEventListener("fullscreenchange", listener);
}

export function fullscreenButton(t) {
  if (!fullscreenAvailable()) return null;
  const button = intentButton(t(isFullscreen() ? "menu.fullscreen_leave" : "menu.fullscreen_enter"), "fullscreen");
  if (!refused) return button;
  return [button, el("p", { class: "note", role: "status", dataset: { key: "fullscreen-refused" }, text: t("menu.fullscreen_refused") })];
}
