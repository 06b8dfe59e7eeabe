"""Helpers of the browser tests (import as `from pages import console_errors`).

Also used by tools/site_audit.py, which measures the same things on a built site and prints them.
"""

from __future__ import annotations

import time
from pathlib import Path

VENDOR = Path(__file__).parent / "vendor"
AXE_JS = VENDOR / "axe.min.js"  # axe-core 4.10.3 from the npm registry (MPL-2.0, vendor/axe-core.LICENSE)

# One page of each type per language, as paths inside the language's folder (lang substituted).
PAGE_TYPES = {
    "landing": "chapters/{lang}/index.html",
    "chapter": "chapters/{lang}/01-confusion-matrix.html",
    "lab": "labs/{lang}/03-trust-lab.html",
    "glossary": "chapters/{lang}/glossary.html",
    "references": "chapters/{lang}/references.html",
    "search": "search.html",
}


def in_turn(names, start: int = 0) -> dict:
    """{name: language}: each of ``names`` in one language, the course's languages in turn from the
    ``start``-th. For the tests that drive a widget through its positions: its code and, by
    tests/test_notebooks.py, its data are the same in every language, and what a language changes
    (the JavaScript ``fmt``, the labels, the fit on a phone) is checked in every language
    elsewhere (test_the_javascript_fmt_is_beyond_accuracy_fmt, test_every_page_on_a_phone)."""
    from tools.project import languages

    langs = languages()
    return {name: langs[(start + i) % len(langs)] for i, name in enumerate(names)}


def console_errors(browser) -> list[str]:
    """The SEVERE entries of the console since the last call (page errors, failed requests)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def site_pages(site: Path, lang: str) -> list[str]:
    """Every reader-facing HTML page of a language, as site-relative paths (lang/...); the slides
    (reveal.js decks), Sphinx's generated index and the redirect at <lang>/index.html are not the
    book's pages."""
    root = site / lang
    pages = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("_", "slides/")) or rel == "genindex.html":
            continue
        if 'http-equiv="refresh"' in path.read_text(encoding="utf-8")[:2000].lower():
            continue
        pages.append(f"{lang}/{rel}")
    return pages


def wait_for(browser, script: str, timeout: float = 5.0, interval: float = 0.05):
    """Poll a JavaScript expression (``return ...``) until it is truthy; returns its last value."""
    end = time.monotonic() + timeout
    value = browser.execute_script(script)
    while not value and time.monotonic() < end:
        time.sleep(interval)
        value = browser.execute_script(script)
    return value


def settle(browser, timeout: float = 10.0) -> None:
    """Wait until the fonts are loaded (the formulas' width depends on the math font)."""
    browser.set_script_timeout(timeout)
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done(true), () => done(false));"
    )


_AXE_RUN = """
const [skip, done] = [arguments[0], arguments[arguments.length - 1]];
// colours as the reader sees them once the page has settled: a transition still running (the
// theme's buttons fade for 0.15 s when auto mode turns the page dark after loading) ends now
const settled = document.createElement('style');
settled.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
document.head.append(settled);
getComputedStyle(document.body).color;  // the styles apply before axe reads them
// every rule of axe-core up to WCAG AA, the experimental and best-practice ones too
// (label-content-name-mismatch is experimental); the AAA rules (enhanced contrast) are not the
// target; and none of the rules in skip
const rules = Object.fromEntries(axe.getRules().map(r => [r.ruleId,
  {enabled: !r.tags.some(t => /aaa$/.test(t)) && !skip.includes(r.ruleId)}]));
axe.run(document, {resultTypes: ['violations'], rules}).then(r => done(r.violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
  nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))
})))).catch(e => done('axe failed: ' + e));
"""


def axe_violations(browser, impacts=("serious", "critical"), skip=()) -> list[dict]:
    """axe-core's violations on the current page with one of these impacts (all when None), by
    every rule up to WCAG AA but those in ``skip``."""
    if not browser.execute_script("return typeof axe !== 'undefined';"):
        browser.execute_script(AXE_JS.read_text(encoding="utf-8"))
    browser.set_script_timeout(300)
    result = browser.execute_async_script(_AXE_RUN, list(skip))
    if isinstance(result, str):
        raise RuntimeError(result)
    return [v for v in result if impacts is None or v["impact"] in impacts]


