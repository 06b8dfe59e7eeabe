"""The chapters' reveal.js decks (tools/teaching/slides.py) in headless Chromium at 1280×720, the
16:9 size they are made for: every slide of every deck in every language, with its fragments shown.

On no slide may an element show a scroll bar, stick out of the slide or be cut off by a box that
hides its overflow; no slide may be a title with nothing under it; no text may be smaller than
18 px as rendered, the figures' text included (the figures are SVGs whose text matplotlib draws as
paths: a text's size is its scale in the SVG times the scale at which the slide draws the image).
Two last resorts are reported as warnings, not failures: a display formula scaled down to the
slide's width (its source is not written to fit), and a figure whose slide version
(tools/book/figures.py) could not bring its text to 18 px without its texts colliding, which must
then be drawn at least as large as that version was made for.

The decks are written afresh by tools/teaching/slides.py (tests/test_slides.py proves the site
serves the same files), or read from ``BA_DECKS=<folder>`` (``<folder>/<lang>/<chapter>.html``
with reveal.js in ``<folder>/<lang>/revealjs/``: ``BA_DECKS=_build/slides`` after ``make slides``).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import warnings
from pathlib import Path

import pytest

from tools.project import languages

MIN_TEXT_PX = 18
WIDTH, HEIGHT = 1280, 720


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    """The folder of the decks, ``<lang>/<chapter>.html``."""
    if os.environ.get("BA_DECKS"):
        return Path(os.environ["BA_DECKS"]).resolve()
    from tools.teaching.slides import write_decks

    root = tmp_path_factory.mktemp("decks")
    for lang in languages():
        write_decks(lang, root / lang)
    return root


@pytest.fixture(scope="module")
def served_decks(decks):
    handler = functools.partial(_Quiet, directory=str(decks))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


# Runs in the deck's page: visits every slide (all its fragments shown) and returns what is wrong
# with each, as [slide number, kind, what].
AUDIT = """
const [minText] = arguments;
Reveal.configure({transition: 'none', backgroundTransition: 'none', controls: false, progress: false});
const area = document.querySelector('.reveal .slides').getBoundingClientRect();
const view = {left: Math.max(area.left, 0), top: Math.max(area.top, 0),
              right: Math.min(area.right, window.innerWidth), bottom: Math.min(area.bottom, window.innerHeight)};
const scale = Reveal.getScale();
const svgText = new Map();  // image src -> {w, h, font}: the viewBox and the smallest text in it
function smallestText(src) {
  if (svgText.has(src)) return svgText.get(src);
  let info = null;
  if (src.startsWith('data:image/svg+xml;base64,')) {
    const bytes = Uint8Array.from(atob(src.slice(26)), c => c.charCodeAt(0));
    const doc = new DOMParser().parseFromString(new TextDecoder().decode(bytes), 'image/svg+xml');
    const svg = doc.documentElement, box = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
    let font = Infinity;
    for (const g of svg.querySelectorAll('g[transform]')) {
      const m = /scale\\(([0-9.]+) -\\1\\)/.exec(g.getAttribute('transform'));
      if (!m || !g.querySelector('use')) continue;  // matplotlib's text: glyphs at 100 units per em
      let size = parseFloat(m[1]) * 100;
      for (const u of g.querySelectorAll('use[transform*="scale("]'))  // superscripts
        size = Math.min(size, parseFloat(m[1]) * 100 * parseFloat(/scale\\(([0-9.]+)/.exec(u.getAttribute('transform'))[1]));
      font = Math.min(font, size);
    }
    const description = doc.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'description')[0];
    const recorded = description && /smallest text ([0-9.]+) px/.exec(description.textContent);
    info = {w: box[2], h: box[3], font, limit: recorded ? parseFloat(recorded[1]) : null};
  }
  svgText.set(src, info);
  return info;
}
const name = e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' && e.className.trim()
  ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
