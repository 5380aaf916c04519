// What the player can do: each intent (from input.js, drag.js) changes the
// UI state or asks the controller for a move. Intents never read the DOM.

import { cardPoints } from "../model/cards.js";
import { newSeed } from "../model/seed.js";
import { hintAction, newDeal, reasonText } from "../text/words.js";
import { knockDraft, moveInDraft, resetDraft } from "../model/knock.js";
import { CUSTOM_CHOICES, DEFAULT_SETTINGS, SPEED_DELAY_MS } from "../model/settings.js";
import { toggleFullscreen } from "../table/fullscreen.js";
import { matchId } from "../data/finished.js";
import { openStats, openGames } from "../screens/stats.js";
import { openViewer } from "../screens/viewer.js";
import { coachIntents } from "./coach.js";
import { DEFAULT_SWITCHES, PROFILES } from "../model/variants.js";

export function createIntents({ state, game, draw, announce, setLanguage, clearLog, tutorial }) {
  const { act, play, accept, acknowledge, startMatch, setMessage, refuseLocally, persistSettings, boot, call } = game;
  const intents = {
    ...coachIntents({ state, draw, persistSettings, watchAt }),
    ...tutorial.intents,
    select({ card }) {
      if (!state.view || state.ui.panel) return;
      if (state.ui.selected === card) {
        act({ type: "discard", card });
        return;
      }
      state.ui.selected = card;
      if (state.ui.message && state.ui.message.kind === "refusal") state.ui.message = null;
      state.ui.focus = `card:${card}`;
      draw();
    },
    discardSelected() {
      if (!state.view) return;
      if (!state.ui.selected || !state.view.hand.includes(state.ui.selected)) {
        if (state.view.phase === "discard" || state.view.to_act !== 0)
          refuseLocally(state.view.to_act === 0 ? "select_first" : "not_your_turn");
        else act({ type: "discard", card: state.view.hand[0] }); // the engine says why not
        return;
      }
      act({ type: "discard", card: state.ui.selected });
    },
    // A card dropped on the pile: the same discard as two taps.
    // Returns the engine's promise (or nothing when refused at once), so
    // drag.js knows when to let go of the card it holds at the drop point.
    dragDiscard({ card }) {
      if (!state.view || !state.view.hand.includes(card) || state.ui.panel) return undefined;
      return act({ type: "discard", card });
    },
    // The hand in the player's order ("manual" sort; drag.js and Alt+arrows
    // in input.js): kept for this deal, beside the save.
    reorder({ order, card }) {
      const view = state.view;
      if (!view || state.settings.sort !== "manual" || !Array.isArray(order)) return;
      if (order.length !== view.hand.length || !view.hand.every((c) => order.includes(c))) return;
      state.ui.order = { seed: view.seed, deal: view.deal_number, cards: [...order] };
      if (card) state.ui.focus = `card:${card}`;
      draw();
    },
    take() {
      act({ type: "take" });
    },
    pass() {
      act({ type: "pass" });
    },
    drawStock() {
      act({ type: "draw", from: "stock" });
    },
    drawDiscard() {
      act({ type: "draw", from: "discard" });
    },
    knock({ kind }) {
      const view = state.view;
      if (!view || state.busy || view.to_act !== 0) return;
      const dd = view.discard_deadwood || {};
      const options = view.legal.filter(
        (a) => a.type === "knock" && (kind === "gin" ? dd[a.card] === 0 : dd[a.card] > 0),
      );
      if (!options.length) return;
      // The selected card if it allows this, else the best discard for it:
      // least deadwood left, then the highest card thrown.
      let action = options.find((a) => a.card === state.ui.selected);
      if (!action) {
        action = [...options].sort((a, b) => dd[a.card] - dd[b.card] || cardPoints(b.card) - cardPoints(a.card))[0];
        state.ui.selected = action.card;
      }
      state.ui.knock = knockDraft(state.view, action);
      state.ui.panel = "knock";
      state.ui.message = null;
      state.ui.focus = "confirm";
      draw();
    },
    bigGin() {
      const view = state.view;
      const action = view && view.legal.find((a) => a.type === "big_gin");
      if (!action || state.busy) return;
      state.ui.knock = knockDraft(state.view, action);
      state.ui.panel = "knock";
      state.ui.focus = "confirm";
      draw();
    },
    // Move one card between melds and deadwood while the knock stays legal.
    knockMove({ card }) {
      const draft = state.ui.knock;
      if (!draft || draft.type === "big_gin") return;
      const refused = moveInDraft(draft, card, state.view.knock_limit ?? state.view.rules.knock_limit);
      const key = refused === "cannot_add" ? "knock.cannot_add" : "knock.cannot_move";
      if (refused) setMessage("info", refused, (t) => t(key));
      else state.ui.message = null;
      state.ui.focus = `knock:${card}`;
      draw();
    },
    resetKnock() {
      const draft = state.ui.knock;
      if (!draft) return;
      resetDraft(draft);
      state.ui.message = null;
      draw();
    },
    confirmKnock() {
      const draft = state.ui.knock;
      if (!draft || state.busy) return;
      const action =
        draft.type === "big_gin"
          ? { type: "big_gin", melds: draft.melds }
          : { type: "knock", card: draft.card, melds: draft.melds };
      // On a refusal the panel stays open with the message.
      play(async () => {
        const result = await call("act", { action });
        state.ui.message = null;
        state.ui.hintTarget = null;
        state.ui.panel = null;
        state.ui.knock = null;
        accept(result);
      });
    },
    hint() {
      if (!state.view || state.busy || state.view.to_act !== 0 || state.view.over) {
        if (state.view && state.view.to_act === 1) refuseLocally("not_your_turn");
        return;
      }
      play(async () => {
        const { hint } = await call("hint", {});
        const a = hint.action;
        const dd = state.view.discard_deadwood || {};
        const gin = a.type === "knock" && dd[a.card] === 0;
        const targets = { take: "take", pass: "pass", big_gin: "big_gin", discard: `card:${a.card}` };
        let target = targets[a.type] || null;
        if (a.type === "draw") target = a.from === "discard" ? "discard" : "stock";
        if (a.type === "knock") target = gin ? "gin" : "knock";
        // Reason codes come from gin/ai with the facts behind them (hint.why).
        const reasonOf = (t) => reasonText(t, hint.reason, hint.why);
        setMessage("hint", hint.reason, (t) =>
          t("hint.label", { action: hintAction(t, a, gin), reason: reasonOf(t) }).trim(),
        );
        state.ui.hintTarget = target;
        if (a.card && (a.type === "discard" || a.type === "knock")) state.ui.selected = a.card;
      });
    },
    next() {
      if (state.ui.panel !== "deal") return;
      if (state.ui.tutorial) return tutorial.finish(); // the guided deal ends with its first deal
      if (state.ui.result) acknowledge(state.ui.result.number);
      state.ui.result = null;
      state.ui.panel = state.view && state.view.over ? "match" : null;
      state.ui.focus = state.ui.panel === "match" ? "again" : null;
      state.ui.lastComputer = null;
      if (!state.ui.panel) {
        announce(newDeal(state.t, state.view.deal_number, state.view.dealer));
        state.ui.focus =
          state.view.to_act === 0 ? (state.view.phase.startsWith("upcard") ? "act:take" : "stock") : null;
      }
      draw();
      play(async () => {}); // the computer may deal the first move
    },
    again() {
      state.ui.panel = null;
      play(() => startMatch(newSeed()));
    },
    openMenu() {
      state.ui.menuOpen = true;
      state.ui.focus = "closeMenu";
      draw();
    },
    closeMenu() {
      state.ui.menuOpen = false;
      state.ui.focus = "menu";
      draw();
      play(async () => {});
    },
    help() {
      fromMenu("help", "closeHelp");
    },
    // "Volver a la mesa" on the rules page: to the table (the menu closed
    // too); "Volver al menú" and Escape: one step back, to the menu.
    closeHelp() {
      state.ui.panel = null;
      state.ui.menuOpen = false;
      state.ui.focus = "menu";
      draw();
      play(async () => {});
    },
    helpToMenu() {
      state.ui.panel = null;
      state.ui.menuOpen = true;
      state.ui.focus = "help";
      draw();
    },
    // The match result closes to look at the table (and reach the menu);
    // "Ver el resultado" on the table opens it again.
    closeResult() {
      if (state.ui.panel !== "match") return;
      state.ui.panel = null;
      state.ui.focus = "act:showResult";
      draw();
    },
    showResult() {
      if (!state.view || !state.view.over || state.ui.panel) return;
      state.ui.panel = "match";
      state.ui.focus = "again";
      draw();
    },
    newMatch() {
      fromMenu("confirmNew", "confirmNew");
    },
    confirmNew() {
      state.ui.panel = null;
      const left = state.view && state.view.seed;
      // The player chose to leave it: it is not kept among the unfinished ones.
      play(async () => {
        await startMatch(newSeed());
        if (left) game.storage.dropOpen(left);
      });
    },
    cancel() {
      if (state.ui.panel === "knock") {
        state.ui.knock = null;
        state.ui.focus = state.ui.selected ? `card:${state.ui.selected}` : null;
      }
      if (["knock", "confirmNew", "confirmReplay", "help"].includes(state.ui.panel)) state.ui.panel = null;
      state.ui.message = null;
      draw();
      play(async () => {});
    },
    escape() {
      if (state.ui.menuOpen) return intents.closeMenu();
      if (state.ui.panel === "help") return intents.helpToMenu();
      if (state.ui.panel === "match") return intents.closeResult();
      if (["knock", "confirmNew", "confirmReplay"].includes(state.ui.panel)) return intents.cancel();
      if (state.ui.panel) return;
      const focused = state.ui.selected;
      state.ui.selected = null;
      state.ui.hintTarget = null;
      state.ui.message = null;
      if (focused) state.ui.focus = `card:${focused}`;
      draw();
    },
    // "Repetir": after a finished match at once; in the middle of one, only
    // once the player confirms (like "Nueva partida").
    replay() {
      if (!state.view) return;
      if (!state.view.over) return fromMenu("confirmReplay", "confirmReplay");
      state.ui.menuOpen = false;
      intents.confirmReplay();
    },
    confirmReplay() {
      if (!state.view) return;
      const seed = state.view.seed;
      state.ui.panel = null;
      // The same seed from its first deal, under the rules the menu names.
      play(() => startMatch(seed));
    },
    rove({ card }) {
      state.ui.rover = card || null; // no render: input.js moved the focus itself
    },
    // How the player last pressed something: "touch", "mouse", "pen" or "key" (no render).
    modality({ kind }) {
      state.ui.modality = kind;
    },
    faster() {
      // "Acelerar" toggles between fast and normal play of the computer's turns.
      state.settings.speed = state.settings.speed === "fast" || state.settings.speed === "instant" ? "normal" : "fast";
      persistSettings();
      draw();
    },
    level({ value }) {
      if (!["easy", "normal", "hard"].includes(value)) return;
      state.settings.level = value;
      persistSettings();
      state.ui.levelNote = true;
      if (state.view) play(async () => accept(await call("set_level", { level: value })));
      else draw();
    },
    profile({ value }) {
      if (!PROFILES.includes(value)) return;
      state.settings.profile = value;
      state.ui.profileNote = true;
      persistSettings();
      draw();
    },
    // Oklahoma's ace and spade, Hollywood: yes/no for the next match.
    variantOption({ name, value }) {
      if (!(name in DEFAULT_SWITCHES) || !["yes", "no"].includes(value)) return;
      state.settings.variant = { ...DEFAULT_SWITCHES, ...(state.settings.variant || {}), [name]: value === "yes" };
      state.ui.profileNote = true;
      persistSettings();
      draw();
    },
    customOption({ name, value }) {
      const allowed = CUSTOM_CHOICES;
      if (!(name in allowed)) return;
      const parsed = value === "off" ? null : Number(value);
      if (!allowed[name].includes(parsed)) return;
      state.settings.custom = { ...DEFAULT_SETTINGS.custom, ...(state.settings.custom || {}), [name]: parsed };
      state.ui.profileNote = true;
      persistSettings();
      draw();
    },
    lang({ value }) {
      if (!["es", "en"].includes(value)) return;
      state.settings.lang = value;
      setLanguage(value);
      persistSettings();
      clearLog(); // the log's old lines are in the other language
      draw();
    },
    language() {
      intents.lang({ value: state.lang === "es" ? "en" : "es" });
    },
    speed({ value }) {
      if (!(value in SPEED_DELAY_MS)) return;
      state.settings.speed = value;
      persistSettings();
      draw();
    },
    sort({ value }) {
      if (!["melds", "suit", "rank", "manual"].includes(value)) return;
      state.settings.sort = value;
      persistSettings();
      draw();
    },
    fourColour({ value }) {
      state.settings.fourColour = Boolean(value);
      persistSettings();
      draw();
    },
    dismiss({ index }) {
      state.notices.splice(Number(index), 1);
      draw();
    },
    retry() {
      boot();
    },
    fullscreen() {
      toggleFullscreen(draw); // a success redraws on fullscreenchange, a refusal through draw
    },
    // Statistics, the kept matches and the replay viewer open in sheets of
    // their own (statspanel.js, viewer.js) and come back here.
    stats() {
      fromMenu("sheet"); // the table waits (and the computer with it)
      openStats({ ...sheetContext(), applySettings: importSettings, onClose: backToMenu("stats") });
    },
    games() {
      fromMenu("sheet");
      openGames({
        ...sheetContext(),
        watch: (save, back) => openViewer(save, { ...sheetContext(), onClose: back }),
        onClose: backToMenu("games"),
      });
    },
    watch() {
      if (!state.view || !state.view.over || !state.save) return;
      openViewer(state.save, {
        ...sheetContext(),
        onClose: () => {
          state.ui.focus = "watch";
          draw();
        },
      });
    },
  };

  // Leaves the menu for a panel (and the focus to `focus`, when given).
  function fromMenu(panel, focus) {
    state.ui.menuOpen = false;
    state.ui.panel = panel;
    if (focus) state.ui.focus = focus;
    draw();
  }

  function sheetContext() {
    return {
      t: () => state.t,
      lang: () => state.lang,
      call,
      reviewEngine: game.reviewEngine,
      speed: state.settings.speed,
      settings: () => ({ ...state.settings }),
      matchId,
      history: game.history,
      currentSave: () => state.save,
      storage: game.storage,
      openMatches: game.openMatches,
      resume(seed) {
        state.ui.menuOpen = false;
        draw();
        game.resumeMatch(seed);
      },
    };
  }

  // The coach's deal summary: the viewer on a deal just ended, at a step.
  function watchAt(deal, step, key) {
    openViewer(state.save, {
      ...sheetContext(),
      deal,
      step,
      onClose: () => {
        state.ui.focus = key;
        draw();
      },
    });
  }

  function backToMenu(key) {
    return () => {
      if (state.ui.panel === "sheet") state.ui.panel = null;
      state.ui.menuOpen = true;
      state.ui.focus = key;
      draw();
    };
  }

  // Settings from an imported file go through the same checks as the menu's.
  function importSettings(settings) {
    for (const name of ["lang", "speed", "sort", "fourColour", "profile", "level"]) {
      if (name in settings && settings[name] !== null && settings[name] !== state.settings[name]) {
        intents[name]({ value: settings[name] });
      }
    }
  }

  return intents;
}
