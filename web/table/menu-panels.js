// The menu (always in the DOM, hidden while closed, so the seed can be read),
// the "how to play" page and the new-match confirmation.

import { checkField, el, intentButton, intentSelect as select, panel } from "./dom.js";
import { shortcutsFor } from "./shortcuts.js";
import { fullscreenButton } from "./fullscreen.js";
import { coachSwitch } from "./coach-views.js";
import { tutorialButton } from "./tutorial-bar.js";
import { lookFields } from "./look-views.js";
import { CUSTOM_CHOICES, DEFAULT_SWITCHES, PROFILES, profileName, switchesFor } from "../model/variants.js";


// Literal keys (the i18n tests look for every text's key in the code).
const PROFILE_LINES = {
  traditional: "profile_line.traditional",
  standard: "profile_line.standard",
  custom: "profile_line.custom",
  oklahoma: "profile_line.oklahoma",
  straight: "profile_line.straight",
};
const SWITCH_LABELS = { ace_gin: "menu.ace_gin", spade_double: "menu.spade_double", hollywood: "menu.hollywood" };

export function menuPanel(view, ui) {
  const { t, settings } = ui;
  // Closed, it holds only the seed (readable there): the rest is built when it opens.
  if (!ui.menuOpen)
    return el(
      "div",
      { class: "overlay menu-overlay", hidden: true, dataset: { key: "menu" } },
      el("p", { class: "seed" }, `${t("menu.seed")}: `, el("output", { class: "seed-value", text: view.seed })),
    );
  const rules = view.rules;
  const custom = settings.custom || {};
  const profileFields =
    settings.profile === "custom"
      ? el(
          "div",
          { class: "custom-fields" },
          Object.entries(CUSTOM_CHOICES).map(([name, values]) =>
            select(
              "customOption",
              t(`menu.${name}`),
              custom[name] ?? values[0],
              values.map((v) => [v === null ? "off" : v, v === null ? t("menu.off") : String(v)]),
              { name },
            ),
          ),
        )
      : null;
  const switches = { ...DEFAULT_SWITCHES, ...(settings.variant || {}) };
  const variantFields = el(
    "div",
    { class: "custom-fields variant-fields" },
    switchesFor(settings.profile).map((name) =>
      select(
        "variantOption",
        t(SWITCH_LABELS[name]),
        switches[name] ? "yes" : "no",
        [
          ["yes", t("menu.yes")],
          ["no", t("menu.off")],
        ],
        { name },
      ),
    ),
  );
  const box = el(
    "div",
    { class: "overlay menu-overlay", hidden: !ui.menuOpen, dataset: { key: "menu" } },
    el(
      "section",
      {
        class: "panel menu",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": "menu-title",
        dataset: { panel: "menu" },
      },
      el(
        "div",
        { class: "menu-head" },
        el("h2", { id: "menu-title", text: t("menu.title") }),
        intentButton(t("btn.back"), "closeMenu", { class: "btn ghost" }),
      ),
      el(
        "div",
        { class: "menu-actions" },
        intentButton(t("btn.new"), "newMatch", { class: "btn primary" }),
        intentButton(t("btn.replay"), "replay"),
        intentButton(t("btn.help"), "help"),
        fullscreenButton(t),
        intentButton(t("btn.stats"), "stats", { "aria-haspopup": "dialog" }),
        intentButton(t("btn.games"), "games", { "aria-haspopup": "dialog" }),
        intentButton(t("btn.daily"), "daily", { "aria-haspopup": "dialog" }),
      ),
      el("p", { class: "seed" }, `${t("menu.seed")}: `, el("output", { class: "seed-value", text: view.seed })),
      select(
        "level",
        t("menu.level"),
        settings.level,
        ["easy", "normal", "hard"].map((v) => [v, t(`level.${v}`)]),
      ),
      // The day's match or a challenge's is played at its own level (play/daily.js).
      ui.fixed
        ? el("p", { class: "note level-fixed", text: t("menu.level_fixed", { level: t(`level.${ui.fixed.level}`) }) })
        : view.next_level || ui.levelNote ? el("p", { class: "note", role: "status", text: t("menu.level_note") }) : null,
      coachSwitch(t, settings),
      select(
        "profile",
        t("menu.profile"),
        settings.profile,
        PROFILES.map((v) => [v, t(`profile.${v}`)]),
      ),
      el("p", { class: "note profile-line", text: t(PROFILE_LINES[settings.profile] || PROFILE_LINES.traditional) }),
      profileFields,
      variantFields,
      el("p", {
        class: "note",
        text: t("menu.rules_now", {
          profile: profileName(t, `${rules.profile}${rules.hollywood ? "-hollywood" : ""}`),
          gin: rules.gin_bonus,
          undercut: rules.undercut_bonus,
          target: rules.target,
        }),
      }),
      ui.profileNote ? el("p", { class: "note", role: "status", text: t("menu.profile_note") }) : null,
      select("lang", t("menu.language_label"), ui.lang, [
        ["es", t("lang.es")],
        ["en", t("lang.en")],
      ]),
      select(
        "speed",
        t("menu.speed"),
        settings.speed,
        ["slow", "normal", "fast", "instant"].map((v) => [v, t(`speed.${v}`)]),
      ),
      select(
        "sort",
        t("menu.sort"),
        settings.sort,
        ["melds", "suit", "rank", "manual"].map((v) => [v, t(`sort.${v}`)]),
      ),
      checkField("menu-four", "fourColour", "four", t("menu.four_colour"), settings.fourColour),
      lookFields(t, settings),
    ),
  );
  return box;
}

