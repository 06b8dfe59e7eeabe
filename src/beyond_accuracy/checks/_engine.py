"""The engine behind the labs' checks: an exercise is data (how to compute its answer, how to
compare, a hint per language); the engine turns a student's answer into localised feedback.

Feedback never contains the expected value: it says correct, not yet (with the hint), not
attempted (the ``...`` placeholder is still there), or that the answer has the wrong form.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..language import LANGUAGES, get_language, term

CORRECT, NOT_YET, NOT_ATTEMPTED, BAD_FORM = "correct", "not yet", "not attempted", "bad form"

# Forms shared by several exercises: what a numeric answer must look like, in every language.
DECIMAL_FORM = {
    "en": "one number, written as a Python decimal with a point (for example 0.35).",
    "it": "un solo numero, scritto come decimale Python, con il punto (per esempio 0.35).",
    "es": "un solo número, escrito como número decimal de Python, con punto (p. ej., 0.35).",
    "pt": "um único número, escrito como decimal do Python, com ponto (por exemplo 0.35).",
    "fi": "yksi luku Pythonin desimaalilukuna, pisteellä (esimerkiksi 0.35).",
}
PROPORTION_FORM = {
    "en": "one number between 0 and 1, written as a Python decimal with a point (for example 0.35).",
    "it": "un solo numero tra 0 e 1, scritto come decimale Python, con il punto (per esempio 0.35).",
    "es": "un solo número entre 0 y 1, escrito como número decimal de Python, con punto (p. ej., 0.35).",
    "pt": "um único número entre 0 e 1, escrito como decimal do Python, com ponto (por exemplo 0.35).",
    "fi": "yksi luku väliltä 0–1 Pythonin desimaalilukuna, pisteellä (esimerkiksi 0.35).",
}


@dataclass(frozen=True)
class Exercise:
    """One checked exercise.

    ``solve`` computes the expected answer from the course's data (never a typed constant), so a
    change to the data or the method shows up as a failing self-test. ``kind`` says how answers
    are compared: ``"number"`` (within ``tol``), ``"numbers"`` (a sequence, element-wise within
    ``tol``), ``"choice"`` (one of ``solve()``'s accepted strings, case and spacing ignored).
    ``hint`` and ``form`` map each language to a sentence. ``wrong_examples`` (a tuple, or a
    function returning one, derived from the solution) holds plausible mistakes the self-tests
    must reject.
    """

    name: str
    solve: Callable[[], Any]
    kind: str
    hint: dict[str, str]
    form: dict[str, str]
    tol: float = 0.0
    wrong_examples: tuple | Callable[[], tuple] = field(default=())

    def __post_init__(self):
        if self.kind not in ("number", "numbers", "choice"):
            raise ValueError(f"unknown kind {self.kind!r} for exercise {self.name!r}")
        for what in ("hint", "form"):
            missing = [lang for lang in LANGUAGES if not getattr(self, what).get(lang)]
            if missing:
                raise ValueError(f"exercise {self.name!r} lacks a {what} in {missing}")

    def wrong_answers(self) -> tuple:
        examples = self.wrong_examples
        return tuple(examples() if callable(examples) else examples)

    def grade(self, answer) -> str:
        """One of ``correct``, ``not yet``, ``not attempted``, ``bad form``."""
        if answer is Ellipsis:
            return NOT_ATTEMPTED
        expected = self.solve()
        if self.kind == "number":
            if not _is_number(answer):
                return BAD_FORM
            return CORRECT if abs(float(answer) - float(expected)) <= self.tol + 1e-12 else NOT_YET
        if self.kind == "numbers":
            if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__"):
                return BAD_FORM
            values = list(answer)
            if any(v is Ellipsis for v in values):
                return NOT_ATTEMPTED
            if len(values) != len(expected) or not all(_is_number(v) for v in values):
                return BAD_FORM
            ok = all(abs(float(a) - float(e)) <= self.tol + 1e-12 for a, e in zip(values, expected))
            return CORRECT if ok else NOT_YET
        if not isinstance(answer, str):
            return BAD_FORM
        accepted = {_norm(a) for a in expected}
        return CORRECT if _norm(answer) in accepted else NOT_YET

    def feedback(self, answer, lang: str | None = None) -> str:
        lang = lang or get_language()
        verdict = self.grade(answer)
        if verdict == CORRECT:
            return "✅ " + term("check_correct", lang)
        if verdict == NOT_ATTEMPTED:
            return "✏️ " + term("check_not_attempted", lang)
        if verdict == BAD_FORM:
            return f"⚠️ {term('check_bad_form', lang)} {self.form[lang]}"
        return f"❌ {term('check_not_yet', lang)} {term('hint', lang)} {self.hint[lang]}"


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x))


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


class Checker:
    """The checks of one lab: ``check.<exercise name>(answer)`` prints localised feedback."""

    def __init__(self, *exercises: Exercise):
        self._exercises = {ex.name: ex for ex in exercises}

    @property
    def exercises(self) -> dict[str, Exercise]:
        return dict(self._exercises)

    def __dir__(self):
        return [*self._exercises, "exercises"]

    def __getattr__(self, name: str):
        exercises = self.__dict__.get("_exercises", {})
        if name not in exercises:
            raise AttributeError(f"no check named {name!r}; the checks are {', '.join(exercises)}")
        exercise = exercises[name]

        def check(answer=Ellipsis) -> None:
            print(exercise.feedback(answer))

        check.__doc__ = f"Check your answer to the exercise {name!r}."
        return check
