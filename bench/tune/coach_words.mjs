// The coach's notes in words, as the page says them (web/text/coach-words.js through
// web/text/words.js and web/text/i18n.js), for bench/tune/coach_match.py.
// usage: node bench/tune/coach_words.mjs < notes.json   (a JSON list of notes)
import { readFileSync } from "node:fs";
import { translator } from "../../web/text/i18n.js";
import { coachText } from "../../web/text/coach-words.js";

const notes = JSON.parse(readFileSync(0, "utf8"));
const es = translator("es");
const en = translator("en");
process.stdout.write(JSON.stringify(notes.map((n) => ({ es: coachText(es, n), en: coachText(en, n) }))));
