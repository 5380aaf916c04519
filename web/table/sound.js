// The table's sounds (issue 30), made with Web Audio as they play: no sound
// file, so nothing to download, cache or license, and the same offline as
// online. Each cue (table/cues.js) is a short recipe of two kinds of voice:
// a rustle (white noise through a band-pass filter that sweeps, the sound
// of a card on cloth) and a note (an oscillator with a soft attack and an
// exponential fall). All of it goes through one quiet master gain, so it
// sits well at low volume. The context is made at the player's first touch,
// click or key (the browsers' autoplay rule; before that nothing plays) and
// suspended while the page is hidden. The state is one record (createSound);
// the functions take it first.

import { whenIdle } from "./idle.js";

// The master gain: quiet, the cues' own levels are relative to it.
const MASTER = 0.3;

// How long each cue sounds at normal speed, in ms (the recipes below keep to
// it; the README lists them). Speed-up shortens them (SPEED_SCALE).
export const CUE_MS = {
  deal: 380,
  draw_stock: 120,
  draw_pile: 110,
  discard: 100,
  knock: 250,
  gin: 540,
  layoff: 120,
  won: 440,
  lost: 500,
  match_won: 910,
  match_lost: 910,
  match_draw: 500,
};

// Each cue's length and its delays, by speed: faster play, shorter sounds.
export const SPEED_SCALE = { slow: 1, normal: 1, fast: 0.65, instant: 0.5 };

export function createSound() {
  return {
    context: null, // the AudioContext, made in the player's first gesture (unlockSound)
    out: null, // the master gain every cue goes through
    noise: null, // one second of white noise (a card's rustle), made once
    samples: null, // its values, {data, filled, x}: computed ahead at idle moments (prepareNoise)
    rustles: 0, // where in the noise the next rustle starts
    failed: false, // Web Audio missing or refused: silent from then on, without a word
    readied: false, // the browser's audio output asked to get ready (readySound)
  };
}

// The browser's audio output made ready before the player's first gesture
// (issue 33). A browser's first AudioContext waits on the page's thread for
// its audio service to start: 50-170 ms in Chromium (a phone's first tap was
// a frame of 140-280 ms at x4), where a second context takes 1-5 ms. Asking
// for the list of media devices starts that service without holding the
// page (a promise; nothing is read from it, no permission is asked, nothing
// sounds), so the context made in the first gesture finds it running. No
// context is made before that gesture (the autoplay rule): the page stays
// silent and unwarned until the player touches it. Once per page.
export function readySound(sound) {
  if (sound.context || sound.failed || sound.readied) return;
  sound.readied = true;
  const devices = globalThis.navigator && navigator.mediaDevices; // none outside a secure context
  if (!devices || typeof devices.enumerateDevices !== "function") return;
  try {
    devices.enumerateDevices().catch(() => {});
  } catch {
    // a browser that refuses it: the first gesture pays for the start, as before
  }
}

// Makes (or resumes) the context; only ever called inside a gesture of the
// player (table/feedback.js), so no browser refuses it or warns about it.
export function unlockSound(sound) {
  if (sound.failed) return false;
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) {
    sound.failed = true;
    return false;
  }
  try {
    if (!sound.context) {
      sound.context = new Context({ latencyHint: "interactive" });
      sound.out = sound.context.createGain();
      sound.out.gain.value = MASTER;
      sound.out.connect(sound.context.destination);
      whenIdle(() => warmSound(sound), 200);
    }
    if (sound.context.state === "suspended") sound.context.resume().catch(() => {});
    return true;
  } catch {
    sound.failed = true;
    return false;
  }
}

// At an idle moment after the context is made: what the first cues would
// otherwise make in their frame. The first `triangle` oscillator of a
// context computes that wave's tables (Chromium: 8-11 ms of the first knock's
// frame at x4, bench/README.md), and the rustle's buffer is made from the
// noise computed ahead (prepareNoise) once that is done. Nothing is started
// or connected: nothing sounds.
function warmSound(sound) {
  const ctx = sound.context;
  if (!ctx || sound.failed || ctx.state === "closed") return;
  try {
    ctx.createOscillator().type = "triangle";
    if (!sound.noise && sound.samples && sound.samples.filled >= ctx.sampleRate) noiseBuffer(sound);
  } catch {
    // a cue makes them, as before
  }
}

