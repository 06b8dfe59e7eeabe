"""The display formulas of the built site that are wider than their column on a phone.

    python -m tools.book.formula_widths [_build/site] [--width 390] [--lang en ...] [--inline]

loads every chapter and lab page of every language in headless Chromium as a phone shows it (390 px
wide, touch, the site's math font loaded) and lists every display formula wider than the column of
text (358 px at 390 px): the page, the line of the formula's ``$$`` in the page's source, its width
and the column's, in px. A formula that is listed scrolls sideways in its box, with a cue
(tools/book/sphinx/mathml.py); the course's rule is that none has to (write it on several lines:
one formula a line, ``aligned`` blocks, shorter names). tests/browser/test_formulas.py asserts the
cue on every page, and that the list is empty (save a short allow-list, MAY_SCROLL_ON_A_PHONE, empty
today).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tools.project import BUILD, ROOT

PHONE = 390

_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*(\S*)")
_CODE_INFO = re.compile(r"^(?:\{code(?:-cell|-block)?\}|[^{]*)$")


def blank_code(text: str) -> str:
    """MyST text with its blocks of code (code cells, fenced code blocks) blanked out, line for line;
    a MyST directive fenced the same way (an admonition) keeps its text: its formulas are the page's."""
    out, stack = [], []  # stack: (fence, is code) of the open fences
    for line in text.split("\n"):
        m = _FENCE_LINE.match(line)
        in_code = any(code for _, code in stack)
        if (
            m
            and stack
            and m.group(1)[0] == stack[-1][0][0]
            and len(m.group(1)) >= len(stack[-1][0])
            and not m.group(2)
        ):
            stack.pop()  # a closing fence
            out.append("")
        elif m and not in_code:
            stack.append((m.group(1), bool(_CODE_INFO.match(m.group(2)))))
            out.append("")
        else:
            out.append("" if in_code else line)
    return "\n".join(out)


_DISPLAY = re.compile(
    r"\$\$.+?\$\$|^\\begin\{(?:align|equation|gather|multline|flalign|alignat)\*?\}", re.S | re.M
)
_CODE = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"(?<![\\$])\$(?=\S)[^$\n]+?\$")


def source_of(page: str) -> Path:
    """The MyST source of a chapter or lab page: en/chapters/en/01-x.html -> chapters/en/01-x.md."""
    parts = Path(page).with_suffix(".md").parts
    return ROOT.joinpath(*parts[1:])


def _blanked(source: Path) -> str:
    """A MyST source with its code blocks blanked out, the line numbers kept."""
    return blank_code(source.read_text(encoding="utf-8"))


def display_lines(source: Path) -> list[int]:
    """The line of each display formula of a MyST source, in order (code blocks left out)."""
    blank = _blanked(source)
    return [blank.count("\n", 0, m.start()) + 1 for m in _DISPLAY.finditer(blank)]


def inline_lines(source: Path) -> list[int]:
    """The line of each inline formula ``$…$`` of a MyST source, in order (code left out)."""
    blank = _DISPLAY.sub(lambda m: "\n" * m.group(0).count("\n"), _blanked(source))
    blank = _CODE.sub(lambda m: " " * len(m.group(0)), blank)
    return [blank.count("\n", 0, m.start()) + 1 for m in _INLINE.finditer(blank)]


@dataclass
class Formula:
    page: str
    index: int  # the n-th display (or inline) formula of the page
    line: int | None  # of its $$ (or $) in the source
    width: float  # of the formula, px
    column: float  # of its box (a display formula's: the column of text; an inline one's: its paragraph), px
    cue: bool  # the box says it scrolls: faded edge, one tab stop (a display formula's: labelled)
    tab_stop: bool
    label: str
    display: bool = True

    @property
    def too_wide(self) -> bool:
        return self.width > self.column + 0.5

    def __str__(self) -> str:
        line = f"{source_of(self.page).relative_to(ROOT)}:{self.line or '?'}"
        kind = "formula" if self.display else "inline formula"
        return (
            f"{line:45} {kind} {self.index + 1:2d}  {self.width:5.0f} px in a column of {self.column:.0f} px"
        )


