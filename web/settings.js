// Defaults and speeds of the player's settings (kept by storage.js).

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
};

// How long a card takes to move, by speed (motion.js).
export const ANIM_MS = { instant: 0, fast: 140, normal: 280, slow: 480 };
