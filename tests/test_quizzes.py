"""The chapters' quizzes: one set of definitions (the structure in
src/beyond_accuracy/data/quizzes/, the words in the catalogue's quiz.csv), sound in every language, true to the chapters' numbers, and rendered by one module (js/quiz.js) in
a code cell near the end of every chapter. The browser side is tests/browser/test_quiz_pages.py."""

from __future__ import annotations

import copy
import json
import math
import re

import jupytext
import numpy as np
import pytest
from sklearn.metrics import accuracy_score, mean_absolute_error
from statsmodels.stats.proportion import proportion_confint

from beyond_accuracy import fmt, set_language
from beyond_accuracy.datasets import thousand_patients
from beyond_accuracy.explorers import Quiz, esm
from beyond_accuracy.explorers.quiz import (
    LABELS,
    chapters,
    definitions,
    problems,
    questions,
    structure_problems,
    structures,
    unused_texts,
)
from beyond_accuracy.language import LANGUAGES, term
from tools.language.typography import fix_string
from tools.project import ROOT

CHAPTERS = sorted(p.stem for p in (ROOT / "chapters" / "en").glob("0?-*.md"))
ALL = [(ch, q) for ch in chapters() for q in definitions()[ch]["questions"]]


def texts(q):
    """(name, {lang: text}) of every text of a stored question."""
    yield "prompt", q["prompt"]
    for i, o in enumerate(q["options"]):
        if "text" in o:
            yield f"option {i + 1}", o["text"]
        yield f"feedback {i + 1}", o["feedback"]


def test_every_chapter_has_a_quiz_and_every_quiz_a_chapter():
    assert chapters() == CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_definitions_are_sound(chapter):
    assert problems(chapter) == []
    assert 4 <= len(definitions()[chapter]["questions"]) <= 6


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda q: q["options"][0].update(correct=True), "2 right options"),
        (lambda q: q["options"][1]["feedback"].pop("fi"), "feedback of option 2 is not given"),
        (lambda q: q["prompt"].update(pt="  "), "prompt is empty in pt"),
        (lambda q: q.update(kind="essay"), "kind 'essay'"),
        (lambda q: q["options"][0]["text"].update(xx="?"), "option 1 is not given"),
    ],
)
def test_the_check_of_the_definitions_finds_each_fault(spoil, message):
    stored = copy.deepcopy(definitions()["01-confusion-matrix"])
    spoil(stored["questions"][0])  # a choice question whose right option is the second
    assert any(message in p for p in problems("01-confusion-matrix", stored)), problems(
        "01-confusion-matrix", stored
    )


def test_the_structure_holds_no_words_and_every_word_belongs_to_a_question():
    assert [p for ch in chapters() for p in structure_problems(ch)] == []
    assert unused_texts() == []
    spoilt = copy.deepcopy(structures()["02-imbalance"])
    spoilt["questions"][1]["prompt"] = {"en": "Why?"}
    spoilt["questions"][1]["options"][0]["feedback"] = "Right."
    assert structure_problems("02-imbalance", spoilt) == [
        "02-imbalance: question im-precision-prevalence has prompt: words belong in the catalogue (quiz.csv)",
        "02-imbalance: option 1 of im-precision-prevalence has feedback: words belong in the catalogue"
        " (quiz.csv)",
    ]


def test_a_text_missing_from_the_catalogue_is_named_by_its_key():
    stored = copy.deepcopy(definitions()["01-confusion-matrix"])
    del stored["questions"][0]["options"][2]["feedback"]
    assert any(
        "(catalogue key quiz.cm-accuracy-paradox.3.feedback)" in p
        for p in problems("01-confusion-matrix", stored)
    )


def test_ids_are_unique_and_name_their_chapter():
    ids = [q["id"] for _, q in ALL]
    assert len(ids) == len(set(ids))
    prefixes = {ch: {q["id"].split("-")[0] for q in definitions()[ch]["questions"]} for ch in chapters()}
    assert all(len(p) == 1 for p in prefixes.values()), prefixes