_MEASURE = """
const measure = b => {
  const style = getComputedStyle(b);
  const mask = style.maskImage || style.webkitMaskImage || 'none';
  const inline = b.tagName.toLowerCase() === 'math';
  const block = inline ? b.parentElement.closest('p, li, dd, dt, td, th, div, figcaption, blockquote, section') : b;
  return {width: b.scrollWidth, column: block.clientWidth,
          shown: b.getClientRects().length > 0,
          scrolls: b.classList.contains('ba-scrolls'), faded: mask !== 'none' && mask.includes('gradient'),
          overflow: style.overflowX, tabindex: b.getAttribute('tabindex'), role: b.getAttribute('role'),
          label: b.getAttribute('aria-label') || ''};
};
return [[...document.querySelectorAll('.bd-article div.math')].map(measure),
        [...document.querySelectorAll('.bd-article math:not([display="block"])')].map(measure)];
"""


def emulate(driver, width: int) -> None:
    """A phone (``width`` < 500: touch, a phone's screen) or a laptop's window of that width."""
    if width < 500:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 844, "deviceScaleFactor": 3, "mobile": True},
        )
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.set_window_size(width, 900)


def settle(driver, timeout: float = 10.0) -> None:
    """Wait for the fonts (a formula's width is the math font's) and the boxes' measuring."""
    driver.set_script_timeout(timeout)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));"
    )


def measure(driver, page: str, inline: bool = False) -> list[Formula]:
    """The display formulas (with ``inline``, the inline ones too) of the page loaded in ``driver``
    at its current width, each with the line of its ``$$`` (``$``) in the page's source when the
    page and the source have as many; formulas not laid out (display: none) left out."""
    displays, inlines = driver.execute_script(_MEASURE)
    out = []
    for display, boxes in ((True, displays), (False, inlines if inline else [])):
        try:
            lines = (display_lines if display else inline_lines)(source_of(page))
        except FileNotFoundError:
            lines = []
        if len(lines) != len(boxes):
            lines = []  # the page and its source disagree: no line rather than a wrong one
        for i, box in enumerate(boxes):
            if not box["shown"] or box["column"] == 0:
                continue
            out.append(
                Formula(
                    page=page,
                    index=i,
                    line=lines[i] if lines else None,
                    width=box["width"],
                    column=box["column"],
                    cue=box["scrolls"] and box["faded"] and box["overflow"] in ("auto", "scroll"),
                    tab_stop=box["tabindex"] == "0",
                    label=box["label"] if box["role"] == "group" else "",
                    display=display,
                )
            )
    return out


def too_wide(site: Path, pages: list[str], width: int = PHONE, inline: bool = False) -> list[Formula]:
    from tools.maintenance.weight import headless_chromium, serve

    found = []
    with serve(site) as base, tempfile.TemporaryDirectory(prefix="ba-formulas-") as profile:
        driver = headless_chromium(Path(profile))
        try:
            emulate(driver, width)
            for page in pages:
                driver.get(base + page)
                settle(driver)
                time.sleep(0.1)
                found += [f for f in measure(driver, page, inline) if f.too_wide]
        finally:
            driver.quit()
    return found


def main(argv=None) -> int:
    from tools.maintenance.weight import chapter_and_lab_pages

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("site", nargs="?", type=Path, default=BUILD / "site")
    parser.add_argument("--width", type=int, default=PHONE)
    parser.add_argument("--lang", action="append")
    parser.add_argument("--inline", action="store_true", help="the inline formulas wider than their line too")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        parser.error(f"no built site in {site}: run `make book` first")
    pages = chapter_and_lab_pages(site, args.lang)
    found = too_wide(site, pages, args.width, args.inline)
    for formula in found:
        print(formula)
    displays = sum(f.display for f in found)
    print(f"{displays} display formulas wider than their column at {args.width} px, on {len(pages)} pages")
    if args.inline:
        print(f"{len(found) - displays} inline formulas wider than their line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
