// The notices over the felt: what the page tells the player besides the
// game (a value kept aside, a full storage, the engine restarted, the
// guided deal over...). Anyone tells one through notify(key, kind, vars);
// how long it stays is model/notices.js's one rule (an answer asked: until
// answered; else a reading time), where it floats is table/notices.js's
// (over the felt where nothing is played; it waits while there is no room).
// A notice's clock runs only while it is on the screen and nobody holds it
// (the pointer or the focus on a notice, the page hidden); it is told to a
// screen reader once, when it first shows. Its state is one record
// (createNotices); its functions take it first.

import { asksAnswer, makeNotice, noticeLife, noticeText } from "../model/notices.js";

// deps: {state (app.js: state.notices is the list shown or waiting),
// render(), announce(text)}.
export function createNotices({ state, render, announce }) {
  const rec = {
    state, // the page's shared state: state.notices, state.t, state.ui.focus
    render, // app.js's render funnel
    announce, // a line for the screen reader's log
    told: [], // every key told since the page opened, in order (window.ginApp.notices)
    clocks: new Map(), // notice -> {left, since, timer, announced}: its time on the screen
    holds: new Set(), // why no clock runs now: "pointer", "focus", "hidden"
  };
  return {
    notify: (key, kind, vars, actions) => notify(rec, key, kind, vars, actions),
    dismiss: (key) => dismiss(rec, key),
    shown: (keys) => shown(rec, keys),
    hold: (reason, on) => hold(rec, reason, on),
    told: () => [...rec.told],
  };
}

// One notice per key at a time; the same key told again while it shows
// changes nothing (its clock goes on).
function notify(rec, key, kind = "info", vars = {}, actions = []) {
  const { state } = rec;
  if (!rec.told.includes(key)) rec.told.push(key);
  if (state.notices.some((n) => n.key === key)) return;
  state.notices.push(makeNotice(key, kind, vars, actions));
}

const textOf = (rec, notice) => (rec.state.t ? noticeText(rec.state.t, notice) : notice.key);

// After each placement (table/notices.js): `keys` are the notices now on
// the screen. A notice shown for the first time is announced and its
// clock starts; one that waits (no room, a dialog open) keeps its time.
function shown(rec, keys) {
  const on = new Set(keys);
  for (const notice of rec.state.notices) {
    let clock = rec.clocks.get(notice);
    if (!on.has(notice.key)) {
      if (clock) stopClock(clock);
      continue;
    }
    if (!clock) {
      clock = { left: noticeLife(notice, textOf(rec, notice)), since: 0, timer: null, announced: false };
      rec.clocks.set(notice, clock);
    }
    if (!clock.announced) {
      clock.announced = true;
      rec.announce(textOf(rec, notice));
    }
    if (!rec.holds.size) startClock(rec, notice, clock);
  }
}

function startClock(rec, notice, clock) {
  if (clock.timer !== null || clock.left === Infinity || asksAnswer(notice)) return;
  clock.since = performance.now();
  clock.timer = setTimeout(() => {
    clock.timer = null;
    remove(rec, notice);
    rec.render();
  }, clock.left);
}

function stopClock(clock) {
  if (clock.timer === null) return;
  clearTimeout(clock.timer);
  clock.timer = null;
  clock.left = Math.max(0, clock.left - (performance.now() - clock.since));
}

// The pointer over a notice, the focus in one, the page hidden: every clock
// stops until the last of them ends. A notice left by the pointer or the
// focus gets a moment more, never less than two seconds.
function hold(rec, reason, on) {
  const was = rec.holds.size > 0;
  if (on) rec.holds.add(reason);
  else rec.holds.delete(reason);
  if (rec.holds.size && !was) for (const clock of rec.clocks.values()) stopClock(clock);
  if (!rec.holds.size && was) {
    for (const [notice, clock] of rec.clocks) {
      if (clock.announced && rec.state.notices.includes(notice)) {
        clock.left = Math.max(clock.left, 2000);
        startClock(rec, notice, clock);
      }
    }
  }
}

function remove(rec, notice) {
  const clock = rec.clocks.get(notice);
  if (clock) stopClock(clock);
  rec.clocks.delete(notice);
  const list = rec.state.notices;
  const at = list.indexOf(notice);
  if (at >= 0) list.splice(at, 1);
}

// × (or an answer): it goes now.
function dismiss(rec, key) {
  const { state } = rec;
  const notice = state.notices.find((n) => n.key === key);
  if (!notice) return;
  remove(rec, notice);
  // The pointer was on it: it is gone, and so is the hold.
  hold(rec, "pointer", false);
  hold(rec, "focus", false);
  // A keyboard player's focus was on its button: it goes on to the next
  // notice's ×, else to the table's menu button.
  if (state.ui.modality === "key") {
    const next = state.notices[0];
    state.ui.focus = next ? `dismiss:${next.key}` : state.view ? "menu" : null;
  }
  rec.render();
}