_OVERFLOW = """
const width = document.documentElement.clientWidth;
const out = [];
if (document.documentElement.scrollWidth <= width) return {width, scroll: document.documentElement.scrollWidth, offenders: []};
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= width + 1) continue;
  // inside a box that scrolls or clips horizontally, it does not widen the page
  let clipped = false;
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const ox = getComputedStyle(p).overflowX;
    if (ox !== 'visible') { if (p.getBoundingClientRect().right <= width + 1) { clipped = true; } break; }
  }
  if (clipped) continue;
  const s = getComputedStyle(el);
  if (s.position === 'fixed' || s.visibility === 'hidden') continue;
  if (![...el.children].some(c => c.getBoundingClientRect().right > width + 1)) {
    out.push((el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '')) +
      ' right=' + Math.round(r.right) + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
  }
  if (out.length >= 8) break;
}
return {width, scroll: document.documentElement.scrollWidth, offenders: out};
"""


def horizontal_overflow(browser) -> dict:
    """{width, scroll, offenders}: the page is wider than the window when scroll > width; offenders
    are the innermost elements sticking out (up to 8)."""
    return browser.execute_script(_OVERFLOW)


_WIDGETS_SETTLED = """
return [...document.querySelectorAll('.ba-widget')].every(
  w => w.classList.contains('ba-ready') || w.classList.contains('ba-failed'));
"""

_WIDGETS_ON_SCREEN = """
const vw = document.documentElement.clientWidth, out = [];
const lang = document.documentElement.lang.split('-')[0];  // pt-BR: the course's pt
const name = (e) => e.tagName.toLowerCase() + ': ' + (e.textContent || '').trim().slice(0, 40);
for (const host of document.querySelectorAll('.ba-widget')) {
  const what = host.dataset.module || 'widget';
  if (!host.classList.contains('ba-ready') || host.classList.contains('ba-failed')) {
    out.push(what + ' did not render'); continue;
  }
  const root = host.querySelector('.ba-explorer, .ba-quiz');
  if (!root) { out.push(what + ': no .ba-explorer or .ba-quiz'); continue; }
  if (root.getAttribute('lang') !== lang) out.push(what + ' in lang ' + root.getAttribute('lang'));
  const r = root.getBoundingClientRect();
  if (r.left < 0 || r.right > vw + 0.5) out.push(what + ' spans ' + r.left + '..' + r.right + ' of ' + vw);
  if (root.scrollWidth > root.clientWidth + 1) out.push(what + "'s content overflows it");
  for (const w of root.querySelectorAll('.ba-matrix-wrap'))
    if (w.scrollWidth > w.clientWidth) out.push(what + "'s matrix scrolls");
  for (const e of root.querySelectorAll('*')) {
    const b = e.getBoundingClientRect();
    if (b.width > 0 && (b.left < -0.5 || b.right > vw + 0.5)) out.push(what + ' off screen: ' + name(e));
  }
  for (const c of root.querySelectorAll('input[type=range], select, label.ba-quiz-option')) {
    const b = c.getBoundingClientRect();
    if (b.height < 44) out.push(what + ': a control or option ' + b.height + ' px high (< 44): ' + name(c));
    if (c.type === 'range' && b.width < 200) out.push(what + ': a slider ' + b.width + ' px wide (< 200)');
  }
}
return out.slice(0, 10);
"""


def widgets_on_screen(browser, timeout: float = 20.0) -> list[str]:
    """What is wrong with the page's explorers and quizzes at the window's width, once each has
    rendered (or failed): one did not render; its root is not in the page's language; it, or a part
    of it, lies outside the screen; its content or a confusion matrix overflows; a slider, a menu or
    a quiz option is smaller than a finger (44 px high; a slider's thumb travels 200 px)."""
    wait_for(browser, _WIDGETS_SETTLED, timeout=timeout)
    return browser.execute_script(_WIDGETS_ON_SCREEN)


def page_weight(browser, url: str) -> tuple[int, list[dict]]:
    """Bytes a page loads with an empty cache (the document and every resource, as served: the
    test server does not compress), with the list of resources (tools/maintenance/weight.py)."""
    from tools.maintenance.weight import weigh

    page = weigh(browser, url, width=browser.get_window_size()["width"])
    return page["bytes"], [{"name": r["url"], "size": r["size"]} for r in page["resources"]]


# --- colour: the contrast of the widgets' text and marks ------------------------------------------

