"""The table's sounds (web/table/sound.js) in Node, over a stand-in Web Audio context: the card's
rustle's noise is computed ahead at idle moments, not in the frame of the first sound (issue 33)."""

from __future__ import annotations

from webnode import run_web

# A context that records what the voices ask of it; an idle queue the script runs by hand.
SCRIPT = """
const idle = [];
globalThis.requestIdleCallback = (fn) => { idle.push(fn); return idle.length; };
const { createSound, playCue, prepareNoise } = await import(process.argv[1] + "/table/sound.js");
const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
const voice = () => ({ connect(n) { return n; }, start() {}, stop() {}, gain: param(), frequency: param(), Q: param() });
function context(rate, log) {
  return {
    sampleRate: rate, currentTime: 0, state: "running",
    createBuffer(channels, length) {
      const data = new Float32Array(length);
      return { length, data,
        getChannelData() { log.push("getChannelData"); return data; },
        copyToChannel(source) { log.push("copyToChannel"); data.set(source); } };
    },
    createBufferSource: voice, createBiquadFilter: voice, createGain: voice, createOscillator: voice,
  };
}
function played(ahead, rate) {
  const log = [];
  const sound = createSound();
  sound.context = context(rate, log);
  sound.out = voice();
  let slices = 0;
  if (ahead) {
    prepareNoise(sound);
    while (idle.length) { slices++; idle.shift()({ timeRemaining: () => 0 }); }
  }
  playCue(sound, "deal");
  playCue(sound, "draw_stock");
  const data = Array.from(sound.noise.data);
  return { slices, log, length: data.length, min: Math.min(...data), max: Math.max(...data), distinct: new Set(data.slice(0, 1000)).size, head: data.slice(0, 8), tail: data.slice(-8) };
}
const out = {};
for (const rate of [44100, 48000, 96000]) out[rate] = { ahead: played(true, rate), late: played(false, rate) };
process.stdout.write(JSON.stringify(out));
"""


def test_the_rustles_noise_is_computed_ahead_at_idle_moments_and_is_the_same_sound():
    out = run_web(SCRIPT)
    for rate, runs in out.items():
        ahead, late = runs["ahead"], runs["late"]
        # Ahead: in several idle slices (none long), and the first rustle only copies it.
        assert ahead["slices"] > 5, (rate, ahead["slices"])
        assert ahead["log"] == ["copyToChannel"], (rate, ahead["log"])
        # One second of white noise at the context's rate, whichever way it was made: the same one.
        for run in (ahead, late):
            assert run["length"] == int(rate) and -1 <= run["min"] < -0.9 and 0.9 < run["max"] <= 1, (rate, run)
            assert run["distinct"] > 990
        assert ahead["head"] == late["head"] and ahead["tail"] == late["tail"], rate


# The context made in the player's gesture (unlockSound), over a stand-in AudioContext class that
# logs what is made; the idle queue run by hand, as above.
WARM = """
const idle = [];
globalThis.requestIdleCallback = (fn) => { idle.push(fn); return idle.length; };
const run = () => { while (idle.length) idle.shift()({ timeRemaining: () => 50 }); };
const { createSound, playCue, prepareNoise, unlockSound } = await import(process.argv[1] + "/table/sound.js");
const log = [];
const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} });
const voice = (kind) => () => {
  const node = { connect(n) { return n; }, start() { log.push("start:" + kind); }, stop() {}, gain: param(), frequency: param(), Q: param() };
  if (kind === "oscillator") Object.defineProperty(node, "type", { set(t) { log.push("type:" + t); } });
  return node;
};
globalThis.AudioContext = class {
  constructor() { this.sampleRate = 48000; this.currentTime = 0; this.state = "running"; this.destination = {}; }
  createBuffer(channels, length) { log.push("buffer"); return { length, copyToChannel() { log.push("copyToChannel"); } }; }
  createGain = voice("gain"); createBufferSource = voice("source"); createBiquadFilter = voice("filter"); createOscillator = voice("oscillator");
};
const out = {};
const sound = createSound();
prepareNoise(sound);
run(); // the noise computed ahead, before any gesture
unlockSound(sound); // the gesture
out.inGesture = log.filter((e) => e !== "start:gain");
log.length = 0;
run(); // the next idle moment
out.atIdle = [...log];
log.length = 0;
playCue(sound, "knock");
playCue(sound, "deal");
out.cues = [...log];
process.stdout.write(JSON.stringify(out));
"""


def test_the_first_knock_and_rustle_find_their_wave_and_buffer_made_at_an_idle_moment():
    out = run_web(WARM)
    # The gesture makes the context and its master gain, nothing more.
    assert "type:triangle" not in out["inGesture"] and "buffer" not in out["inGesture"]
    # At the next idle moment: a triangle oscillator (its wave's tables) and the rustle's buffer;
    # nothing is started, so nothing sounds.
    assert out["atIdle"] == ["type:triangle", "buffer", "copyToChannel"]
    # The cues then make their voices and sound, and no buffer again.
    assert "buffer" not in out["cues"] and "start:oscillator" in out["cues"] and "start:source" in out["cues"]
