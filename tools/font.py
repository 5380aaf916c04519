"""The card font: the ranks and court letters on the cards are drawn in a font
the page ships (web/style.css, "Gin Card"), so every engine draws the same
glyphs: npm's @fontsource/noto-serif (pinned in web/package.json), its Latin
subset in bold, with the font's licence beside it."""

from __future__ import annotations

import sys

from .common import WEB

CARD_FONT_PACKAGE = "@fontsource/noto-serif"
CARD_FONT = {
    "fonts/noto-serif-latin-700-normal.woff2": "files/noto-serif-latin-700-normal.woff2",
    "fonts/noto-serif-LICENSE.txt": "LICENSE",
}


def card_font() -> dict[str, bytes]:
    package = WEB / "node_modules" / CARD_FONT_PACKAGE
    if not (package / "package.json").exists():
        sys.exit(f"build: web/node_modules has no {CARD_FONT_PACKAGE} (npm ci in web/)")
    return {rel: (package / source).read_bytes() for rel, source in CARD_FONT.items()}

