// Work for a moment when the page has nothing else to do (the sound's and
// the deal panel's preparations, the extra engine's start): requestIdleCallback,
// at the latest `timeoutMs` on, or where a browser has none (WebKit), a timer
// `fallbackMs` on, with no idle time to spend.

const NO_IDLE_TIME = { timeRemaining: () => 0 };

export function whenIdle(fn, fallbackMs = 1000, timeoutMs = 3000) {
  if (globalThis.requestIdleCallback) requestIdleCallback(fn, { timeout: timeoutMs });
  else setTimeout(() => fn(NO_IDLE_TIME), fallbackMs);
}