_CONTRAST = r"""
// WCAG 2.x contrast of what the page's explorers and quizzes show: every text node (its colour over
// the background it is painted on: the ancestors' background colours composited down to the first
// opaque one, the canvas white under all; the ancestors' opacity applied to the text), and the
// marks that carry meaning in their plots (lines, points, reference lines, axes, the legends' keys).
const parse = (c) => {
  const m = c && c.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (top, under) => {  // top (with alpha) over an opaque colour
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
};
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
function background(el) {
  const layers = [];
  let opacity = 1;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const s = getComputedStyle(e);
    opacity *= Number(s.opacity);
    const bg = parse(s.backgroundColor);
    if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; }
  }
  let colour = [255, 255, 255, 1];
  for (const layer of layers.reverse()) colour = over(layer, colour);
  return { colour, opacity };
}
const shown = (el) => {
  if (!el.getClientRects().length) return false;
  const s = getComputedStyle(el);
  return s.visibility !== 'hidden' && s.display !== 'none' && !el.closest('[hidden], .ba-fallback');
};
const where = (el) => {
  const host = el.closest('.ba-widget');
  return (host ? host.dataset.module : '?') + ' ' + el.tagName.toLowerCase() +
    (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : '');
};
const text = [], marks = [];
for (const root of document.querySelectorAll('.ba-explorer, .ba-quiz')) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !shown(el)) continue;
    const s = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    const fg = parse(svg ? s.fill : s.color);
    if (!fg) continue;
    const { colour, opacity } = background(el);
    const shownFg = over([fg[0], fg[1], fg[2], fg[3] * opacity], colour);
    const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
    const key = el.getAttribute('aria-hidden') === 'true' && /^[●—\-\s]+$/.test(node.textContent);
    const need = key ? 3 : (size >= 24 || (bold && size >= 18.66) ? 3 : 4.5);
    (key ? marks : text).push({ where: where(el), text: node.textContent.trim().slice(0, 30),
      ratio: Math.round(ratio(shownFg, colour) * 100) / 100, need, size });
  }
  for (const el of root.querySelectorAll('svg .ba-line, svg .ba-point, svg .ba-ref, svg .ba-axis')) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    const paint = parse(el.classList.contains('ba-point') ? s.fill : s.stroke);
    if (!paint) continue;
    const { colour } = background(el.ownerSVGElement.parentElement);
    const alpha = paint[3] * Number(s.strokeOpacity || 1);
    marks.push({ where: where(el), text: '', need: 3,
      ratio: Math.round(ratio(over([paint[0], paint[1], paint[2], alpha], colour), colour) * 100) / 100 });
  }
}
return { text, marks };
"""


def widget_contrast(browser, timeout: float = 20.0) -> dict:
    """{"text": [...], "marks": [...]}: every text node of the page's explorers and quizzes and
    every mark of their plots that carries meaning, each with its contrast ``ratio`` against the
    background it is painted on and the ratio WCAG AA asks of it (``need``: 4.5 for text, 3 for
    large text and for graphical objects), once the widgets have rendered."""
    wait_for(browser, _WIDGETS_SETTLED, timeout=timeout)
    return browser.execute_script(_CONTRAST)


def low_contrast(measured: dict) -> list[dict]:
    """The entries of widget_contrast() under the ratio they need."""
    return [e for kind in ("text", "marks") for e in measured[kind] if e["ratio"] < e["need"]]


def set_colour_mode(browser, mode: str | None) -> None:
    """The system's colour scheme as the browser reports it (prefers-color-scheme: "light" or
    "dark"; None: the browser's own): pydata-sphinx-theme's default mode, auto, follows it and sets
    html[data-theme], as on a phone or laptop in dark mode. Applies to the pages loaded next."""
    features = [{"name": "prefers-color-scheme", "value": mode or ""}]
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


_CHOOSE = """
const i = arguments[0];
let chosen = 0;
for (const f of document.querySelectorAll('.ba-quiz fieldset[data-question]')) {
  const radio = f.querySelectorAll('input[type=radio]')[i];
  if (!radio) continue;
  radio.checked = true;
  radio.dispatchEvent(new Event('change', {bubbles: true}));
  chosen += 1;
}
return chosen;
"""


def widget_contrast_in_every_state(browser) -> dict:
    """widget_contrast() before the reader answers the quizzes, then with the i-th option of every
    question chosen, for every i (so that every question's right and wrong feedback is shown):
    the entries of all these states together."""
    out = widget_contrast(browser)
    i = 0
    while browser.execute_script(_CHOOSE, i):
        more = widget_contrast(browser)
        out["text"] += [e for e in more["text"] if "feedback" in e["where"] or "mark" in e["where"]]
        i += 1
    return out
