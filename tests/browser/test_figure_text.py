"""The course's figures on a phone: at 390 px the smallest text of every figure of every chapter, in
every language, is at least 9 CSS px high (its font size as drawn on the screen).

The figures are SVGs drawn by figures_src/ with their text as paths (tools/book/figures.py): a text
of font size f points is a group scaled by f/100 in the SVG's own units (points of its viewBox), so
on the screen it is f × (the image's width in CSS px) / (the viewBox's width). The image is the one
the browser chose (currentSrc): the figure, or its phone layout (<NAME>.phone.svg) on a narrow
screen. Before the phone layouts the smallest text measured 4.1 px (errors-ranking) to 7.8 px.
"""

from __future__ import annotations

import pytest

from tools.project import languages

PHONE = 390
SMALLEST_PX = 9.0
CHAPTERS = ["01-confusion-matrix", "02-imbalance", "03-calibration", "04-ordinal", "05-error-inspection"]

_FIGURE_TEXT = r"""
const done = arguments[arguments.length - 1];
const imgs = [...document.querySelectorAll('.bd-article img')].filter(
  (i) => /\/_images\/[^/]+\.svg$/.test(i.currentSrc || i.src) && i.getBoundingClientRect().width > 0);
Promise.all(imgs.map(async (img) => {
  const url = img.currentSrc || img.src;
  const svg = await (await fetch(url)).text();
  const box = svg.match(/viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"/);
  const scales = [];
  for (const group of svg.split(/<g id="text_\d+">/).slice(1)) {
    const m = group.match(/scale\(([\d.]+) -[\d.]+\)/);
    if (m) scales.push(Number(m[1]) * 100);  // the font size in the viewBox's units
  }
  const width = img.getBoundingClientRect().width;
  return {url: url.split('/').pop(), width, texts: scales.length,
          smallest: scales.length ? Math.min(...scales) * width / Number(box[3]) : null};
})).then(done, (e) => done(String(e)));
"""


def figure_text(browser) -> list[dict]:
    """{url, width, texts, smallest}: each course figure shown on the page, the width it is drawn
    at (CSS px), how many texts it has and the smallest one's font size on the screen (CSS px)."""
    browser.set_script_timeout(30)
    result = browser.execute_async_script(_FIGURE_TEXT)
    if isinstance(result, str):
        raise RuntimeError(result)
    return result


@pytest.mark.parametrize("lang", languages())
def test_figure_text_is_legible_on_a_phone(open_page, lang):
    measured = []
    for chapter in CHAPTERS:
        browser = open_page(f"{lang}/chapters/{lang}/{chapter}.html", width=PHONE)
        measured += [dict(f, page=chapter) for f in figure_text(browser)]
    assert len(measured) >= 10, measured
    assert all(f["texts"] > 0 for f in measured), [f for f in measured if not f["texts"]]
    small = [f for f in measured if f["smallest"] < SMALLEST_PX]
    assert not small, "\n".join(
        f"{f['page']}: {f['url']} at {f['width']:.0f} px, smallest text {f['smallest']:.1f} px" for f in small
    )