// The page went out of sight: nothing plays, nothing waits to play.
export function pauseSound(sound) {
  if (sound.context && sound.context.state === "running") sound.context.suspend().catch(() => {});
}

// Plays cue `name` `delayMs` from now, its length times `scale`. False when
// it cannot (no gesture yet, Web Audio missing): the cue is dropped, not kept.
export function playCue(sound, name, delayMs = 0, scale = 1) {
  const recipe = RECIPES[name];
  const ctx = sound.context;
  if (!recipe || !ctx || ctx.state === "closed" || sound.failed) return false;
  try {
    recipe(sound, ctx.currentTime + 0.01 + (delayMs / 1000) * scale, scale);
    return true;
  } catch {
    return false;
  }
}

// --- the voices ----------------------------------------------------------------------

// A gain that rises to `peak` in `attack` s and falls away by `length` s.
function envelope(ctx, t, peak, attack, length) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(peak, t + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  return gain;
}

// The noise's values: a fixed sequence (xorshift), one second's worth at
// the usual 48 kHz computed ahead, at idle moments, a slice at a time
// (prepareNoise), more if the context runs faster. Computed in the frame of
// the first rustle, they were ~15 ms of script unthrottled, ~60 at a
// phone's x4 (issue 33: the first tap's move, "Siguiente" in the probe).
const NOISE_AHEAD = 48000;
const NOISE_SLICE = 4000;

function fillNoise(sound, upTo) {
  let samples = sound.samples;
  if (!samples) samples = sound.samples = { data: new Float32Array(Math.max(NOISE_AHEAD, upTo)), filled: 0, x: 0x2545f491 };
  if (samples.data.length < upTo) {
    const data = new Float32Array(upTo);
    data.set(samples.data.subarray(0, samples.filled));
    samples.data = data;
  }
  const { data } = samples;
  let x = samples.x;
  const end = Math.min(upTo, data.length);
  for (let i = samples.filled; i < end; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = ((x >>> 0) / 0xffffffff) * 2 - 1;
  }
  samples.x = x;
  samples.filled = Math.max(samples.filled, end);
  return samples;
}

// The noise's values computed ahead, a slice per idle moment, so the first
// rustle only copies them (Sonido on: table/feedback.js, at the first idle
// moment after the engine's table). Nothing sounds, no context is made.
export function prepareNoise(sound) {
  const idle = (fn) => whenIdle(fn, 50);
  const step = (deadline) => {
    while (!sound.noise && (!sound.samples || sound.samples.filled < NOISE_AHEAD)) {
      fillNoise(sound, Math.min(NOISE_AHEAD, (sound.samples ? sound.samples.filled : 0) + NOISE_SLICE));
      if (deadline.timeRemaining() < 2) return idle(step);
    }
  };
  idle(step);
}

// One second of white noise from a fixed sequence (every rustle starts at
// another place in it, so no two sound quite alike).
function noiseBuffer(sound) {
  if (sound.noise) return sound.noise;
  const ctx = sound.context;
  const buffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
  const samples = fillNoise(sound, buffer.length); // whatever was not computed ahead
  buffer.copyToChannel(samples.data.subarray(0, buffer.length), 0);
  sound.noise = buffer;
  sound.samples = null;
  return buffer;
}

// Noise through a band-pass filter sweeping from `from` to `to` Hz: a card
// sliding (a rising sweep), landing (a falling one), a tick (very short).
function rustle(sound, t, { from, to, q = 1.2, peak, length }) {
  const ctx = sound.context;
  const source = ctx.createBufferSource();
  source.buffer = noiseBuffer(sound);
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, t);
  filter.frequency.exponentialRampToValueAtTime(to, t + length);
  source.connect(filter).connect(envelope(ctx, t, peak, 0.004, length)).connect(sound.out);
  sound.rustles = (sound.rustles + 1) % 7;
  source.start(t, sound.rustles * 0.13);
  source.stop(t + length + 0.02);
}

// An oscillator at `freq` Hz (gliding to `to`, if given) under an envelope.
function note(sound, t, { freq, to = null, type = "sine", peak, length, attack = 0.008 }) {
  const ctx = sound.context;
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length);
  osc.connect(envelope(ctx, t, peak, attack, length)).connect(sound.out);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

// --- the cues (k: the speed's scale) ---------------------------------------------------

