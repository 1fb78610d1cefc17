"""Open a page in Debian's headless Chromium through Playwright (no browser download)."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


@contextmanager
def chromium_page():
    """A fresh page; ``page.console_errors`` and ``page.dialogs`` collect what went wrong."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        try:
            yield _watched(browser.new_page())
        finally:
            browser.close()


@contextmanager
def chromium():
    """One headless Chromium for many pages (:func:`page_in`): a test module's pages share it,
    each in a context of its own (a launch costs about two seconds)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def page_in(browser):
    """A fresh page of ``browser`` (:func:`chromium`) in a new context (no storage shared with
    another page), watched as :func:`chromium_page`'s."""
    context = browser.new_context()
    try:
        yield _watched(context.new_page())
    finally:
        context.close()


def _watched(page):
    """``page`` with ``console_errors`` and ``dialogs`` collecting what went wrong."""
    page.console_errors = []
    page.dialogs = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    return page


MEDIA_STATE = """
async () => {
  const videos = [...document.querySelectorAll("video")];
  const meta = await Promise.all(videos.map(v => v.readyState >= 1 ? true :
      new Promise(ok => { v.addEventListener("loadedmetadata", () => ok(true));
                          v.addEventListener("error", () => ok(false)); v.load(); })));
  const tracks = await Promise.all(videos.map(v => {
      const t = v.querySelector("track");
      if (!t) return false;
      v.textTracks[0].mode = "showing";
      return t.readyState === 2 ? true : new Promise(ok => {
          t.addEventListener("load", () => ok(true)); t.addEventListener("error", () => ok(false));
          setTimeout(() => ok(t.readyState === 2), 5000); });
  }));
  return {videos: videos.length, meta, tracks,
          cues: videos.map(v => v.textTracks[0] && v.textTracks[0].cues ?
                                 v.textTracks[0].cues.length : 0),
          durations: videos.map(v => v.duration)};
}
"""
