#!/usr/bin/env python3
"""A minimal WebKitGTK browser for WebKitWebDriver: one window that is nothing but the web view.

WebKitWebDriver starts it (capability ``webkitgtk:browserOptions``, ``binary``
this file, run by the system's Python with PyGObject) instead of MiniBrowser,
whose toolbar keeps its window wider than a phone. Here the window has no
decoration (Xvfb runs no window manager) and no other widget, so the viewport
is exactly the window rect WebDriver sets: 390×844 is 390×844.

    webkit_window.py --console FILE [--width W --height H]

Every console message of the pages and of their workers is written by WebKit
(``enable-write-console-messages-to-stdout``, which in fact writes to standard
error) as ``url:line:column: CONSOLE LEVEL text``; both standard streams go to
FILE, which the tests read.
"""

from __future__ import annotations

import argparse
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

NAME = "GinWebKitWindow"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--console", required=True)
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--automation", action="store_true")  # WebKitWebDriver may add it
    args, _ = parser.parse_known_args()
    # The web processes inherit these descriptors: their console lines land in the file.
    log = os.open(args.console, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1)

    context = WebKit2.WebContext.get_default()
    context.set_automation_allowed(True)
    context.set_preferred_languages(["es-ES", "es"])  # a Spanish browser, as the other engines' legs
    windows: list[Gtk.Window] = []

    def new_view(_session) -> WebKit2.WebView:
        settings = WebKit2.Settings(enable_write_console_messages_to_stdout=True, enable_developer_extras=True)
        view = WebKit2.WebView(web_context=context, settings=settings, is_controlled_by_automation=True)
        window = Gtk.Window(title=NAME)
        window.set_default_size(args.width, args.height)
        window.add(view)
        view.connect("close", lambda v: window.destroy())
        window.connect("destroy", lambda w: (windows.remove(w), not windows and Gtk.main_quit()))
        windows.append(window)
        window.show_all()
        return view

    def started(_context, session) -> None:
        info = WebKit2.ApplicationInfo()
        info.set_name(NAME)
        info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
        session.set_application_info(info)
        session.connect("create-web-view", new_view)

    context.connect("automation-started", started)
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
