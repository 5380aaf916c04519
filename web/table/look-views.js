// What the table sounds and looks like, as the page shows it (issue 30): the
// menu's "Mesa" fields (Sonido, Vibración, card size, back, felt), the
// one-tap mute on the table, and the look written on the page's root for
// style.css (html[data-felt], [data-back], [data-card-size]). Built from the
// settings only.

import { el, checkField, intentSelect } from "./dom.js";
import { cardBack } from "./card-faces.js";
import { canVibrate } from "./haptics.js";
import { BACKS, CARD_SIZES, FELTS } from "../model/settings.js";

// Literal keys (the i18n tests look for every text's key in the code).
const SIZE_NAMES = { normal: "card_size.normal", large: "card_size.large" };
const BACK_NAMES = { red: "back.red", blue: "back.blue", black: "back.black" };
const FELT_NAMES = { green: "felt.green", blue: "felt.blue", wine: "felt.wine" };
// The browser's bar in each felt's darkest colour (meta theme-color).
const FELT_THEME = { green: "#14462b", blue: "#102f4c", wine: "#3a1219" };

// The look on the page's root: every card and the felt behind them follow it.
export function applyLook(settings) {
  const html = document.documentElement;
  const felt = FELTS.includes(settings.felt) ? settings.felt : FELTS[0];
  if (html.dataset.felt !== felt) {
    html.dataset.felt = felt;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute("content", FELT_THEME[felt]);
  }
  const back = BACKS.includes(settings.back) ? settings.back : BACKS[0];
  if (html.dataset.back !== back) html.dataset.back = back;
  const size = CARD_SIZES.includes(settings.cardSize) ? settings.cardSize : CARD_SIZES[0];
  if (html.dataset.cardSize !== size) html.dataset.cardSize = size;
}

// The menu's "Mesa": sound, vibration (where the device can), the cards'
// size and back, the felt; a back and a felt show themselves beside their
// choice.
export function lookFields(t, settings) {
  const back = intentSelect("back", t("menu.back"), settings.back, BACKS.map((v) => [v, t(BACK_NAMES[v])]));
  back.classList.add("with-sample");
  back.append(cardBack("mini sample"));
  const felt = intentSelect("felt", t("menu.felt"), settings.felt, FELTS.map((v) => [v, t(FELT_NAMES[v])]));
  felt.classList.add("with-sample");
  felt.append(el("span", { class: "felt-sample", "aria-hidden": "true" }));
  return el(
    "fieldset",
    { class: "look-fields" },
    el("legend", { text: t("menu.table") }),
    checkField("menu-sound", "sound", "sound", t("menu.sound"), settings.sound),
    canVibrate() ? checkField("menu-vibration", "vibration", "vibration", t("menu.vibration"), settings.vibration) : null,
    intentSelect("cardSize", t("menu.card_size"), settings.cardSize, CARD_SIZES.map((v) => [v, t(SIZE_NAMES[v])])),
    back,
    felt,
  );
}

// The one-tap mute on the table (top right of the felt): a speaker, struck
// through when the sound is off; its name stays "Sonido", its state is
// aria-pressed.
export function soundButton(t, settings) {
  const on = settings.sound !== false;
  return el(
    "button",
    {
      type: "button",
      class: `btn ghost sound-btn${on ? "" : " off"}`,
      "aria-label": t("btn.sound"),
      "aria-pressed": String(on),
      title: t(on ? "btn.sound_on" : "btn.sound_off"),
      dataset: { intent: "toggleSound", key: "sound-toggle" },
    },
    speaker(on),
  );
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

// A speaker with two waves (on), or with a cross (off), in the button's colour.
function speaker(on) {
  const svg = svgNode("svg", { viewBox: "0 0 24 24", class: "speaker", "aria-hidden": "true", focusable: "false" });
  svg.append(svgNode("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }));
  const stroke = { fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" };
  if (on) {
    svg.append(svgNode("path", { d: "M15.5 9a4 4 0 0 1 0 6", ...stroke }), svgNode("path", { d: "M18 6.5a7.5 7.5 0 0 1 0 11", ...stroke }));
  } else {
    svg.append(svgNode("path", { d: "M16 9.5l5 5M21 9.5l-5 5", ...stroke }));
  }
  return svg;
}