const out = [], remarks = [];
const slides = Reveal.getSlides();
slides.forEach((section, i) => {
  const indices = Reveal.getIndices(section);
  const fragments = section.querySelectorAll('.fragment').length;
  Reveal.slide(indices.h, indices.v, fragments ? fragments - 1 : undefined);
  section.querySelectorAll('.fragment').forEach(f => f.classList.add('visible'));
  const kind = section.dataset.kind || section.className || 'slide';
  const problems = [], notes = [];
  const elements = [...section.querySelectorAll('*')].filter(e => !e.closest('aside.notes, script, style'));
  const seen = new Set();
  for (const e of elements) {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    if (s.display === 'none' || s.visibility === 'hidden' || (r.width === 0 && r.height === 0)) continue;
    const sx = e.scrollWidth > e.clientWidth + 1, sy = e.scrollHeight > e.clientHeight + 1;
    if (['auto', 'scroll'].includes(s.overflowX) && (sx || s.overflowX === 'scroll')) problems.push(['scrollbar', name(e)]);
    else if (['auto', 'scroll'].includes(s.overflowY) && (sy || s.overflowY === 'scroll')) problems.push(['scrollbar', name(e)]);
    else if ((['hidden', 'clip'].includes(s.overflowX) && sx) || (['hidden', 'clip'].includes(s.overflowY) && sy))
      problems.push(['clipped', name(e) + ' hides its overflow']);
    if (r.left < view.left - 1 || r.top < view.top - 1 || r.right > view.right + 1 || r.bottom > view.bottom + 1) {
      // report the outermost element that sticks out only
      if (![...seen].some(p => p.contains(e))) {
        seen.add(e);
        problems.push(['clipped', name(e) + ` at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`]);
      }
    }
    if (e.tagName === 'IMG') {
      const info = smallestText(e.currentSrc || e.src);
      if (info && isFinite(info.font)) {
        const drawn = Math.min(r.width / info.w, r.height / info.h);  // object-fit: contain, or the natural aspect
        const px = info.font * drawn;
        const what = `${px.toFixed(1)} px (${info.font} of ${info.w}×${info.h})`;
        if (px < minText - 0.05) {
          // a slide version whose layout allows no larger text says so: then it must be drawn
          // at least as large as it was made for (tools/book/figures.py's SLIDE_BOX)
          if (info.limit !== null && px >= info.limit - 0.3) notes.push(['figure text below 18 px (its layout allows no more)', what]);
          else problems.push(['small figure text', what]);
        }
      }
    }
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && e.namespaceURI === 'http://www.w3.org/1999/xhtml') {
      const px = parseFloat(s.fontSize) * scale;
      if (px < minText - 0.05) problems.push(['small text', `${px.toFixed(1)} px: ${name(e)}`]);
    }
  }
  const content = elements.filter(e => !/^H[1-6]$/.test(e.tagName) && !e.closest('h1, h2, h3, h4, h5, h6'));
  const hasContent = content.some(e => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (['IMG', 'SVG', 'VIDEO', 'CANVAS'].includes(e.tagName.toUpperCase()) || e.tagName.toLowerCase() === 'math') return true;
    return [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  });
  if (!hasContent) problems.push(['title only', (section.querySelector('h1, h2, h3') || section).textContent.trim().slice(0, 60)]);
  for (const m of section.querySelectorAll('math[data-ba-scaled]'))
    notes.push(["formula scaled down to the slide's width", `to ${(100 * m.dataset.baScaled).toFixed(0)} %: ${m.textContent.trim().slice(0, 50)}`]);
  for (const [what, detail] of problems) out.push([i + 1, kind, what, detail]);
  for (const [what, detail] of notes) remarks.push([i + 1, kind, what, detail]);
});
return {slides: slides.length, problems: out, notes: remarks};
"""


def audit_deck(browser, url: str) -> dict:
    browser.set_window_size(WIDTH, HEIGHT)
    browser.get(url)
    # the window's inner size must be the slide's size: correct for the browser's frame
    inner = browser.execute_script("return [window.innerWidth, window.innerHeight];")
    if inner != [WIDTH, HEIGHT]:
        browser.set_window_size(2 * WIDTH - inner[0], 2 * HEIGHT - inner[1])
        browser.get(url)
    browser.set_script_timeout(60)
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const ready = () => document.fonts.ready.then(() => done(true));"
        "if (window.Reveal && Reveal.isReady()) ready(); else Reveal.on('ready', ready);"
    )
    assert browser.execute_script("return [window.innerWidth, window.innerHeight];") == [WIDTH, HEIGHT]
    return browser.execute_script(AUDIT, MIN_TEXT_PX)


def _stems(decks: Path, lang: str) -> list[str]:
    return sorted(p.stem for p in (decks / lang).glob("*.html"))


@pytest.mark.parametrize("lang", languages())
def test_every_slide_fits_at_1280x720(browser, decks, served_decks, lang):
    found, bad, slides = [], {}, 0
    remarks = []
    for stem in _stems(decks, lang):
        result = audit_deck(browser, f"{served_decks}{lang}/{stem}.html")
        slides += result["slides"]
        for number, kind, what, detail in result["problems"]:
            bad.setdefault(what, set()).add((stem, number))
            found.append(f"{lang}/{stem} slide {number} ({kind}): {what}: {detail}")
        remarks += [
            f"{lang}/{stem} slide {n} ({kind}): {what}: {detail}"
            for n, kind, what, detail in result.get("notes", [])
        ]
    assert slides > 0, f"no deck in {decks / lang}"
    if remarks:  # what fits only as a last resort: listed in the test report, not a failure
        warnings.warn(f"{lang}: {len(remarks)} slides at a last resort:\n" + "\n".join(remarks), stacklevel=1)
    summary = ", ".join(f"{len(where)} slides with {what}" for what, where in sorted(bad.items()))
    assert not found, f"{lang}: {slides} slides, {summary}:\n" + "\n".join(found)
