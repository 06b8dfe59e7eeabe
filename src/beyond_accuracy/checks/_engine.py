"""The engine behind the labs' checks.

An exercise is data: how to compute its expected answer *from the objects the check cell passes*
(the student's own data, model outputs and settings, so a lab rerun with another ``SEED`` or
``NOISE`` is still checked fairly), how to compare, the form an answer must have, the plausible
mistakes it recognises (each computed the same way, each with its own hint), and a generic hint.

A lab calls ``check.<name>(answer, *inputs)``; the feedback says correct, not yet (with the hint
for the recognised mistake, or the generic one), not attempted (the ``...`` placeholder is still
there) or bad form (with what the answer must look like). Feedback never contains the expected
value.

What the check object does *not* promise: ``dir(check)`` lists only the checks and the exercises
are kept out of its attributes, but the exercises (and so the expected answers) stay reachable
by Python's introspection (:func:`exercises_of`, the closures of the check functions). That is
harmless for self-study and is not what grading relies on: the grader
(``tools/teaching/grading``) runs a submission with these checks replaced by recorders that know
no answer, takes the answers out of the kernel as plain data, and judges them in its own process
with the same exercises (:meth:`Exercise.reference` once per lab, from the answer key;
:meth:`Exercise.judge` per answer).

The verdict itself (for graders and tests) comes from :func:`verdict` or :meth:`Exercise.judge`,
never from printed text.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..language import LANGUAGES, get_language, term

CORRECT, NOT_YET, NOT_ATTEMPTED, BAD_FORM = "correct", "not yet", "not attempted", "bad form"
VERDICTS = (CORRECT, NOT_YET, NOT_ATTEMPTED, BAD_FORM)
KINDS = ("number", "numbers", "choice")
_EPS = 1e-9


class Reference(NamedTuple):
    """What an answer is compared with: the ``expected`` answer and the value of every recognised
    mistake (``(key, value)``, value ``None`` where it cannot be computed), all computed from the
    same inputs. Plain data for the labs' exercises, so a grader can compute it once per lab and
    judge many answers with it (:meth:`Exercise.judge`)."""

    expected: Any
    mistakes: tuple[tuple[str, Any], ...] = ()


class Verdict(NamedTuple):
    """The outcome of grading one answer: ``status`` is one of :data:`VERDICTS`; ``reason`` names
    what was wrong with the form (``"comma"``, ``"percentage"``, ``"length"``, ``"type"``,
    ``"range"``, ``"whole"``, ``"option"``) and ``mistake`` the recognised wrong answer."""

    status: str
    reason: str | None = None
    mistake: str | None = None


@dataclass(frozen=True)
class Mistake:
    """A plausible wrong answer: ``value`` computes it from the same inputs as the expected answer,
    ``hint`` (one sentence per language) explains it without giving the right answer. The texts
    come from the catalogue: ``localised("lab1.counts.sklearn_order.hint")``."""

    key: str
    value: Callable[..., Any]
    hint: Mapping[str, str]
    about: Mapping[str, str] = field(default_factory=dict)  # what the mistake is (exercise sheet)

    def __post_init__(self):
        _require_languages(self.hint, f"mistake {self.key!r}", "hint")


@dataclass(frozen=True)
class Exercise:
    """One checked exercise.

    ``expected(*inputs)`` computes the answer from the inputs the check cell passes (never a typed
    constant, never the course's own copy of the lab). ``kind``: ``"number"`` (within ``tol``),
    ``"numbers"`` (a sequence of ``size`` numbers, element-wise within ``tol``), ``"choice"`` (one
    of ``options``, printed with the exercise; case, spaces and underscores ignored).
    ``proportion``: the answer lies in [0, 1] (so 18.52 is read as a percentage); ``whole``: the
    answer is made of whole numbers. ``order`` names the elements of a ``numbers`` answer, as
    code, for the form message. ``hint``, ``skill`` map each language to a sentence, from the
    catalogue (``localised("lab1.counts.hint")``, :mod:`beyond_accuracy.catalogue`).
    """

    name: str
    kind: str
    expected: Callable[..., Any]
    hint: Mapping[str, str]
    skill: Mapping[str, str]
    inputs: tuple[str, ...] = ()
    points: int = 1
    tol: float = 0.0
    size: int | None = None
    order: str = ""
    proportion: bool = False
    whole: bool = False
    options: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r} for exercise {self.name!r}; use one of {KINDS}")
        if self.kind == "numbers" and not (isinstance(self.size, int) and self.size >= 2):
            raise ValueError(f"exercise {self.name!r}: a 'numbers' answer needs a size of at least 2")
        if self.kind == "choice" and len(self.options) < 2:
            raise ValueError(f"exercise {self.name!r}: a 'choice' answer needs at least two options")
        if not (isinstance(self.points, int) and self.points > 0):
            raise ValueError(f"exercise {self.name!r}: points must be a positive whole number")
        if self.tol < 0:
            raise ValueError(f"exercise {self.name!r}: tol must be non-negative")
        _require_languages(self.hint, f"exercise {self.name!r}", "hint")
        _require_languages(self.skill, f"exercise {self.name!r}", "skill")
        keys = [m.key for m in self.mistakes]
        if len(set(keys)) != len(keys):
            raise ValueError(f"exercise {self.name!r}: two mistakes share a key")

    # --- grading --------------------------------------------------------------------------------

    def grade(self, answer, *inputs) -> Verdict:
        """Grade ``answer`` against the expected answer computed from ``inputs``."""
        if answer is Ellipsis:
            return Verdict(NOT_ATTEMPTED)
        values = self._form(answer)
        if isinstance(values, Verdict):
            return values
        return self._compare(values, self.reference(*inputs))

    def reference(self, *inputs) -> Reference:
        """The expected answer and the recognised mistakes' values, computed from ``inputs``."""
        mistakes = []
        for mistake in self.mistakes:
            try:
                wrong = mistake.value(*inputs)
            except (ArithmeticError, ValueError, IndexError, KeyError):
                wrong = None
            mistakes.append((mistake.key, wrong))
        return Reference(self.expected(*inputs), tuple(mistakes))

    def judge(self, answer, reference: Reference) -> Verdict:
        """Grade ``answer`` against a :class:`Reference` computed beforehand (by the grader, once
        per lab, from the answer key): the same verdict as :meth:`grade` with the inputs the
        reference came from."""
        if answer is Ellipsis:
            return Verdict(NOT_ATTEMPTED)
        values = self._form(answer)
        if isinstance(values, Verdict):
            return values
        return self._compare(values, reference)

    def _compare(self, values, reference: Reference) -> Verdict:
        if self._same(values, reference.expected):
            return Verdict(CORRECT)
        for key, wrong in reference.mistakes:
            if wrong is not None and self._same(values, wrong):
                return Verdict(NOT_YET, mistake=key)
        return Verdict(NOT_YET)

    def _form(self, answer):
        """The answer in comparable form, or the BAD_FORM / NOT_ATTEMPTED verdict."""
        answer = _scalar(answer)
        if self.kind == "choice":
            if not isinstance(answer, str):
                return Verdict(BAD_FORM, reason="type")
            key = _norm(answer)
            for option in self.options:
                if _norm(option) == key:
                    return option
            return Verdict(BAD_FORM, reason="option")
        if self.kind == "number":
            if _is_sequence(answer):
                items = list(answer)
                if len(items) == 2 and all(_is_int(v) for v in items) and not self.whole:
                    return Verdict(BAD_FORM, reason="comma")  # 0,35 is the tuple (0, 35)
                return Verdict(BAD_FORM, reason="type")
            return self._number(answer)
        # numbers
        if not _is_sequence(answer):
            return Verdict(BAD_FORM, reason="type")
        items = list(answer)
        if any(v is Ellipsis for v in items):
            return Verdict(NOT_ATTEMPTED)
        if len(items) != self.size:
            if not self.whole and len(items) > self.size and all(_is_int(v) for v in items):
                return Verdict(BAD_FORM, reason="comma")  # (0,95, 0,91) is (0, 95, 0, 91)
            return Verdict(BAD_FORM, reason="length")
        out = []
        for v in items:
            checked = self._number(v)
            if isinstance(checked, Verdict):
                return checked
            out.append(checked)
        return tuple(out)

    def _number(self, value):
        value = _scalar(value)
        if not _is_number(value):
            return Verdict(BAD_FORM, reason="type")
        x = float(value)
        if self.whole and x != round(x):
            return Verdict(BAD_FORM, reason="whole")
        if self.proportion and not -_EPS <= x <= 1 + _EPS:
            return Verdict(BAD_FORM, reason="percentage" if 1 < x <= 100 else "range")
        if self.whole and x < 0:
            return Verdict(BAD_FORM, reason="range")
        return x

    def _same(self, values, expected) -> bool:
        if self.kind == "choice":
            accepted = (expected,) if isinstance(expected, str) else tuple(expected)
            return any(_norm(values) == _norm(str(option)) for option in accepted)
        if self.kind == "number":
            return abs(values - float(expected)) <= self.tol + _EPS
        expected = [float(e) for e in expected]
        return len(expected) == len(values) and all(
            abs(a - e) <= self.tol + _EPS for a, e in zip(values, expected)
        )

    # --- feedback ---------------------------------------------------------------------------------

    def form_text(self, lang: str) -> str:
        """What an answer must look like, in ``lang`` (always with the decimal-point rule)."""
        if self.kind == "choice":
            listed = ", ".join(f'"{o}"' for o in self.options)
            return term("check_form_choice", lang).format(options=listed)
        if self.kind == "numbers":
            text = term("check_form_whole_numbers" if self.whole else "check_form_numbers", lang)
            return text.format(n=self.size, order=self.order)
        if self.whole:
            return term("check_form_whole", lang)
        return term("check_form_proportion" if self.proportion else "check_form_number", lang)

    def message(self, result: Verdict, lang: str) -> str:
        if result.status == CORRECT:
            return "✅ " + term("check_correct", lang)
        if result.status == NOT_ATTEMPTED:
            return "✏️ " + term("check_not_attempted", lang)
        if result.status == BAD_FORM:
            parts = [term("check_bad_form", lang), self.form_text(lang)]
            if result.reason in ("comma", "percentage", "length", "option", "whole"):
                parts.append(term(f"check_reason_{result.reason}", lang))
            parts.append(term("check_decimal_point", lang))
            return "⚠️ " + " ".join(parts)
        hint = self.hint[lang]
        for mistake in self.mistakes:
            if mistake.key == result.mistake:
                hint = mistake.hint[lang]
        return f"❌ {term('check_not_yet', lang)} {term('hint', lang)} {hint}"

    def feedback(self, answer, *inputs, lang: str | None = None) -> str:
        return self.message(self.grade(answer, *inputs), lang or get_language())


def _require_languages(texts: Mapping[str, str], owner: str, what: str) -> None:
    missing = [lang for lang in LANGUAGES if not texts.get(lang)]
    if missing:
        raise ValueError(f"{owner} lacks a {what} in {missing}")


def _scalar(x):
    """A zero-dimensional array (``np.array(0.18)``, ``np.sum(...)`` of an array) as its one value."""
    if getattr(x, "shape", None) == () and hasattr(x, "item") and not isinstance(x, (str, bytes)):
        try:
            return x.item()
        except (TypeError, ValueError):
            return x
    return x


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x))


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _is_sequence(x) -> bool:
    if isinstance(x, (str, bytes, Mapping, set, frozenset)):
        return False
    shape = getattr(x, "shape", None)
    if shape is not None and len(shape) != 1:
        return False
    return hasattr(x, "__len__") and hasattr(x, "__iter__")


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("_", " ").replace("-", " ").split())