@pytest.mark.parametrize(("chapter", "q"), ALL, ids=[q["id"] for _, q in ALL])
def test_every_text_is_there_in_every_language_distinct_and_typographically_clean(chapter, q):
    for name, text in texts(q):
        assert set(text) == set(LANGUAGES), name
        for lang, s in text.items():
            assert s.strip() == s and s, f"{name} in {lang}"
            assert fix_string(s, lang) == s, f"{name} in {lang}: run `make typography`"
            assert s.count("`") % 2 == 0, f"{name} in {lang}: an unclosed `code` span"
    for lang in LANGUAGES:
        options = [
            o["text"] for o in next(x for x in questions(chapter, lang) if x["id"] == q["id"])["options"]
        ]
        assert len(options) == len(set(options)), f"two options read the same in {lang}"
        feedback = [o["feedback"][lang] for o in q["options"]]
        assert len(feedback) == len(set(feedback)), f"two options share their feedback in {lang}"


# What the quiz itself prints before an option's feedback (terms quiz_right, quiz_wrong) and the
# words that would say it again: no feedback opens with them ("Right. Right: …").
VERDICTS = {
    "en": ("Right", "Correct", "Wrong", "Not quite", "Exactly"),
    "it": ("Giusto", "Esatto", "Corretto", "Sbagliato", "Non proprio", "È proprio così"),
    "es": ("Correcto", "Exacto", "Incorrecto", "No exactamente"),
    "pt": ("Certo", "Correto", "Isso mesmo", "Exato", "Errado", "Não exatamente", "É assim mesmo"),
    "fi": ("Oikein", "Väärin", "Ei aivan", "Juuri niin"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_feedback_repeats_the_verdict_the_quiz_prints(lang):
    words = {term("quiz_right", lang).rstrip("."), term("quiz_wrong", lang).rstrip("."), *VERDICTS[lang]}
    pattern = re.compile(rf"^({'|'.join(map(re.escape, sorted(words, key=len, reverse=True)))})\b")
    repeated = [
        f"{q['id']} option {i + 1}: {o['feedback'][lang][:40]!r}"
        for _, q in ALL
        for i, o in enumerate(q["options"])
        if pattern.match(o["feedback"][lang])
    ]
    assert not repeated, f"the quiz prints the verdict itself ({term('quiz_right', lang)!r}): {repeated}"


def test_the_right_option_is_not_always_in_the_same_place():
    places = [[o["correct"] for o in q["options"]].index(True) for _, q in ALL if q["kind"] == "choice"]
    assert len(set(places)) == 3, places
    answers = [q["options"][0]["correct"] for _, q in ALL if q["kind"] == "true_false"]
    assert True in answers and False in answers


def test_true_false_options_are_worded_by_the_terms_table():
    for lang in LANGUAGES:
        for chapter in chapters():
            for stored, q in zip(definitions()[chapter]["questions"], questions(chapter, lang)):
                if stored["kind"] == "true_false":
                    assert [o["text"] for o in q["options"]] == [
                        term("quiz_true", lang),
                        term("quiz_false", lang),
                    ]


# --- the numbers the questions use are the chapters' numbers, computed here ------------------


def qwk_of_shares(shares, p_move=0.2):
    """QWK and accuracy of the chapter's fixed grading model on a population with these shares."""
    k = len(shares)
    move = np.zeros((k, k))
    for i in range(k):
        for j in (i - 1, i + 1):
            if 0 <= j < k:
                move[i, j] = p_move / 2
        move[i, i] = 1 - move[i].sum()
    observed = np.asarray(shares)[:, None] * move
    expected = np.outer(observed.sum(1), observed.sum(0))
    w = (np.subtract.outer(np.arange(k), np.arange(k)) ** 2) / (k - 1) ** 2
    return 1 - (w * observed).sum() / (w * expected).sum(), np.trace(observed)


def numbers():
    """(question id, option index, number, digits, percent): the option's feedback must show it."""
    patients = thousand_patients()
    const = accuracy_score(patients["y"], np.zeros(len(patients), dtype=int))
    lazy = accuracy_score(patients["y"], patients["lazy"])
    sens, spec = 0.70, 0.80
    prec = {pi: sens * pi / (sens * pi + (1 - spec) * (1 - pi)) for pi in (0.01, 0.5)}
    qwk_eq, acc_eq = qwk_of_shares([1 / 3] * 3)
    qwk_98, acc_98 = qwk_of_shares([0.98, 0.01, 0.01])
    actual, a, b = np.arange(1, 6), np.array([2, 3, 4, 5, 4]), np.array([5, 5, 3, 1, 1])
    proba = np.array([0.05, 0.10, 0.15, 0.30, 0.40])
    cost = {r: float(np.abs(actual - r) @ proba) for r in actual}
    x_low = proportion_confint(3, 3, method="wilson")[0]
    y_low, y_high = proportion_confint(32, 400, method="wilson")
    return [
        ("cm-accuracy-paradox", 0, lazy, 3, False),
        ("cm-accuracy-paradox", 1, const, 3, False),
        ("cm-accuracy-paradox", 1, lazy, 3, False),
        ("im-auc-095", 0, 800 / 1800, 3, False),
        ("im-precision-prevalence", 1, prec[0.01], 3, False),
        ("im-precision-prevalence", 2, prec[0.5], 2, False),
        ("im-cost-threshold", 0, 1 / (1 + 9), 1, False),
        ("ord-accuracy-prefers", 1, accuracy_score(actual, b), 1, False),
        ("ord-accuracy-prefers", 2, mean_absolute_error(actual, a), 1, False),
        ("ord-accuracy-prefers", 2, mean_absolute_error(actual, b), 1, False),
        ("ord-kappa-paradox", 0, qwk_eq, 3, False),
        ("ord-kappa-paradox", 0, qwk_98, 3, False),
        ("ord-kappa-paradox", 0, acc_eq, 3, False),
        ("ord-kappa-paradox", 0, acc_98, 3, False),
        ("ord-median-mae", 0, cost[5], 1, False),
        ("ord-median-mae", 0, cost[4], 1, False),
        ("ord-median-mae", 1, cost[3], 1, False),
        ("ord-median-mae", 2, cost[4], 1, False),
        ("err-loss-surprise", 0, -math.log(0.01), 2, False),
        ("err-loss-surprise", 0, -math.log(0.40), 2, False),
        ("err-small-slice", 0, round(x_low, 2), 0, True),
        ("err-small-slice", 2, round(y_low, 2), 0, True),
        ("err-small-slice", 2, round(y_high, 2), 0, True),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_numbers_in_the_feedback_are_computed_ones(lang):
    by_id = {q["id"]: q for _, q in ALL}
    for qid, option, value, digits, percent in numbers():
        shown = fmt(value, digits, percent=percent, lang=lang)
        feedback = by_id[qid]["options"][option]["feedback"][lang]
        assert shown in feedback, f"{qid}, option {option + 1}, {lang}: {shown!r} not in {feedback!r}"


def _output_text(path, needle):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and needle in "".join(cell["source"]):
            return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))
    raise AssertionError(f"no cell with {needle!r} in {path}")


def test_the_numbers_quoted_from_a_chapter_experiment_are_its_stored_outputs():
    smote = _output_text(ROOT / "chapters/en/02-imbalance.ipynb", "SMOTE before CV")
    before = re.search(r"SMOTE before CV \(leak\)\s+([\d.]+)", smote).group(1)
    inside = re.search(r"SMOTE inside pipeline\s+([\d.]+)", smote).group(1)
    weights = _output_text(ROOT / "chapters/en/02-imbalance.ipynb", "mean_prob = {")
    share = re.search(r"share of positives: ([\d.]+)", weights).group(1)
    weighted = re.search(r"class_weight='balanced': ([\d.]+)", weights).group(1)
    by_id = {q["id"]: q for _, q in ALL}
    for lang in LANGUAGES:
        local = {x: fmt(float(x), 3, lang=lang) for x in (before, inside, share, weighted)}
        for option in by_id["im-smote-inside"]["options"]:
            assert local[before] in option["feedback"][lang] and local[inside] in option["feedback"][lang]
        wrong = by_id["im-balanced-weights"]["options"][0]["feedback"][lang]
        assert local[share] in wrong and local[weighted] in wrong


# --- the widget -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quiz_exports_the_definitions_in_the_active_language(lang):
    set_language(lang)
    try:
        quiz = Quiz("03-calibration")
    finally:
        set_language("en")
    assert quiz.lang == lang
    assert quiz.data["chapter"] == "03-calibration"
    words = quiz.data["labels"]
    rebuilt = [
        {
            "id": q["id"],
            "kind": q["kind"],
            "prompt": words[f"{q['id']}:prompt"],
            "options": [
                {"text": words[f"{q['id']}:{i}:text"], "feedback": words[f"{q['id']}:{i}:feedback"], **o}
                for i, o in enumerate(q["options"])
            ],
        }
        for q in quiz.data["questions"]
    ]
    assert rebuilt == questions("03-calibration", lang)
    assert {key: words[key] for key in LABELS} == {key: term(key, lang) for key in LABELS}
    assert len(words) == len(LABELS) + sum(1 + 2 * len(q["options"]) for q in quiz.data["questions"])
    html = quiz.to_html()
    assert 'data-module="quiz"' in html and f'lang="{lang}"' in html
    fallback = html[html.index('class="ba-fallback"') :]
    assert str(len(quiz.data["questions"])) in fallback
    for q in rebuilt:  # no feedback where JavaScript does not run
        assert all(o["feedback"] not in fallback for o in q["options"])


def test_the_exported_data_is_the_same_in_every_language_but_its_words():
    structures = set()
    for lang in LANGUAGES:
        data = Quiz("05-error-inspection", lang=lang).data
        structures.add(json.dumps({k: v for k, v in data.items() if k not in ("labels", "number_style")}))
    assert len(structures) == 1


def test_an_unknown_chapter_or_language_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="01-confusion-matrix, 02-imbalance, 03-calibration"):
        Quiz("06-ranking")
    with pytest.raises(ValueError, match="en, it, es, pt, fi"):
        Quiz("01-confusion-matrix", lang="de")


