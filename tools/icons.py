"""The app's icons, drawn at build time from a few signed distance functions
(one evaluation per pixel, edges antialiased by distance): two fanned playing
cards, a heart and a spade, on the felt of the table. Colours are the ones of
web/style.css. Every size is drawn, not scaled, so even the 32 px favicon has
crisp edges. PNGs written with zlib and struct."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import struct
import sys
import zlib
from pathlib import Path

from .common import CACHE, WEB

# The web app manifest (install as an app) names these icons.
APP_MANIFEST = "app.webmanifest"
ICON_FELT = ((0x2F, 0x8A, 0x52), (0x1D, 0x6B, 0x3C), (0x0F, 0x44, 0x24))  # light, felt, dark
ICON_PAPER, ICON_EDGE = (0xFF, 0xFD, 0xF6), (0xD9, 0xD1, 0xBA)
ICON_RED, ICON_INK = (0xC6, 0x28, 0x28), (0x1A, 0x1C, 0x1E)
# The cards in "content units": a card is 1 wide and 1.4 high (5:7, as on the
# table); (centre x, centre y, rotation in degrees, suit, pip's shift to the
# right, so the back card's spade shows beside the front card). y points down.
ICON_CARDS = ((0.27, -0.05, 14.0, "S", 0.14), (-0.22, 0.08, -10.0, "H", 0.0))
ICON_CARD_HALF, ICON_CARD_RADIUS = (0.5, 0.7), 0.09
ICON_SHADOW = (0.035, 0.06, 0.07)  # offset x, offset y, blur
# Where the artwork may reach, as a fraction of the icon's size measured from
# its centre. A maskable icon keeps everything in the safe zone, the circle of
# radius 0.4 that every launcher mask leaves visible.
MASKABLE_SAFE_RADIUS = 0.4
# file -> (size, layout, radius of the artwork): "any" is a rounded felt tile
# on transparency; "full" fills the square (maskable, and Apple's touch icon,
# which iOS rounds itself).
ICONS = {
    "icons/icon-192.png": (192, "any", 0.45),
    "icons/icon-512.png": (512, "any", 0.45),
    "icons/maskable-512.png": (512, "full", MASKABLE_SAFE_RADIUS - 0.02),
    "icons/apple-touch-icon.png": (180, "full", 0.43),
    "icons/favicon-32.png": (32, "any", 0.47),
}


def _png(width: int, height: int, rows: list[bytes], alpha: bool) -> bytes:
    """A PNG (8-bit RGB or RGBA, no filtering) from raw rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def _sd_round_box(x: float, y: float, hw: float, hh: float, r: float) -> float:
    qx, qy = abs(x) - hw + r, abs(y) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _sd_heart(x: float, y: float) -> float:
    """Exact distance to a heart with its point at the origin and its lobes
    upwards (y up), about 1.2 wide and 1.1 high (Inigo Quilez's formula)."""
    x = abs(x)
    if y + x > 1.0:
        return math.hypot(x - 0.25, y - 0.75) - math.sqrt(2.0) / 4.0
    m = 0.5 * max(x + y, 0.0)
    d = math.sqrt(min(x * x + (y - 1.0) ** 2, (x - m) ** 2 + (y - m) ** 2))
    return d if x > y else -d


def _sd_triangle(x: float, y: float, qx: float, qy: float) -> float:
    """Distance to an isosceles triangle, apex at the origin, base at y = qy of
    half-width qx."""
    x = abs(x)
    t = min(max((x * qx + y * qy) / (qx * qx + qy * qy), 0.0), 1.0)
    ax, ay = x - qx * t, y - qy * t
    u = min(max(x / qx, 0.0), 1.0)
    bx, by = x - qx * u, y - qy
    s = -1.0 if qy > 0 else 1.0
    d = min(ax * ax + ay * ay, bx * bx + by * by)
    sign = min(s * (x * qy - y * qx), s * (y - qy))
    return -math.sqrt(d) if sign > 0 else math.sqrt(d)


def _sd_suit(suit: str, x: float, y: float) -> float:
    """Distance to a pip of height about 0.62, centred at the origin (y down)."""
    k = 0.56  # heart units -> content units
    if suit == "H":
        return _sd_heart(x / k, 0.56 - y / k) * k
    lobes = _sd_heart(x / k, 0.7 + y / k) * k  # the heart upside down
    stem = _sd_triangle(x, y - 0.04, 0.13, 0.33)
    return min(lobes, stem)


def _artwork_extent() -> float:
    """How far from the centre (content units) the cards and their shadows reach."""
    hw, hh = ICON_CARD_HALF
    far = 0.0
    for cx, cy, deg, *_ in ICON_CARDS:
        a = math.radians(deg)
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            x, y = sx * hw, sy * hh
            px = cx + x * math.cos(a) - y * math.sin(a)
            py = cy + x * math.sin(a) + y * math.cos(a)
            far = max(far, math.hypot(px, py), math.hypot(px + ICON_SHADOW[0], py + ICON_SHADOW[1]) + ICON_SHADOW[2])
    return far


def _felt_row(size: int, v: float) -> list[tuple[float, float, float]]:
    """One row of the table's radial gradient (style.css, body): light at the
    top centre, the felt at 48 %, dark at the edge."""
    (lr, lg, lb), (mr, mg, mb), (dr, dg, db) = ICON_FELT
    out = []
    for i in range(size):
        t = min(math.hypot((i + 0.5) / size - 0.5, v - 0.38) / 0.72, 1.0)
        if t < 0.48:
            f = t / 0.48
            out.append((lr + (mr - lr) * f, lg + (mg - lg) * f, lb + (mb - lb) * f))
        else:
            f = (t - 0.48) / 0.52
            out.append((mr + (dr - mr) * f, mg + (dg - mg) * f, mb + (db - mb) * f))
    return out


