"""The hosting guide and the page agree with what `build.py serve` sends (issue 36, item 11):
index.html's <meta> Content-Security-Policy is the served one (less frame-ancestors, which a
<meta> cannot carry), and the README's header table lists every header serve sends."""

from __future__ import annotations

import re
from pathlib import Path

from tools.serve import CSP, Handler

ROOT = Path(__file__).resolve().parents[1]


def test_index_html_carries_the_served_policy_for_hosts_without_headers():
    html = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert len(metas) == 1, metas
    served = [d for d in CSP.split("; ") if not d.startswith("frame-ancestors")]
    assert metas[0].split("; ") == served
    # Before any script or stylesheet: a policy met later does not cover what came before it.
    assert html.index("Content-Security-Policy") < min(html.index("<script"), html.index("<link"))


def test_the_hosting_guide_lists_every_header_serve_sends():
    sent = re.findall(r'self\.send_header\("([A-Za-z-]+)"', Path(Handler.end_headers.__code__.co_filename).read_text())
    assert {"Content-Security-Policy", "Cache-Control", "X-Content-Type-Options"} <= set(sent), sent
    guide = (ROOT / "README.md").read_text(encoding="utf-8")
    section = guide[guide.index("### Hosting `dist/`") :]
    for header in sent:
        if header in ("Content-Type", "Content-Length", "Last-Modified", "Vary"):
            continue
        assert f"| `{header}` |" in section, header
    assert f"`{CSP}`" in section
