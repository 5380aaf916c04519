// Two questions about which match this tab plays, asked in sheets over the
// table (sheet.js): the match is open in another tab ("Jugar aquí"), and a
// link names another match while this one is unfinished.

import { button, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";

// t(): the current translator. onTake(): the player takes the match here.
// It cannot be dismissed: the table behind it belongs to the other tab.
export function openElsewhereSheet({ t, onTake }) {
  let taking = false;
  const sheet = openSheet({
    id: "elsewhere",
    onClose: () => {
      if (!taking) again = openElsewhereSheet({ t, onTake });
    },
  });
  let again = null;
  sheet.fill(
    t()("tabs.title"),
    [
      el("p", { role: "status", text: t()("tabs.elsewhere") }),
      el(
        "div",
        { class: "panel-buttons" },
        button(t()("tabs.play_here"), "playHere", () => {
          taking = true;
          sheet.close();
          onTake();
        }, { class: "btn primary" }),
      ),
    ],
    "playHere",
  );
  return {
    get closed() {
      return again ? again.closed : sheet.closed;
    },
  };
}

// current, wanted: seeds. onOpen(): open the link, keeping this match;
// onDrop(): open it and drop this one (null: not offered); onStay(): keep
// playing (also Escape). ask: "daily" when the match asked for is a day of
// the calendar; elsewhere: the match on the table is open in another tab.
// [the question, the same when the table is another tab's, the open button]
const ASK = { daily: ["daily.ask", "daily.ask_elsewhere", "daily.ask_open"] };
const LINK = ["link.ask", "link.ask_elsewhere", "link.open"];
export function openLinkSheet({ t, current, wanted, ask = null, elsewhere = false, onOpen, onDrop, onStay }) {
  const [here, there, open] = Object.hasOwn(ASK, ask) ? ASK[ask] : LINK;
  const question = elsewhere ? there : here;
  let chosen = onStay;
  const sheet = openSheet({ id: "link", onClose: () => chosen() });
  const pick = (fn) => () => {
    chosen = fn;
    sheet.close();
  };
  sheet.fill(
    t()("link.title"),
    [
      el("p", { text: t()(question, { current, wanted }) }),
      el(
        "div",
        { class: "panel-buttons" },
        button(t()(open), "linkOpen", pick(onOpen), { class: "btn primary" }),
        button(t()("link.stay"), "linkStay", pick(onStay)),
        onDrop ? button(t()("link.drop"), "linkDrop", pick(onDrop), { class: "btn danger" }) : null,
      ),
    ],
    "linkOpen",
  );
  return sheet;
}