def draw_icon(size: int, layout: str, radius: float) -> bytes:
    """One icon as PNG bytes: the artwork scaled to reach `radius` (a fraction
    of the size, from the centre)."""
    scale = radius / _artwork_extent()  # content units -> unit square
    px = 1.0 / (size * scale)  # one pixel in content units
    hw, hh = ICON_CARD_HALF
    corner = ICON_CARD_RADIUS
    ox, oy, blur = ICON_SHADOW
    border = max(0.018, px)
    reach = math.hypot(hw, hh) + math.hypot(ox, oy) + blur
    cards = []
    for cx, cy, deg, suit, shift in ICON_CARDS:
        a = math.radians(deg)
        cards.append((cx, cy, math.cos(a), math.sin(a), suit, shift, ICON_RED if suit == "H" else ICON_INK))
    pr, pg, pb = ICON_PAPER
    er, eg, eb = ICON_EDGE
    inner = 0.47 - 1.0 / size
    rows = []
    for j in range(size):
        row = bytearray()
        v = (j + 0.5) / size
        y = (v - 0.5) / scale
        felt = _felt_row(size, v)
        for i in range(size):
            u = (i + 0.5) / size
            x = (u - 0.5) / scale
            r, g, b = felt[i]
            for cx, cy, c, s, suit, shift, (ir, ig, ib) in cards:
                dx, dy = x - cx, y - cy
                if dx > reach or dx < -reach or dy > reach or dy < -reach:
                    continue
                # Into the card's own frame (rotated by -angle).
                lx, ly = dx * c + dy * s, dy * c - dx * s
                qx, qy = abs(lx) - hw + corner, abs(ly) - hh + corner
                if qx > 0.0 and qy > 0.0:
                    edge = math.sqrt(qx * qx + qy * qy) - corner
                else:
                    edge = (qx if qx > qy else qy) - corner
                if edge > -px:  # the felt (or a card below) shows: add this card's shadow
                    sx, sy = lx - ox * c - oy * s, ly - oy * c + ox * s
                    shadow = _sd_round_box(sx, sy, hw, hh, corner)
                    if shadow < blur:
                        t = min(max(0.5 - shadow / (2 * blur), 0.0), 1.0)
                        k = 1.0 - 0.38 * t * t * (3 - 2 * t)
                        r, g, b = r * k, g * k, b * k
                cover = 0.5 - edge / px
                if cover <= 0.0:
                    continue
                cover = min(cover, 1.0)
                f = min(max(0.5 + (edge + border) / px, 0.0), 1.0)
                fr, fg, fb = pr + (er - pr) * f, pg + (eg - pg) * f, pb + (eb - pb) * f
                if -0.4 < lx - shift < 0.4 and -0.45 < ly < 0.45:
                    ink = min(max(0.5 - _sd_suit(suit, lx - shift, ly + 0.02) / px, 0.0), 1.0)
                    if ink > 0.0:
                        fr, fg, fb = fr + (ir - fr) * ink, fg + (ig - fg) * ink, fb + (ib - fb) * ink
                r, g, b = r + (fr - r) * cover, g + (fg - g) * cover, b + (fb - b) * cover
            row += bytes((round(r), round(g), round(b)))
            if layout == "any":
                ax, ay = abs(u - 0.5), abs(v - 0.5)
                if (ax < 0.27 and ay < inner) or (ay < 0.27 and ax < inner):
                    row.append(255)  # well inside the tile: no need to measure
                else:
                    d = _sd_round_box(u - 0.5, v - 0.5, 0.47, 0.47, 0.2) * size
                    row.append(round(min(max(0.5 - d, 0.0), 1.0) * 255))
        rows.append(bytes(row))
    return _png(size, size, rows, alpha=layout == "any")


def _check_app_manifest() -> None:
    """web/app.webmanifest must name only icons drawn here, at their real sizes,
    and a maskable one only if its artwork stays in the safe zone."""
    manifest = json.loads((WEB / APP_MANIFEST).read_text())
    for icon in manifest.get("icons", []):
        src = icon["src"].removeprefix("./")
        if src not in ICONS:
            sys.exit(f"build: {APP_MANIFEST} names {src}, which tools/icons.py does not draw")
        size, layout, radius = ICONS[src]
        if icon.get("sizes") != f"{size}x{size}" or icon.get("type") != "image/png":
            sys.exit(f"build: {APP_MANIFEST}: {src} is a {size}x{size} image/png")
        if "maskable" in icon.get("purpose", "").split() and (layout != "full" or radius > MASKABLE_SAFE_RADIUS):
            sys.exit(f"build: {APP_MANIFEST}: {src} is not drawn to be maskable")


def app_icons() -> dict[str, bytes]:
    """Every icon of ICONS as {path in dist/: PNG bytes}. Drawing takes a few
    seconds of pure Python, so the PNGs are kept in .cache/icons/ under the
    hash of this file: any change here draws them again."""
    _check_app_manifest()
    key = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    cache = CACHE / "icons" / key
    out = {}
    for path, spec in ICONS.items():
        cached = cache / Path(path).name
        if cached.exists():
            out[path] = cached.read_bytes()
            continue
        out[path] = draw_icon(*spec)
        cache.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(out[path])
    for old in (CACHE / "icons").iterdir():
        if old != cache:
            shutil.rmtree(old, ignore_errors=True)
    return out

