"""Every chapter's quiz on the built page at a phone's width: nothing is shown before the reader
chooses; a wrong option and then the right one each show their own feedback, marked in words,
exactly as the definitions (data/quizzes/) word it; the keyboard works; the quiz's scripts log no
error and answering logs none at all. Each chapter's quiz in one language, the languages in turn
(pages.in_turn): the quiz's code is one, and tests/test_quizzes.py checks every language's
definitions. In every language every quiz renders in the page's language, fits the phone and
offers options a finger can hit (test_site.py::test_every_page_on_a_phone, which also checks the
page as a whole)."""

from __future__ import annotations

import pytest
from pages import console_errors, in_turn
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from beyond_accuracy.explorers.quiz import chapters, questions
from beyond_accuracy.language import term

PHONE = 390


def shown(text: str) -> str:
    """A definition's text as the page shows it (`code` spans become code elements), with no-break
    spaces as spaces, since selenium's element text turns them into spaces."""
    return text.replace("`", "").replace("\u00a0", " ").replace("\u202f", " ")


# What a reader sees of a quiz, read in one call (selenium's element text is the rendered text,
# as innerText is; no-break spaces become spaces in both, as in shown()).
_READ_QUIZ = """
const text = (el) => el ? el.innerText.replace(/[\\u00a0\\u202f]/g, ' ').trim() : null;
return [...arguments[0].querySelectorAll('fieldset[data-question]')].map(f => {
  const fb = f.querySelector('[data-feedback]');
  return {
    id: f.getAttribute('data-question'),
    legend: text(f.querySelector('legend')),
    labels: [...f.querySelectorAll('label.ba-quiz-option')].map(text),
    feedback: text(fb), result: fb.getAttribute('data-result'), live: fb.getAttribute('aria-live'),
  };
});
"""
_FEEDBACK = """
const [f, i] = arguments, fb = f.querySelector('[data-feedback]');
const radio = f.querySelectorAll('label.ba-quiz-option')[i].querySelector('input[type=radio]');
return {selected: radio.checked, result: fb.getAttribute('data-result'),
        feedback: fb.innerText.replace(/[\\u00a0\\u202f]/g, ' ').trim()};
"""


def choose(browser, fieldset, label, index: int) -> dict:
    """Tap option ``index`` of a question (its label, as a reader's finger or mouse does) and read
    what the question then shows."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()
    state = browser.execute_script(_FEEDBACK, fieldset, index)
    assert state["selected"], "the tapped option is not selected"
    return state


def expect_feedback(state, lang, option):
    mark = term("quiz_right" if option["correct"] else "quiz_wrong", lang)
    assert state["result"] == ("right" if option["correct"] else "wrong")
    assert state["feedback"] == f"{mark} {shown(option['feedback'])}"


@pytest.mark.parametrize(("chapter", "lang"), in_turn(chapters()).items())
def test_the_quiz_of_every_chapter_answers_each_choice(open_page, lang, chapter):
    browser = open_page(f"{lang}/chapters/{lang}/{chapter}.html", width=PHONE)
    quiz = WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'.ba-quiz[data-chapter="{chapter}"]')
    )
    assert quiz.get_attribute("lang") == lang
    loading = console_errors(browser)
    assert [e for e in loading if "/_static/explorers/" in e] == [], "the quiz's scripts failed"
    assert quiz.find_element(By.CSS_SELECTOR, ".ba-quiz-title").text == term("quiz_title", lang)
    fieldsets = quiz.find_elements(By.CSS_SELECTOR, "fieldset[data-question]")
    defined = questions(chapter, lang)
    seen = browser.execute_script(_READ_QUIZ, quiz)
    assert [f["id"] for f in seen] == [q["id"] for q in defined]

    for fieldset, before, q in zip(fieldsets, seen, defined):
        assert shown(q["prompt"]) in before["legend"]
        assert before["labels"] == [shown(o["text"]) for o in q["options"]]
        assert before["live"] == "polite"
        assert before["feedback"] == "" and not before["result"], "shown before choosing"

        labels = fieldset.find_elements(By.CSS_SELECTOR, "label.ba-quiz-option")
        right = next(i for i, o in enumerate(q["options"]) if o["correct"])
        wrong = next(i for i, o in enumerate(q["options"]) if not o["correct"])
        for i in (wrong, right):
            expect_feedback(choose(browser, fieldset, labels[i], i), lang, q["options"][i])

    # the keyboard: an arrow key moves the choice within a question and its feedback follows
    first = fieldsets[0]
    radios = first.find_elements(By.CSS_SELECTOR, "input[type=radio]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    radios[0].click()
    radios[0].send_keys(Keys.ARROW_DOWN)
    state = browser.execute_script(_FEEDBACK, first, 1)
    assert state["selected"]
    expect_feedback(state, lang, defined[0]["options"][1])

    # answering logs nothing (the favicon request the browser makes on its own is the site's business)
    assert [e for e in console_errors(browser) if "favicon.ico" not in e] == []
