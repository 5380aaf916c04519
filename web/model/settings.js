// Defaults and speeds of the player's settings (kept by data/storage.js).

import { CUSTOM_CHOICES, DEFAULT_SWITCHES, PROFILES } from "./variants.js";

// The pause before each computer move, by speed.
export const SPEED_DELAY_MS = { instant: 0, fast: 150, normal: 450, slow: 900 };
export const DEFAULT_SETTINGS = {
  lang: null,
  level: "normal",
  speed: "normal",
  sort: "melds",
  profile: "traditional",
  custom: { gin_bonus: 20, undercut_bonus: 10, big_gin_bonus: null, target: 100 },
  // The variants' switches (variants.js): Oklahoma's ace and spade, Hollywood.
  variant: { ace_gin: true, spade_double: false, hollywood: false },
  fourColour: false,
  coach: false, // Entrenador (coach.js)
  // Issue 30: what the table sounds, feels and looks like (table/feedback.js, table/look-views.js).
  sound: true, // Sonido: the table's sounds (table/sound.js)
  vibration: true, // Vibración: a pulse on the player's draw, discard and knock (table/haptics.js)
  cardSize: "normal", // Tamaño de las cartas: "normal" | "large" (style.css: --card-scale)
  back: "red", // the cards' back (style.css: html[data-back])
  felt: "green", // the table's cloth (style.css: html[data-felt])
};

// The looks the menu offers, in its order: card backs and felts, each drawn
// by style.css alone (no image), each felt dark enough for the light text on
// it (WCAG AA, checked by axe-core on each).
export const CARD_SIZES = ["normal", "large"];
export const BACKS = ["red", "blue", "black"];
export const FELTS = ["green", "blue", "wine"];

// How long a card takes to move, by speed (motion.js).
export const ANIM_MS = { instant: 0, fast: 140, normal: 280, slow: 480 };

// The values each setting may take (the menu offers exactly these).
const CHOICES = {
  lang: [null, "es", "en"],
  level: ["easy", "normal", "hard"],
  speed: Object.keys(SPEED_DELAY_MS),
  sort: ["melds", "suit", "rank", "manual"],
  profile: PROFILES,
  fourColour: [true, false],
  coach: [true, false],
  sound: [true, false],
  vibration: [true, false],
  cardSize: CARD_SIZES,
  back: BACKS,
  felt: FELTS,
};
export { CUSTOM_CHOICES };

// Stored settings checked field by field: a field that is not one of its
// values falls back to its default and is named in `bad` (the page says so),
// so no stored value can keep a match from starting. Unknown fields go.
export function checkSettings(raw) {
  const settings = structuredClone(DEFAULT_SETTINGS);
  const bad = [];
  if (raw === null || raw === undefined) return { settings, bad };
  if (typeof raw !== "object" || Array.isArray(raw)) return { settings, bad: ["*"] };
  for (const [name, values] of Object.entries(CHOICES)) {
    if (!(name in raw)) continue;
    if (values.includes(raw[name])) settings[name] = raw[name];
    else bad.push(name);
  }
  // Each of the variants' yes/no switches on its own.
  if ("variant" in raw) {
    const variant = raw.variant;
    if (!variant || typeof variant !== "object" || Array.isArray(variant)) bad.push("variant");
    else
      for (const name of Object.keys(DEFAULT_SWITCHES)) {
        if (!(name in variant)) continue;
        if (typeof variant[name] === "boolean") settings.variant[name] = variant[name];
        else bad.push(`variant.${name}`);
      }
  }
  if ("custom" in raw) {
    const custom = raw.custom;
    if (!custom || typeof custom !== "object" || Array.isArray(custom)) bad.push("custom");
    else
      for (const [name, values] of Object.entries(CUSTOM_CHOICES)) {
        if (!(name in custom)) continue;
        if (values.includes(custom[name])) settings.custom[name] = custom[name];
        else bad.push(`custom.${name}`);
      }
  }
  return { settings, bad };
}

// The menu's name of each setting checkSettings() may reset (a text key),
// for the notice that says which one went back to its default.
const SETTING_LABELS = {
  lang: "menu.language_label",
  level: "menu.level",
  speed: "menu.speed",
  sort: "menu.sort",
  profile: "menu.profile",
  fourColour: "menu.four_colour",
  coach: "menu.coach",
  "variant.ace_gin": "menu.ace_gin",
  "variant.spade_double": "menu.spade_double",
  "variant.hollywood": "menu.hollywood",
  "custom.gin_bonus": "menu.gin_bonus",
  "custom.undercut_bonus": "menu.undercut_bonus",
  "custom.big_gin_bonus": "menu.big_gin_bonus",
  "custom.target": "menu.target",
};

// The notice for the settings checkSettings() reset: one named setting, or
// several: [key, vars] for notify().
export function settingsResetNotice(bad) {
  const label = bad.length === 1 ? SETTING_LABELS[bad[0]] : null;
  return label ? ["settings.reset_one", { name: { text: label } }] : ["settings.reset", {}];
}
