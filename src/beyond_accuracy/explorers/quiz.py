"""Kernel-free quizzes: a few questions per chapter with localised feedback for every option.

The structure of a chapter's quiz is ``data/quizzes/<chapter>.json``, which holds no words: per
question its ``id``, its ``kind`` (``"choice"`` or ``"true_false"``) and its ``options``, each with
``correct`` (exactly one option is right; a true/false option also has its ``value``). Every word is
in the catalogue's ``quiz.csv`` (:mod:`beyond_accuracy.catalogue`): ``quiz.<id>.prompt``, and for
option ``n`` (from 1) ``quiz.<id>.<n>.text`` (choice questions; a true/false option is worded by
the terms table) and ``quiz.<id>.<n>.feedback``, which says why the option is right or wrong.
:func:`definitions` puts the two together. The same definitions feed the page (``Quiz``), the
notebook and the instructor's answer key (tools/teaching/instructor.py).

``Quiz("01-confusion-matrix")`` in a chapter's code cell renders the quiz in the notebook's
language (``set_language`` in the first cell); js/quiz.js shows the feedback of the option the
reader chooses, and nothing before the reader chooses.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..catalogue import keys as catalogue_keys
from ..catalogue import localised
from ..language import LANGUAGES, _check_language, get_language, term
from ._widget import BrowserWidget, labels

KINDS = ("choice", "true_false")
LABELS = ("quiz_title", "quiz_question", "quiz_right", "quiz_wrong")


def _folder():
    return resources.files("beyond_accuracy").joinpath("data/quizzes")


# What the structure files may hold: no text, only these fields.
STRUCTURE_FIELDS = {
    "quiz": {"chapter", "questions"},
    "question": {"id", "kind", "options"},
    "option": {"correct", "value"},
}


@cache
def structures() -> dict[str, dict]:
    """{chapter: the structure of its quiz, as stored in data/quizzes/<chapter>.json}, in chapter order."""
    found = {}
    for path in sorted((p for p in _folder().iterdir() if p.name.endswith(".json")), key=lambda p: p.name):
        chapter = path.name[: -len(".json")]
        found[chapter] = json.loads(path.read_text(encoding="utf-8"))
    return found


def text_keys(question: dict) -> dict[str, str]:
    """{field: catalogue key} of the texts of a stored question: ``prompt``, and per option ``n``
    (from 1) ``<n>.text`` (choice questions only) and ``<n>.feedback``."""
    base = f"quiz.{question.get('id')}"
    found = {"prompt": f"{base}.prompt"}
    for n, _ in enumerate(question.get("options", []), start=1):
        if question.get("kind") == "choice":
            found[f"{n}.text"] = f"{base}.{n}.text"
        found[f"{n}.feedback"] = f"{base}.{n}.feedback"
    return found


def _texts(key: str) -> dict[str, str] | None:
    return dict(localised(key)) if key in _quiz_keys() else None


@cache
def _quiz_keys() -> frozenset[str]:
    return frozenset(catalogue_keys("quiz."))


def assemble(structure: dict) -> dict:
    """A quiz's structure with its texts from the catalogue: every ``prompt``, option ``text`` and
    ``feedback`` as ``{lang: text}`` (a text the catalogue lacks is left out)."""
    questions = []
    for q in structure.get("questions", []):
        keys = text_keys(q)
        question = {k: v for k, v in q.items() if k != "options"}
        if _texts(keys["prompt"]) is not None:
            question["prompt"] = _texts(keys["prompt"])
        options = []
        for n, o in enumerate(q.get("options", []), start=1):
            option = dict(o)
            for field in ("text", "feedback"):
                key = keys.get(f"{n}.{field}")
                if key is not None and _texts(key) is not None:
                    option[field] = _texts(key)
            options.append(option)
        question["options"] = options
        questions.append(question)
    return {**{k: v for k, v in structure.items() if k != "questions"}, "questions": questions}


@cache
def definitions() -> dict[str, dict]:
    """{chapter: its definitions}, in chapter order: the structure of data/quizzes/<chapter>.json
    with the texts of the catalogue (:func:`assemble`)."""
    return {chapter: assemble(structure) for chapter, structure in structures().items()}


def structure_problems(chapter: str, structure: dict | None = None) -> list[str]:
    """What is wrong with the stored structure of ``chapter``'s quiz (or ``structure``) as a
    structure: a field that is not structure (a word belongs in the catalogue, not in the JSON)."""
    found = []
    stored = structures()[_check_chapter(chapter)] if structure is None else structure
    levels = [("the quiz", "quiz", stored)]
    for q in stored.get("questions", []):
        levels.append((f"question {q.get('id')}", "question", q))
        levels += [
            (f"option {n} of {q.get('id')}", "option", o) for n, o in enumerate(q.get("options", []), 1)
        ]
    for where, level, item in levels:
        extra = sorted(set(item) - STRUCTURE_FIELDS[level])
        if extra:
            found.append(
                f"{chapter}: {where} has {', '.join(extra)}: words belong in the catalogue (quiz.csv)"
            )
    return found


def unused_texts() -> list[str]:
    """The keys of the catalogue's quiz table that no question of any quiz uses."""
    used = {
        key for s in structures().values() for q in s.get("questions", []) for key in text_keys(q).values()
    }
    return sorted(_quiz_keys() - used)


