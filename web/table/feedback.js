// What the player hears and feels of the table (issue 30): after each full
// render the cues of what it showed (table/cues.js) are played — a sound
// each when Sonido is on (table/sound.js), a pulse for the player's own
// draw, discard and knock when Vibración is on (table/haptics.js). The
// sounds start at the player's first touch, click or key (the browsers'
// autoplay rule: the context is made inside that gesture) and nothing plays
// while the page is hidden. The state is one record (createFeedback); the
// functions take it first.

import { nextCues, cueMemory } from "./cues.js";
import { SPEED_SCALE, createSound, pauseSound, playCue, prepareNoise, readySound, unlockSound } from "./sound.js";
import { pulse } from "./haptics.js";
import { whenIdle } from "./idle.js";

// The gestures a browser counts as the player's activation (a touch's is its
// end, a mouse's its press), each tried until the sound is unlocked.
const GESTURES = ["pointerdown", "pointerup", "keydown", "click"];

// settings: () => the player's settings (the sound is made only if it is on).
export function createFeedback(settings) {
  const feedback = {
    settings, // () => the player's settings (model/settings.js)
    sound: createSound(), // the Web Audio voices (table/sound.js)
    memory: cueMemory(), // what the table showed last (table/cues.js)
    unlocked: false, // the sound's context was made in a gesture
    readying: false, // the audio output is (or was) being readied at an idle moment (shown)
  };
  const unlock = (event) => gesture(feedback, event);
  for (const type of GESTURES) document.addEventListener(type, unlock, true);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") pauseSound(feedback.sound);
  });
  return { shown: (view, ui) => shown(feedback, view, ui) };
}

// The first gesture that the browser counts as the player's makes the
// sound's context (with Sonido off, none is made until it is turned on).
function gesture(feedback, event) {
  const active = navigator.userActivation ? navigator.userActivation.isActive : event.type !== "pointerdown";
  if (!active) return;
  if (feedback.settings().sound) {
    feedback.unlocked = unlockSound(feedback.sound) || feedback.unlocked;
  } else if (event.type === "click") {
    // Sonido may be turned on by this very tap (the table's mute, the
    // menu's switch), whose handler runs after this one: look again then,
    // while the tap still counts as the player's.
    setTimeout(() => {
      if (feedback.settings().sound) feedback.unlocked = unlockSound(feedback.sound) || feedback.unlocked;
    }, 0);
  }
}

// A full render showed the table as `view` and `ui`: its cues, now. The
// first one (the engine is up) also readies the audio output at the next
// idle moment, with Sonido on, so the first tap does not wait for it, and
// the rustle's noise, so the first sound does not compute it.
function shown(feedback, view, ui) {
  if (!feedback.readying) {
    feedback.readying = true;
    whenIdle(() => {
      if (!feedback.settings().sound) return;
      readySound(feedback.sound);
      prepareNoise(feedback.sound);
    });
  }
  const cues = nextCues(feedback.memory, view, ui);
  if (!cues.length || document.visibilityState === "hidden") return;
  const settings = feedback.settings();
  const scale = SPEED_SCALE[settings.speed] ?? 1;
  for (const cue of cues) {
    if (settings.sound) playCue(feedback.sound, cue.name, cue.at, scale);
    if (settings.vibration && cue.seat === 0) pulse(cue.name);
  }
}