// What each single key does, for the rules page's list.
const KEY_HELP = {
  drawStock: "help.key_stock",
  drawDiscard: "help.key_pile",
  take: "help.key_take",
  pass: "help.key_pass",
  knock: "help.key_knock",
  gin: "help.key_gin",
  hint: "help.key_hint",
  next: "help.key_next",
};

// The rules page: a short guide with the numbers of this match's rules and
// the keyboard's keys.
export function helpPanel(view, ui) {
  const { t } = ui;
  const r = view.rules;
  const section = (key, text) => el("section", { class: "help-section" }, el("h3", { text: t(`${key}_title`) }), text);
  const p = (text) => el("p", { text });
  const shutout =
    r.shutout === "double" ? t("help.shutout_double") : t("help.shutout_bonus", { bonus: r.shutout_game_bonus });
  const bigGin = r.big_gin_bonus ? t("help.big_gin_on", { bonus: r.big_gin_bonus }) : t("help.big_gin_off");
  const keys = ["help.key_tab", "help.key_arrows", "help.key_enter", "help.key_escape"].map((k) =>
    el("li", { text: t(k) }),
  );
  const letters = Object.entries(shortcutsFor(ui.lang)).map(([name, key]) => el("li", { text: t(KEY_HELP[name], { key }) }));
  return panel(
    "help",
    t("help.title"),
    section("help.goal", p(t("help.goal", { target: r.target }))),
    section("help.deal", p(t("help.deal"))),
    section("help.turn", p(t("help.turn"))),
    section("help.melds", p(t("help.melds"))),
    section(
      "help.knock",
      p(t(r.straight ? "help.knock_straight" : r.oklahoma ? "help.knock_oklahoma" : "help.knock", { limit: r.knock_limit })),
    ),
    section("help.layoff", p(t("help.layoff"))),
    section("help.undercut", p(t("help.undercut", { bonus: r.undercut_bonus }))),
    el(
      "section",
      { class: "help-section" },
      el("h3", { text: t("help.score_title", { profile: t(`profile.${r.profile}`) }) }),
      p(
        t("help.score", {
          gin: r.gin_bonus,
          undercut: r.undercut_bonus,
          target: r.target,
          game: r.game_bonus,
          line: r.line_bonus,
        }),
      ),
      p(shutout),
      p(bigGin),
      p(t("help.void")),
      r.oklahoma && r.spade_double ? p(t("help.spade_double")) : null,
      r.hollywood ? p(t("help.hollywood_on")) : null,
    ),
    // Every variant the menu offers, with a worked example each.
    el(
      "section",
      { class: "help-section" },
      el("h3", { text: t("help.variants_title") }),
      p(t("help.variant_oklahoma")),
      p(t("help.variant_straight")),
      p(t("help.variant_hollywood")),
    ),
    // What the computer can and cannot see, and Comprobar (issue 32, docs/fairness.md).
    section("help.fair", p(t("help.fair"))),
    section("help.keys", el("ul", { class: "keys" }, keys, letters)),
    el(
      "div",
      { class: "panel-buttons" },
      intentButton(t("btn.back_menu"), "helpToMenu", { class: "btn ghost" }),
      intentButton(t("btn.back"), "closeHelp", { class: "btn primary" }),
      tutorialButton(t),
    ),
  );
}

// A restart asks once: "Nueva partida", and "Repetir" in the middle of a
// match (the same seed from its first deal).
function confirmPanel(t, { title, text, intent, cancelKey }) {
  return panel(
    "confirm",
    title,
    el("p", { text }),
    el(
      "div",
      { class: "panel-buttons" },
      intentButton(t("btn.start_new"), intent, { class: "btn primary" }),
      intentButton(t("btn.cancel"), "cancel", { class: "btn ghost", key: cancelKey }),
    ),
  );
}

export function confirmNewPanel(view, ui) {
  const { t } = ui;
  // What happens to the match on the table: a finished one is in the record already.
  const text = t(view && view.over ? "confirm.new_over" : "confirm.new");
  return confirmPanel(t, { title: t("btn.new"), text, intent: "confirmNew", cancelKey: "cancelNew" });
}

export function confirmReplayPanel(view, ui) {
  const { t } = ui;
  const text = t("confirm.replay", { seed: view.seed });
  return confirmPanel(t, { title: t("btn.replay"), text, intent: "confirmReplay", cancelKey: "cancelReplay" });
}