// The deal: eight cards flicked off the deck, 50 ms apart (380 ms).
function dealSound(sound, t, k) {
  for (let i = 0; i < 8; i++) rustle(sound, t + i * 0.05 * k, { from: 2600, to: 1700, peak: 0.35, length: 0.03 * k });
}

// A card slid off the stock: a rising rustle (120 ms).
function drawStockSound(sound, t, k) {
  rustle(sound, t, { from: 1400, to: 3200, q: 0.9, peak: 0.55, length: 0.12 * k });
}

// A card picked up from the pile: a tick, then a short lower slide (110 ms).
function drawPileSound(sound, t, k) {
  rustle(sound, t, { from: 4200, to: 3000, q: 2, peak: 0.4, length: 0.025 * k });
  rustle(sound, t + 0.02 * k, { from: 2400, to: 1300, q: 1, peak: 0.45, length: 0.09 * k });
}

// A card laid on the pile: a soft low thud under a short fall of cloth (100 ms).
function discardSound(sound, t, k) {
  note(sound, t, { freq: 220, to: 110, peak: 0.5, length: 0.09 * k, attack: 0.003 });
  rustle(sound, t, { from: 900, to: 500, q: 0.7, peak: 0.4, length: 0.07 * k });
}

// The knock: two raps of a knuckle on the table (250 ms).
function knockSound(sound, t, k) {
  for (const at of [0, 0.16 * k]) {
    note(sound, t + at, { freq: 170, to: 115, type: "triangle", peak: 0.7, length: 0.08 * k, attack: 0.002 });
    rustle(sound, t + at, { from: 1800, to: 900, q: 1.5, peak: 0.35, length: 0.03 * k });
  }
}

// Gin: a bright rising arpeggio, C E G C (540 ms).
function ginSound(sound, t, k) {
  [1046.5, 1318.5, 1568, 2093].forEach((freq, i) =>
    note(sound, t + i * 0.08 * k, { freq, type: "triangle", peak: 0.18, length: 0.3 * k }),
  );
}

// A layoff: two light ticks, a card joining a meld (120 ms).
function layoffSound(sound, t, k) {
  for (const at of [0, 0.07 * k]) note(sound, t + at, { freq: 1760, peak: 0.15, length: 0.05 * k, attack: 0.002 });
}

// A deal won: a rising fourth, E to A (440 ms).
function wonSound(sound, t, k) {
  note(sound, t, { freq: 659.3, type: "triangle", peak: 0.22, length: 0.32 * k });
  note(sound, t + 0.12 * k, { freq: 880, type: "triangle", peak: 0.22, length: 0.32 * k });
}

// A deal lost: a soft falling third, A to F (500 ms).
function lostSound(sound, t, k) {
  note(sound, t, { freq: 440, peak: 0.2, length: 0.34 * k });
  note(sound, t + 0.16 * k, { freq: 349.2, peak: 0.2, length: 0.34 * k });
}

// The match won: C E G, then a held high C (910 ms).
function matchWonSound(sound, t, k) {
  [523.3, 659.3, 784].forEach((freq, i) => note(sound, t + i * 0.12 * k, { freq, type: "triangle", peak: 0.2, length: 0.25 * k }));
  note(sound, t + 0.36 * k, { freq: 1046.5, type: "triangle", peak: 0.22, length: 0.55 * k });
}

// The match lost: G E C, falling gently (910 ms).
function matchLostSound(sound, t, k) {
  [392, 329.6].forEach((freq, i) => note(sound, t + i * 0.18 * k, { freq, peak: 0.2, length: 0.3 * k }));
  note(sound, t + 0.36 * k, { freq: 261.6, peak: 0.2, length: 0.55 * k });
}

// A drawn match: the same E twice (500 ms).
function matchDrawSound(sound, t, k) {
  for (const at of [0, 0.2 * k]) note(sound, t + at, { freq: 659.3, type: "triangle", peak: 0.2, length: 0.3 * k });
}

const RECIPES = {
  deal: dealSound,
  draw_stock: drawStockSound,
  draw_pile: drawPileSound,
  discard: discardSound,
  knock: knockSound,
  gin: ginSound,
  layoff: layoffSound,
  won: wonSound,
  lost: lostSound,
  match_won: matchWonSound,
  match_lost: matchLostSound,
  match_draw: matchDrawSound,
};
