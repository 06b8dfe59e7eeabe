"""The engine behind the labs' checks.

An exercise is data: how to compute its expected answer *from the objects the check cell passes*
(the student's own data, model outputs and settings, so a lab rerun with another ``SEED`` or
``NOISE`` is still checked fairly), the precision its prompt states, the form an answer must have,
the plausible mistakes it recognises (each computed the same way, each with its own hint), a
generic hint, and the effort it asks for (which sets its points).

A lab calls ``check.<name>(answer, *inputs)``; the feedback says correct, not yet (with the hint
for the recognised mistake, or the generic one), not attempted (the ``...`` placeholder is still
there) or bad form (with what the answer must look like). Feedback never contains the expected
value.

**One tolerance rule** (:func:`within`), for every number of every exercise: the prompt states how
many ``decimals`` it wants, and an answer is right when it is the exact value rounded *or
truncated* to that many decimals, or any value closer to it (more decimals). A count (``whole``)
must be exact. The same rule recognises a mistake, and a percentage (100 times a value the
exercise or one of its mistakes has).

**One scale of points** (:data:`EFFORT_POINTS`): an exercise states its ``effort`` (``"read"`` a
result off a printed table, ``"compute"`` it in code, ``"derive"`` it by hand from a formula)
and its points follow; the grader and the exercise sheet read :attr:`Exercise.points`.

**What is and is not protected.** The check object and its functions hold no exercise:
``dir(check)`` lists the checks' names, ``check.<name>`` is a function whose closure holds two
strings (the key of its lab's exercises and the exercise's name), and the object has no attribute
that leads to an exercise (``check.counts.__closure__``, ``check._Checker__registry`` and the
former ``exercises_of(check)`` give nothing). The exercises are found at call time in this
module's private table. That is *not* a secret, and it is not meant to be one: the check in the
student's notebook must compute the expected value from the student's inputs, so the code that
computes it is installed in that kernel, reachable from it by Python's introspection
(``check.counts.__globals__`` is this module; ``beyond_accuracy.checks.lab1.counts.expected(...)``
and :func:`lab_exercises` are public), and readable in the package's open source. The in-notebook checks are for learning.
Grading does not rely on them: the grader (``tools/teaching/grading``) runs a submission with
these checks replaced by recorders that know no answer (and this module replaced by one without
exercises), takes the answers out of the kernel as plain data, and judges them in its own process
with the same exercises (:meth:`Exercise.reference` once per lab, from the answer key;
:meth:`Exercise.judge` per answer).

The verdict itself (for graders and tests) comes from :func:`verdict` or :meth:`Exercise.judge`,
never from printed text.
"""

from __future__ import annotations

import importlib
import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..language import LANGUAGES, fmt, get_language, term

CORRECT, NOT_YET, NOT_ATTEMPTED, BAD_FORM = "correct", "not yet", "not attempted", "bad form"
VERDICTS = (CORRECT, NOT_YET, NOT_ATTEMPTED, BAD_FORM)
KINDS = ("number", "numbers", "choice")
# What an exercise asks for, and what it is worth: reading a winner off a printed table is worth
# less than coding a computation, which is worth less than working a formula through by hand.
EFFORT_POINTS = {"read": 1, "compute": 2, "derive": 3}
_EPS = 1e-9
_DECIMAL_COMMA = re.compile(r"\s*[-+]?\d+,\d+\s*%?\s*")


def within(answer: float, exact: float, decimals: int | None) -> bool:
    """The tolerance rule of every check: ``answer`` stands for ``exact`` when it is ``exact``
    rounded or truncated to ``decimals`` decimals, or closer to it than half a unit of the last
    stated decimal; with ``decimals=None`` (a count) it must be equal."""
    answer, exact = float(answer), float(exact)
    if decimals is None:
        return abs(answer - exact) <= _EPS * max(1.0, abs(exact))
    step = 10.0**-decimals
    if abs(answer - exact) <= step / 2 + _EPS:
        return True
    cut = math.trunc(exact / step + math.copysign(1e-6, exact)) * step  # towards zero
    return abs(answer - cut) <= _EPS


