"""Every hint reason code the opponent can give has its text in both UI languages."""

from __future__ import annotations

import re
from pathlib import Path

from gin.ai import REASONS

I18N = Path(__file__).resolve().parents[1] / "web" / "text" / "i18n.js"


def test_every_reason_is_translated_in_spanish_and_english():
    text = I18N.read_text(encoding="utf-8")
    for code in REASONS:
        found = re.findall(rf'"reason\.{re.escape(code)}":\s*"([^"]+)"', text)
        assert len(found) == 2, f"reason.{code} should have a Spanish and an English text, found {found}"
        assert found[0] != found[1]
