// The rule profiles and their options as the page knows them (gin.rules is
// the authority: the engine refuses anything else), the options a new match
// is started with, and the rules a shared link carries.

export const PROFILES = ["traditional", "standard", "custom", "oklahoma", "straight"];

export const CUSTOM_CHOICES = {
  gin_bonus: [20, 25],
  undercut_bonus: [10, 20, 25],
  big_gin_bonus: [null, 25, 31, 50],
  target: [100, 250, 500],
};

// Yes/no switches, by the profiles that take them (gin.rules.PROFILE_OPTIONS).
export const SWITCHES = {
  ace_gin: ["oklahoma"],
  spade_double: ["oklahoma"],
  hollywood: PROFILES,
};
export const DEFAULT_SWITCHES = { ace_gin: true, spade_double: false, hollywood: false };

const PROFILE_OPTIONS = {
  traditional: ["hollywood"],
  standard: ["hollywood"],
  custom: [...Object.keys(CUSTOM_CHOICES), "hollywood"],
  oklahoma: ["ace_gin", "spade_double", "hollywood"],
  straight: ["big_gin_bonus", "hollywood"],
};

// The profiles statistics keep apart: each one, and each with Hollywood
// (gin.stats writes "oklahoma-hollywood").
export const STATS_PROFILES = PROFILES.flatMap((p) => [p, `${p}-hollywood`]);

// A statistics profile's name: "Oklahoma · Hollywood".
export function profileName(t, key) {
  const [profile, hollywood] = String(key).split("-");
  return hollywood ? `${t(`profile.${profile}`)} · Hollywood` : t(`profile.${profile}`);
}

// The switches the menu offers under this profile.
export function switchesFor(profile) {
  return Object.keys(SWITCHES).filter((name) => SWITCHES[name].includes(profile));
}

// {profile, options} for new_match from the player's settings.
export function newMatchRules(settings) {
  const profile = PROFILES.includes(settings.profile) ? settings.profile : "traditional";
  const switches = { ...DEFAULT_SWITCHES, ...(settings.variant || {}) };
  const options = {};
  if (profile === "custom") {
    const c = settings.custom || {};
    for (const [name, values] of Object.entries(CUSTOM_CHOICES)) {
      const v = c[name] ?? values[0];
      if (name !== "big_gin_bonus" || v) options[name] = v;
    }
  }
  for (const name of switchesFor(profile)) {
    if (typeof switches[name] === "boolean") options[name] = switches[name];
  }
  return { profile, options };
}

// {profile, options} that start a match by exactly these rules (a view's rules).
export function rulesOf(rules) {
  const profile = rules.profile;
  const options = {};
  for (const name of PROFILE_OPTIONS[profile] || []) {
    if (name in rules) options[name] = rules[name];
    else if (Object.hasOwn(DEFAULT_SWITCHES, name)) options[name] = false;
  }
  return { profile, options };
}

// The rules part of a link: "" for traditional without options (links stay
// as they were), else "&rules=oklahoma,ace_gin:1,spade_double:0,hollywood:1".
export function rulesHash(rules) {
  const { profile, options } = rulesOf(rules);
  const parts = Object.entries(options)
    .filter(([name, v]) => !(name === "big_gin_bonus" && v === null && profile !== "custom"))
    .filter(([name, v]) => !(name in DEFAULT_SWITCHES && v === false && profile !== "oklahoma"))
    .map(([name, v]) => `${name}:${v === true ? 1 : v === false ? 0 : v === null ? "off" : v}`);
  if (profile === "traditional" && !parts.length) return "";
  return `&rules=${[profile, ...parts].join(",")}`;
}

// {profile, options} named by a link, or null (no rules in it, or not readable).
export function rulesFromHash(hash) {
  const match = /(?:^#|&)rules=([^&]*)/.exec(hash || "");
  if (!match) return null;
  let text;
  try {
    text = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const [profile, ...parts] = text.split(",");
  if (!PROFILES.includes(profile)) return null;
  const options = {};
  for (const part of parts) {
    const [name, raw] = part.split(":");
    if (!(PROFILE_OPTIONS[profile] || []).includes(name)) return null;
    if (Object.hasOwn(DEFAULT_SWITCHES, name)) {
      if (raw !== "0" && raw !== "1") return null;
      options[name] = raw === "1";
    } else {
      const v = raw === "off" ? null : Number(raw);
      if (!CUSTOM_CHOICES[name].includes(v)) return null;
      options[name] = v;
    }
  }
  return { profile, options };
}

// What the table says about this deal's knock limit (Oklahoma, straight gin),
// or null under the fixed limit of 10.
export function limitText(view, t) {
  const r = view.rules || {};
  if (!r.oklahoma && !r.straight) return null;
  const limit = view.knock_limit;
  const base = limit === 0 ? t("variant.gin_only") : t("variant.limit", { limit });
  return view.multiplier > 1 ? `${base} · ${t("variant.doubled")}` : base;
}
