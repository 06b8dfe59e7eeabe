"""The display formulas of the built site that are wider than their column on a phone.

    python -m tools.book.formula_widths [_build/site] [--width 390] [--lang en ...]

loads every chapter and lab page of every language in headless Chromium as a phone shows it (390 px
wide, touch, the site's math font loaded) and lists every display formula wider than the column of
text (358 px at 390 px): the page, the line of the formula's ``$$`` in the page's source, its width
and the column's, in px. A formula that is listed scrolls sideways in its box, with a cue
(tools/book/sphinx/mathml.py); the course's rule is that none has to (write it on several lines:
one formula a line, ``aligned`` blocks, shorter names). tests/browser/test_formulas.py asserts the
cue on every page, and (marked xfail until the sources are rewritten) that the list is empty.
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

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_DISPLAY = re.compile(
    r"\$\$.+?\$\$|^\\begin\{(?:align|equation|gather|multline|flalign|alignat)\*?\}", re.S | re.M
)


def source_of(page: str) -> Path:
    """The MyST source of a chapter or lab page: en/chapters/en/01-x.html -> chapters/en/01-x.md."""
    parts = Path(page).with_suffix(".md").parts
    return ROOT.joinpath(*parts[1:])


def display_lines(source: Path) -> list[int]:
    """The line of each display formula of a MyST source, in order (code blocks left out)."""
    text = source.read_text(encoding="utf-8")
    blank = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)  # keep the line numbers
    return [blank.count("\n", 0, m.start()) + 1 for m in _DISPLAY.finditer(blank)]


@dataclass
class Formula:
    page: str
    index: int  # the n-th display formula of the page
    line: int | None  # of its $$ in the source
    width: float  # of the formula, px
    column: float  # of its box (the column of text), px
    cue: bool  # the box says it scrolls: faded edge, one tab stop, labelled
    tab_stop: bool
    label: str

    @property
    def too_wide(self) -> bool:
        return self.width > self.column + 0.5

    def __str__(self) -> str:
        line = f"{source_of(self.page).relative_to(ROOT)}:{self.line or '?'}"
        return (
            f"{line:45} formula {self.index + 1:2d}  {self.width:5.0f} px in a column of {self.column:.0f} px"
        )


_MEASURE = """
return [...document.querySelectorAll('.bd-article div.math')].map(box => {
  const style = getComputedStyle(box);
  const mask = style.maskImage || style.webkitMaskImage || 'none';
  return {width: box.scrollWidth, column: box.clientWidth, shown: box.offsetParent !== null,
          scrolls: box.classList.contains('ba-scrolls'), faded: mask !== 'none' && mask.includes('gradient'),
          overflow: style.overflowX, tabindex: box.getAttribute('tabindex'), role: box.getAttribute('role'),
          label: box.getAttribute('aria-label') || ''};
});
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


def measure(driver, page: str) -> list[Formula]:
    """The display formulas of the page loaded in ``driver`` (at its current width), each with the
    source line of its ``$$``; folded ones (a closed solution) left out."""
    try:
        lines = display_lines(source_of(page))
    except FileNotFoundError:
        lines = []
    boxes = driver.execute_script(_MEASURE)
    if len(lines) != len(boxes):
        lines = []  # the page and its source disagree: no line rather than a wrong one
    out = []
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
            )
        )
    return out


def too_wide(site: Path, pages: list[str], width: int = PHONE) -> list[Formula]:
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
                found += [f for f in measure(driver, page) if f.too_wide]
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
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        parser.error(f"no built site in {site}: run `make book` first")
    pages = chapter_and_lab_pages(site, args.lang)
    found = too_wide(site, pages, args.width)
    for formula in found:
        print(formula)
    print(f"{len(found)} display formulas wider than their column at {args.width} px, on {len(pages)} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