class Checker:
    """The checks of one lab: ``check.<name>(answer, *inputs)`` prints localised feedback.

    Only the check functions are public; the exercises (and so their expected answers) are kept
    out of the object's attributes and of tab completion.
    """

    __slots__ = ("__registry",)

    def __init__(self, *exercises: Exercise):
        names = [ex.name for ex in exercises]
        if len(set(names)) != len(names):
            raise ValueError(f"two exercises share a name: {names}")
        object.__setattr__(self, "_Checker__registry", {ex.name: ex for ex in exercises})

    def __dir__(self):
        return sorted(self.__registry)

    def __repr__(self):
        return f"<checks: {', '.join(self.__registry)}>"

    def __setattr__(self, name, value):
        raise AttributeError("the checks cannot be changed")

    def __getattr__(self, name: str):
        registry = object.__getattribute__(self, "_Checker__registry")
        if name not in registry:
            raise AttributeError(f"no check named {name!r}; the checks are {', '.join(registry)}")
        return _check_function(registry[name])


def _check_function(exercise: Exercise):
    def check(answer=Ellipsis, *inputs) -> None:
        print(exercise.feedback(answer, *inputs))

    check.__name__ = check.__qualname__ = exercise.name
    check.__doc__ = f"Check your answer to the exercise {exercise.name!r}: run the cell as it is."
    return check


def exercises_of(checker: Checker) -> dict[str, Exercise]:
    """The exercises behind a lab's checks (for the course's tools: grader, sheet, tests)."""
    if not isinstance(checker, Checker):
        raise ValueError(f"expected a lab's check object, got {type(checker).__name__}")
    return dict(object.__getattribute__(checker, "_Checker__registry"))


def verdict(checker: Checker, name: str, answer, *inputs, lang: str | None = None) -> dict:
    """Grade one answer without printing: ``{"exercise", "status", "reason", "mistake",
    "points", "max_points", "message"}``. What graders and tests read instead of printed text."""
    registry = exercises_of(checker)
    if name not in registry:
        raise ValueError(f"no exercise named {name!r}; the exercises are {', '.join(registry)}")
    exercise = registry[name]
    result = exercise.grade(answer, *inputs)
    return {
        "exercise": name,
        "status": result.status,
        "reason": result.reason,
        "mistake": result.mistake,
        "points": exercise.points if result.status == CORRECT else 0,
        "max_points": exercise.points,
        "message": exercise.message(result, lang or get_language()),
    }
