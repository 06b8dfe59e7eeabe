"""The course's widgets (explorers and quizzes) in both colour modes: every text node has the
contrast WCAG AA asks (4.5:1, 3:1 for large text), every mark of their plots that carries meaning
3:1, against the background it is painted on, at a phone's and a laptop's width, before and after
the reader answers (every question's feedback, right and wrong, is shown once).

The widgets carry their own colours (js/core.js, BA_PALETTE); before they did, the theme's dark mode
painted the notebook output they sit in light grey under light text: the quizzes' inline code was
1.01:1 and the explorers' captions 1.71:1 (the reader's review of 2026-12-07).
"""

from __future__ import annotations

import pytest
from pages import in_turn, low_contrast, set_colour_mode, widget_contrast_in_every_state

# The five chapters hold every explorer module and a quiz each; each is read in one language, in turn
# (the widgets' colours are the same in every language; their words are not, so the sample changes
# language from chapter to chapter).
CHAPTERS = {
    "01-confusion-matrix": "prevalence, threshold, quiz",
    "02-imbalance": "cost, quiz",
    "03-calibration": "calibration, quiz",
    "04-ordinal": "kappa, quiz",
    "05-error-inspection": "review, quiz",
}
SAMPLE = in_turn(CHAPTERS)


@pytest.fixture
def colour_mode(browser):
    yield lambda mode: set_colour_mode(browser, mode)
    set_colour_mode(browser, None)


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("chapter", list(CHAPTERS))
def test_widget_text_and_marks_have_aa_contrast(open_page, colour_mode, chapter, mode, width):
    lang = SAMPLE[chapter]
    colour_mode(mode)
    browser = open_page(f"{lang}/chapters/{lang}/{chapter}.html", width=width)
    assert browser.execute_script("return document.documentElement.dataset.theme") == mode
    measured = widget_contrast_in_every_state(browser)
    modules = {e["where"].split()[0] for e in measured["text"]}
    expected = {m.strip() for m in CHAPTERS[chapter].split(",")}
    assert modules == expected, f"measured the text of {modules}, expected {expected}"
    assert len(measured["marks"]) >= 3
    failing = low_contrast(measured)
    assert not failing, "\n".join(
        f"{e['where']} {e['text']!r}: {e['ratio']}:1 < {e['need']}:1" for e in failing[:20]
    )
