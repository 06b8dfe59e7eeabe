"""Every chapter's quiz on the built page, in every language, at a phone's width: nothing is shown
before the reader chooses; a wrong option and then the right one each show their own feedback,
marked in words, exactly as the definitions (data/quizzes/) word it; the keyboard works; the quiz's
scripts log no error, answering logs none at all, and the quiz fits the phone. (The page as a whole,
its width and what its theme logs while loading, is checked by the site-wide browser tests.)"""

from __future__ import annotations

import pytest
from pages import console_errors
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from beyond_accuracy.explorers.quiz import chapters, questions
from beyond_accuracy.language import LANGUAGES, term

PHONE = 390


def shown(text: str) -> str:
    """A definition's text as the page shows it (`code` spans become code elements), with no-break
    spaces as spaces, since selenium's element text turns them into spaces."""
    return text.replace("`", "").replace("\u00a0", " ").replace("\u202f", " ")


def feedback_of(fieldset):
    return fieldset.find_element(By.CSS_SELECTOR, "[data-feedback]")


def choose(browser, fieldset, index: int):
    label = fieldset.find_elements(By.CSS_SELECTOR, "label.ba-quiz-option")[index]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()  # a tap on the option's label, as a reader's finger or mouse does
    radio = label.find_element(By.CSS_SELECTOR, "input[type=radio]")
    assert radio.is_selected()
    return feedback_of(fieldset)


def expect_feedback(element, lang, option):
    mark = term("quiz_right" if option["correct"] else "quiz_wrong", lang)
    assert element.get_attribute("data-result") == ("right" if option["correct"] else "wrong")
    assert element.text.strip() == f"{mark} {shown(option['feedback'])}"


@pytest.mark.parametrize("chapter", chapters())
@pytest.mark.parametrize("lang", LANGUAGES)
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
    assert [f.get_attribute("data-question") for f in fieldsets] == [q["id"] for q in defined]

    for fieldset, q in zip(fieldsets, defined):
        legend = fieldset.find_element(By.TAG_NAME, "legend").text
        assert shown(q["prompt"]) in legend
        labels = [el.text for el in fieldset.find_elements(By.CSS_SELECTOR, "label.ba-quiz-option")]
        assert labels == [shown(o["text"]) for o in q["options"]]
        element = feedback_of(fieldset)
        assert element.get_attribute("aria-live") == "polite"
        assert element.text == "" and not element.get_attribute("data-result"), "shown before choosing"
        for rect in browser.execute_script(
            "return [...arguments[0].querySelectorAll('label.ba-quiz-option')]"
            ".map(l => l.getBoundingClientRect().height)",
            fieldset,
        ):
            assert rect >= 44, "an option is too small a target for a finger"

        right = next(i for i, o in enumerate(q["options"]) if o["correct"])
        wrong = next(i for i, o in enumerate(q["options"]) if not o["correct"])
        expect_feedback(choose(browser, fieldset, wrong), lang, q["options"][wrong])
        expect_feedback(choose(browser, fieldset, right), lang, q["options"][right])

    # the keyboard: an arrow key moves the choice within a question and its feedback follows
    first = fieldsets[0]
    radios = first.find_elements(By.CSS_SELECTOR, "input[type=radio]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    radios[0].click()
    radios[0].send_keys(Keys.ARROW_DOWN)
    assert radios[1].is_selected()
    expect_feedback(feedback_of(first), lang, defined[0]["options"][1])

    # answering logs nothing (the favicon request the browser makes on its own is the site's business)
    assert [e for e in console_errors(browser) if "favicon.ico" not in e] == []
    box = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.right, arguments[0].scrollWidth, arguments[0].clientWidth, window.innerWidth]",
        quiz,
    )
    left, right, scroll, client, viewport = box
    assert viewport <= PHONE and left >= 0 and right <= viewport, f"the quiz spans {left}-{right} px"
    assert scroll <= client, "the quiz's content is wider than the quiz"