def chapters() -> list[str]:
    """The chapters that have a quiz (``01-confusion-matrix`` …)."""
    return list(definitions())


def _check_chapter(chapter) -> str:
    if chapter not in definitions():
        raise ValueError(f"no quiz for chapter {chapter!r}; choose one of {', '.join(chapters())}")
    return chapter


def questions(chapter: str, lang: str | None = None) -> list[dict]:
    """The questions of ``chapter`` in one language: ``[{"id", "kind", "prompt", "options":
    [{"text", "feedback", "correct"}, ...]}, ...]``, options in their stored order."""
    chapter = _check_chapter(chapter)
    lang = _check_language(lang or get_language())
    out = []
    for q in definitions()[chapter]["questions"]:
        options = []
        for o in q["options"]:
            text = o["text"][lang] if "text" in o else term("quiz_true" if o["value"] else "quiz_false", lang)
            options.append({"text": text, "feedback": o["feedback"][lang], "correct": bool(o["correct"])})
        out.append({"id": q["id"], "kind": q["kind"], "prompt": q["prompt"][lang], "options": options})
    return out


def problems(chapter: str, stored: dict | None = None) -> list[str]:
    """What is wrong with the definitions of ``chapter`` (the stored ones unless ``stored`` is
    given): an empty list when they are sound."""
    found = []
    stored = definitions()[_check_chapter(chapter)] if stored is None else stored
    if stored.get("chapter") != chapter:
        found.append(f"the file of {chapter} says it is the quiz of {stored.get('chapter')!r}")
    for i, q in enumerate(stored.get("questions", [])):
        where = f"{chapter} question {q.get('id', i)}"
        if q.get("kind") not in KINDS:
            found.append(f"{where}: kind {q.get('kind')!r} is not one of {', '.join(KINDS)}")
        options = q.get("options", [])
        if sum(o.get("correct") is True for o in options) != 1:
            found.append(f"{where}: {sum(o.get('correct') is True for o in options)} right options, not 1")
        if q.get("kind") == "true_false" and [o.get("value") for o in options] != [True, False]:
            found.append(f"{where}: a true/false question has the options true, then false")
        if q.get("kind") == "choice" and not 2 <= len(options) <= 5:
            found.append(f"{where}: {len(options)} options")
        keys = text_keys(q)
        texts = [("prompt", q.get("prompt"), keys["prompt"])]
        for j, o in enumerate(options):
            texts.append((f"feedback of option {j + 1}", o.get("feedback"), keys[f"{j + 1}.feedback"]))
            if q.get("kind") == "choice":
                texts.append((f"option {j + 1}", o.get("text"), keys[f"{j + 1}.text"]))
        for name, text, key in texts:
            if not isinstance(text, dict) or set(text) != set(LANGUAGES):
                found.append(
                    f"{where}: the {name} is not given in exactly {', '.join(LANGUAGES)} (catalogue key {key})"
                )
                continue
            found += [
                f"{where}: the {name} is empty in {lang}" for lang, s in text.items() if not str(s).strip()
            ]
    return found


def exported(chapter: str, lang: str) -> dict:
    """What the page receives: the language-free structure of the questions (ids, kinds, which
    option is right) and, in ``labels``, every word the reader sees: the quiz's own labels and
    ``<id>:prompt``, ``<id>:<i>:text`` and ``<id>:<i>:feedback`` for question ``id`` and option ``i``."""
    words = labels(LABELS, lang)
    structure = []
    for q in questions(chapter, lang):
        words[f"{q['id']}:prompt"] = q["prompt"]
        for i, o in enumerate(q["options"]):
            words[f"{q['id']}:{i}:text"] = o["text"]
            words[f"{q['id']}:{i}:feedback"] = o["feedback"]
        structure.append(
            {"id": q["id"], "kind": q["kind"], "options": [{"correct": o["correct"]} for o in q["options"]]}
        )
    return {"chapter": chapter, "questions": structure, "labels": words}


class Quiz(BrowserWidget):
    """The quiz of a chapter: ``Quiz("01-confusion-matrix")``; the language is the active one.

    The reader chooses an option and reads why it is right or wrong; ``state["answers"]`` holds
    the chosen option of each question (its index), by question id.
    """

    module = "quiz"

    def __init__(self, chapter: str, lang: str | None = None):
        lang = _check_language(lang or get_language())
        super().__init__(exported(_check_chapter(chapter), lang), lang)

    def text_summary(self) -> str:
        return term("quiz_fallback", self.lang).format(n=len(self.data["questions"]))
