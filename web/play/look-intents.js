// What the player can change of the table's sound and look (issue 30): the
// menu's Sonido, Vibración, card size, back and felt, and the table's
// one-tap mute. Each is checked like the menu's other settings (a value not
// offered changes nothing), kept at once, and drawn by the next render.
// Each takes the intents' record first (play/intents.js createIntents).

import { BACKS, CARD_SIZES, FELTS } from "../model/settings.js";

function keep(ctx, name, value) {
  ctx.state.settings[name] = value;
  ctx.controller.persistSettings();
  ctx.render();
}

// A yes/no setting: a checkbox gives true or false, nothing else counts.
function yesNo(name) {
  return (ctx, { value }) => {
    if (typeof value === "boolean") keep(ctx, name, value);
  };
}

// A setting with named values: only those the menu offers.
function oneOf(name, values) {
  return (ctx, { value }) => {
    if (values.includes(value)) keep(ctx, name, value);
  };
}

// The settings an imported file may set (menu-intents.js importSettings).
export const LOOK_SETTINGS = {
  sound: yesNo("sound"),
  vibration: yesNo("vibration"),
  cardSize: oneOf("cardSize", CARD_SIZES),
  back: oneOf("back", BACKS),
  felt: oneOf("felt", FELTS),
};

// The table's mute: one tap turns the sound off, another turns it on.
function toggleSound(ctx) {
  keep(ctx, "sound", ctx.state.settings.sound === false);
}

export const LOOK_INTENTS = { ...LOOK_SETTINGS, toggleSound };