def test_the_module_uses_only_the_contract_and_no_words():
    source = (ROOT / "src/beyond_accuracy/explorers/js/quiz.js").read_text(encoding="utf-8")
    assert "export default" in source and "import " not in source
    assert set(re.findall(r"model\.(\w+)\(", source)) <= {"get", "set", "save_changes", "on"}
    assert set(re.findall(r'baLabel\(data, "(\w+)"\)', source)) | {"quiz_right", "quiz_wrong"} == set(LABELS)
    assert re.findall(r"[\"'`]([A-Z][a-z]+ [a-z]+[^\"'`]*)[\"'`]", source) == []  # no sentence of its own
    assert "innerHTML" not in source  # texts become text nodes, never markup
    assert esm("quiz").endswith(source)


# --- in the chapters --------------------------------------------------------------------------

CELL = 'from beyond_accuracy.explorers import Quiz\n\nQuiz("{chapter}")'


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_chapter_has_its_quiz_just_before_the_remember_list(chapter, lang):
    cells = jupytext.read(ROOT / "chapters" / lang / f"{chapter}.md", fmt="md:myst").cells
    quiz = [i for i, c in enumerate(cells) if c.cell_type == "code" and "Quiz(" in c.source]
    assert len(quiz) == 1
    i = quiz[0]
    assert cells[i].source == CELL.format(chapter=chapter)
    assert not set(cells[i].metadata.get("tags", [])) & {"remove-cell", "remove-output", "remove-student"}
    after = cells[i + 1]
    assert after.cell_type == "markdown" and after.source.lstrip().startswith("## "), (
        "the next section follows"
    )
    assert ":::{admonition}" in cells[i + 1].source and ":class: important" in cells[i + 1].source
    before = cells[i - 1]
    assert before.cell_type == "markdown" and before.source.strip(), "a sentence introduces the quiz"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_executed_chapter_stores_the_quiz_of_its_language(chapter, lang):
    nb = json.loads((ROOT / "chapters" / lang / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "Quiz(" in "".join(c["source"]))
    html = "".join(next(o for o in cell["outputs"] if "data" in o)["data"]["text/html"])
    assert f'data-module="quiz" lang="{lang}"' in html
    assert json.dumps(chapter) in html
