"""The page's words (web/text/i18n.js): each key once in Spanish and once in English. A key written
twice in one language is a silent bug — the later text wins — and merges of branches make it easy."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

WORDS = Path(__file__).resolve().parents[1] / "web" / "text" / "i18n.js"


def test_every_key_is_written_once_per_language():
    keys = Counter(re.findall(r'^    "([a-z_.0-9]+)":', WORDS.read_text(), flags=re.M))
    assert len(keys) > 300
    assert {key: n for key, n in keys.items() if n != 2} == {}