class Reference(NamedTuple):
    """What an answer is compared with: the ``expected`` answer and the value of every recognised
    mistake (``(key, value)``, value ``None`` where it cannot be computed), all computed from the
    same inputs. Plain data for the labs' exercises, so a grader can compute it once per lab and
    judge many answers with it (:meth:`Exercise.judge`)."""

    expected: Any
    mistakes: tuple[tuple[str, Any], ...] = ()


class Verdict(NamedTuple):
    """The outcome of grading one answer: ``status`` is one of :data:`VERDICTS`; ``reason`` names
    what was wrong with the form (``"comma"``, ``"percentage"``, ``"hundredfold"``, ``"length"``,
    ``"type"``, ``"range"``, ``"whole"``, ``"option"``) and ``mistake`` the recognised wrong
    answer."""

    status: str
    reason: str | None = None
    mistake: str | None = None


@dataclass(frozen=True)
class Mistake:
    """A plausible wrong answer: ``value`` computes it from the same inputs as the expected answer,
    ``hint`` (one sentence per language) explains it without giving the right answer. The texts
    come from the catalogue: ``localised("lab1.counts.sklearn_order.hint")``. A mistake's value
    may lie outside the answer's range (a count where a share is asked, a row position where a
    threshold is asked): it is recognised before the range is checked."""

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
    constant, never the course's own copy of the lab). ``kind``: ``"number"``, ``"numbers"`` (a
    sequence of ``size`` numbers, element-wise), ``"choice"`` (one of ``options``, printed with
    the exercise; case, spaces and underscores ignored). ``decimals``: the precision the lab's
    prompt states, judged by :func:`within` (``None``: exact, for counts). ``proportion``: the
    answer lies in [0, 1]; ``bounds``: another range (a kappa lies in [-1, 1]); 100 times a value
    of the exercise is read as a percentage. ``whole``: the answer is made of whole numbers.
    ``order`` names the elements of a ``numbers`` answer, as code, for the form message. ``effort``
    (a key of :data:`EFFORT_POINTS`) sets the points. ``hint``, ``skill`` map each language to a
    sentence, from the catalogue (``localised("lab1.counts.hint")``,
    :mod:`beyond_accuracy.catalogue`).
    """

    name: str
    kind: str
    expected: Callable[..., Any]
    hint: Mapping[str, str]
    skill: Mapping[str, str]
    inputs: tuple[str, ...] = ()
    effort: str = "read"
    decimals: int | None = None
    size: int | None = None
    order: str = ""
    proportion: bool = False
    bounds: tuple[float, float] | None = None
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
        if self.effort not in EFFORT_POINTS:
            raise ValueError(f"exercise {self.name!r}: effort must be one of {tuple(EFFORT_POINTS)}")
        if self.decimals is not None and not (isinstance(self.decimals, int) and 0 <= self.decimals <= 6):
            raise ValueError(f"exercise {self.name!r}: decimals must be a whole number from 0 to 6, or None")
        if self.whole and self.decimals is not None:
            raise ValueError(f"exercise {self.name!r}: a count is exact; it takes no decimals")
        if self.bounds is not None and not (len(self.bounds) == 2 and self.bounds[0] < self.bounds[1]):
            raise ValueError(f"exercise {self.name!r}: bounds must be (low, high) with low < high")
        _require_languages(self.hint, f"exercise {self.name!r}", "hint")
        _require_languages(self.skill, f"exercise {self.name!r}", "skill")
        keys = [m.key for m in self.mistakes]
        if len(set(keys)) != len(keys):
            raise ValueError(f"exercise {self.name!r}: two mistakes share a key")

    @property
    def points(self) -> int:
        """What the exercise is worth: :data:`EFFORT_POINTS` of its ``effort``."""
        return EFFORT_POINTS[self.effort]

    @property
    def range(self) -> tuple[float, float] | None:
        if self.proportion:
            return (0.0, 1.0)
        if self.bounds is not None:
            return (float(self.bounds[0]), float(self.bounds[1]))
        if self.whole:
            return (0.0, math.inf)
        return None

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
        if self._distance(values, reference.expected) is not None:
            return Verdict(CORRECT)
        found = []  # every recognised mistake the answer stands for, with how close it is
        for key, wrong in reference.mistakes:
            if wrong is not None:
                distance = self._distance(values, wrong)
                if distance is not None:
                    found.append((distance, key))
        if found:
            return Verdict(NOT_YET, mistake=min(found)[1])  # two mistakes close together: the nearer
        outside = self._outside(values)
        if outside:
            return Verdict(BAD_FORM, reason=self._range_reason(values, reference))
        return Verdict(NOT_YET)

    def _outside(self, values) -> bool:
        bounds = self.range
        if self.kind == "choice" or bounds is None:
            return False
        items = values if self.kind == "numbers" else (values,)
        return any(not bounds[0] - _EPS <= x <= bounds[1] + _EPS for x in items)

    def _range_reason(self, values, reference: Reference) -> str:
        """``"percentage"`` (or ``"hundredfold"`` for a range that is not [0, 1]) when the answer
        is 100 times the expected answer or a recognised mistake; else ``"range"``."""
        scaled = tuple(x / 100 for x in values) if self.kind == "numbers" else values / 100
        candidates = [reference.expected] + [w for _, w in reference.mistakes if w is not None]
        if any(self._distance(scaled, c) is not None for c in candidates):
            return "percentage" if self.proportion else "hundredfold"
        return "range"

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
                if len(items) == 1:  # [0.18], np.array([0.18]): the one number asked for
                    return (
                        self._form(items[0])
                        if not _is_sequence(_scalar(items[0]))
                        else Verdict(BAD_FORM, reason="type")
                    )
                if len(items) == 2 and all(_is_int(v) for v in items) and not self.whole:
                    return Verdict(BAD_FORM, reason="comma")  # 0,35 is the tuple (0, 35)
                return Verdict(BAD_FORM, reason="type")
            return self._number(answer)
        # numbers
        if not _is_sequence(answer):
            if isinstance(answer, str) and not self.whole and answer.count(",") > self.size - 1:
                return Verdict(BAD_FORM, reason="comma")
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
        if isinstance(value, str) and not self.whole and _DECIMAL_COMMA.fullmatch(value):
            return Verdict(BAD_FORM, reason="comma")  # "0,35": a decimal comma, in quotes
        if not _is_number(value):
            return Verdict(BAD_FORM, reason="type")
        x = float(value)
        if self.whole and x != round(x):
            return Verdict(BAD_FORM, reason="whole")
        return x

    def _distance(self, values, expected) -> float | None:
        """How far ``values`` is from ``expected`` when it stands for it (:func:`within`), else
        ``None``."""
        if self.kind == "choice":
            accepted = (expected,) if isinstance(expected, str) else tuple(expected)
            return 0.0 if any(_norm(values) == _norm(str(option)) for option in accepted) else None
        if self.kind == "number":
            expected = _scalar(expected)
            if _is_sequence(expected) or not _is_number(expected):
                return None
            return abs(values - float(expected)) if within(values, expected, self.decimals) else None
        try:
            expected = [float(e) for e in expected]
        except (TypeError, ValueError):
            return None
        if len(expected) != len(values) or not all(
            within(a, e, self.decimals) for a, e in zip(values, expected)
        ):
            return None
        return max(abs(a - e) for a, e in zip(values, expected))

    # --- feedback ---------------------------------------------------------------------------------

    def form_text(self, lang: str) -> str:
        """What an answer must look like, in ``lang``."""
        if self.kind == "choice":
            listed = ", ".join(f'"{o}"' for o in self.options)
            return term("check_form_choice", lang).format(options=listed)
        if self.kind == "numbers":
            text = term("check_form_whole_numbers" if self.whole else "check_form_numbers", lang)
            return text.format(n=self.size, order=self.order)
        if self.whole:
            return term("check_form_whole", lang)
        if self.proportion:
            return term("check_form_proportion", lang)
        if self.bounds is not None:
            low, high = (fmt(b, 0 if float(b).is_integer() else 3, lang=lang) for b in self.bounds)
            return term("check_form_between", lang).format(low=low, high=high)
        return term("check_form_number", lang)

    def message(self, result: Verdict, lang: str) -> str:
        if result.status == CORRECT:
            return "✅ " + term("check_correct", lang)
        if result.status == NOT_ATTEMPTED:
            return "✏️ " + term("check_not_attempted", lang)
        if result.status == BAD_FORM:
            parts = [term("check_bad_form", lang), self.form_text(lang)]
            if result.reason in ("comma", "percentage", "hundredfold", "length", "option", "whole"):
                parts.append(term(f"check_reason_{result.reason}", lang))
            if result.reason == "comma":  # only where the answer had a decimal comma
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


# The exercises behind every Checker, by a key the Checker holds (see the module's
# docstring: kept off the check object's attributes, not secret).
_TABLE: dict[str, dict[str, Exercise]] = {}


class Checker:
    """The checks of one lab: ``check.<name>(answer, *inputs)`` prints localised feedback.

    Only the check functions are public; the object holds a key and the exercises'
    names, nothing that leads to an exercise (see the module's docstring for what that does and
    does not protect).
    """

    __slots__ = ("__lab", "__names")

    def __init__(self, *exercises: Exercise):
        names = [ex.name for ex in exercises]
        if len(set(names)) != len(names):
            raise ValueError(f"two exercises share a name: {names}")
        key = f"checker {len(_TABLE)}"
        _TABLE[key] = {ex.name: ex for ex in exercises}
        object.__setattr__(self, "_Checker__lab", key)
        object.__setattr__(self, "_Checker__names", tuple(names))

    def __dir__(self):
        return sorted(self.__names)

    def __repr__(self):
        return f"<checks: {', '.join(self.__names)}>"

    def __setattr__(self, name, value):
        raise AttributeError("the checks cannot be changed")

    def __getattr__(self, name: str):
        names = object.__getattribute__(self, "_Checker__names")
        if name not in names:
            raise AttributeError(f"no check named {name!r}; the checks are {', '.join(names)}")
        return _check_function(object.__getattribute__(self, "_Checker__lab"), name)


def _check_function(key: str, name: str):
    def check(answer=Ellipsis, *inputs) -> None:
        print(_TABLE[key][name].feedback(answer, *inputs))

    check.__name__ = check.__qualname__ = name
    check.__doc__ = f"Check your answer to the exercise {name!r}: run the cell as it is."
    return check


def _exercises(checker: Checker) -> dict[str, Exercise]:
    if not isinstance(checker, Checker):
        raise ValueError(f"expected a lab's check object, got {type(checker).__name__}")
    return dict(_TABLE[object.__getattribute__(checker, "_Checker__lab")])


def lab_exercises(lab: int) -> dict[str, Exercise]:
    """The exercises of lab ``lab`` (1 to 5), by name, in the lab's order: the course's tools'
    import (grader, exercise sheet, tests)."""
    if not (isinstance(lab, numbers.Integral) and 1 <= int(lab) <= 5):
        raise ValueError(f"lab must be a whole number from 1 to 5, got {lab!r}")
    module = importlib.import_module(f"{__package__}.lab{int(lab)}")
    return _exercises(module.check)


def verdict(checker: Checker, name: str, answer, *inputs, lang: str | None = None) -> dict:
    """Grade one answer without printing: ``{"exercise", "status", "reason", "mistake",
    "points", "max_points", "message"}``. What graders and tests read instead of printed text."""
    registry = _exercises(checker)
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
