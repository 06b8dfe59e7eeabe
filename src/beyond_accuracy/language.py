"""The course language: which one is active, localised numbers and terms.

One process speaks one language at a time. ``set_language("it")`` in a notebook's first cell makes
figures, check feedback and :func:`fmt` speak Italian for the rest of the notebook.
"""

from __future__ import annotations

import math
import numbers

LANGUAGES = ("en", "it", "es", "pt", "fi")

# Decimal mark, thousands separator and how a percent sign is attached, per language: the one
# number style of each language, which the typography rules (tools/language/typography.py) apply to
# hand-written numbers too. Spanish and Finnish put a no-break space before "%" (RAE, Kielitoimisto);
# Spanish groups thousands with a no-break space, as RAE and ISO 80000 ask of technical text
# ("100 000", never "100.000", which other Spanish-speaking countries read as 100), and only from five
# digits on ("2000"); Finnish groups with a no-break space from four digits on ("1 000").
_NBSP = "\u00a0"
_NUMBER_STYLE = {
    "en": {"decimal": ".", "group": ",", "percent": "%", "min_group": 4, "minus": "-"},
    "it": {"decimal": ",", "group": ".", "percent": "%", "min_group": 4, "minus": "-"},
    "es": {"decimal": ",", "group": _NBSP, "percent": _NBSP + "%", "min_group": 5, "minus": "-"},
    "pt": {"decimal": ",", "group": ".", "percent": "%", "min_group": 4, "minus": "-"},
    "fi": {"decimal": ",", "group": _NBSP, "percent": _NBSP + "%", "min_group": 4, "minus": "\u2212"},
}

_state = {"lang": "en"}


def _check_language(lang) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def set_language(lang: str) -> None:
    """Make ``lang`` (one of ``en it es pt fi``) the language of numbers, terms and figures."""
    _state["lang"] = _check_language(lang)
    _describe_figures_in_ipython()


def _describe_figures_in_ipython() -> None:
    """In a notebook, a matplotlib figure's plain-text form (what the notebook stores beside its
    image, and what the site uses as the image's alt text) says what the figure shows, from its own
    texts, in the active language (:func:`beyond_accuracy.plots.describe_figure`), instead of
    ``<Figure size 640x480 with 1 Axes>``. Registered by type name (matplotlib is not imported) with
    IPython's mime-bundle formatter, whose text/plain wins over the plain-text formatter's default,
    and which the inline backend leaves alone (it clears the figure's per-format printers when it
    starts)."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    bundle = shell.display_formatter.mimebundle_formatter
    bundle.for_type_by_name("matplotlib.figure", "Figure", _figure_bundle)


def _figure_bundle(figure) -> dict:
    from .plots import describe_figure

    return {"text/plain": describe_figure(figure)}


def get_language() -> str:
    """The active language code."""
    return _state["lang"]


def fmt(x, digits: int = 3, percent: bool = False, lang: str | None = None) -> str:
    """Format a number the way the active language writes it.

    ``fmt(0.7368)`` is ``"0.737"`` in English and ``"0,737"`` in Italian; ``percent=True``
    multiplies by 100 and adds the language's percent sign (``fmt(0.25, 1, percent=True)`` is
    ``"25.0%"`` in English, ``"25,0 %"`` in Finnish). Integers of four or more digits are grouped
    by thousands as the language does (``1,000`` / ``1.000`` / ``1 000``; Spanish from five digits
    on, ``10 000``, with a no-break space).
    """
    lang = _check_language(lang or get_language())
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"fmt expects a real number, got {type(x).__name__}: {x!r}")
    if not isinstance(digits, numbers.Integral) or digits < 0:
        raise ValueError(f"digits must be a non-negative integer, got {digits!r}")
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise ValueError(f"fmt expects a finite number, got {x}")
    style = _NUMBER_STYLE[lang]
    value = x * 100 if percent else x
    text = f"{abs(value):.{digits}f}"
    if text.strip("0.") == "":  # never write "-0.000"
        value = 0.0
    whole, _, frac = text.partition(".")
    if len(whole) >= style["min_group"]:
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = style["group"].join(groups)
    out = whole + (style["decimal"] + frac if frac else "")
    if value < 0:
        out = style["minus"] + out
    return out + (style["percent"] if percent else "")


def definition(key: str, lang: str | None = None) -> str:
    """A one- or two-sentence definition of the glossary term ``key`` in the active language
    (the row ``glossary.<key>`` of the catalogue)."""
    from . import catalogue

    lang = _check_language(lang or get_language())
    if f"glossary.{key}" not in catalogue.keys("glossary."):
        raise ValueError(f"no definition for {key!r}; the glossary terms are the rows of kind 'term'")
    return catalogue.text(f"glossary.{key}", lang)


def terms_table():
    """The terminology table (data/strings/terms.csv) as a DataFrame (one row per key; columns
    kind, en, it, es, pt, fi, note)."""
    import pandas as pd

    from . import catalogue

    return pd.DataFrame(list(catalogue.tables()["terms"].values())).set_index("key")


def term(key: str, lang: str | None = None) -> str:
    """The term ``key`` in the active language (or ``lang``): a row of the course's catalogue
    (:mod:`beyond_accuracy.catalogue`), usually of its terminology table, terms.csv."""
    from . import catalogue

    lang = _check_language(lang or get_language())
    try:
        return catalogue.text(key, lang)
    except ValueError:
        raise ValueError(f"unknown term {key!r}; see beyond_accuracy.terms_table() for the keys") from None


def quotes(lang: str | None = None) -> str:
    """The quotation marks of ``lang``: primary opening and closing, secondary opening and closing
    (``"«»‘’"`` in Italian), from the catalogue's ``typography.quotes``."""
    from . import catalogue

    marks = catalogue.text("typography.quotes", _check_language(lang or get_language()))
    if len(marks) != 4:
        raise ValueError(f"typography.quotes must hold four marks in every language, got {marks!r}")
    return marks


# The MIME prefix myst-nb gives hidden glued outputs (``myst_nb.glue(..., display=False)``).
_GLUE_PREFIX = "application/papermill.record/"

# A glued number's raw value is stored with this many decimals more than it is printed with: enough
# for the tests to compare the languages and to write the number again, few enough that the last
# bits that differ between machines, BLAS kernels and solvers' paths (measured: 1e-16 to 1e-8
# relative) do not change the stored notebook when it is executed again elsewhere.
RAW_EXTRA_DIGITS = 3
# How close to a rounding boundary a printed number may lie before floating-point noise could flip
# its last digit (relative): see tests/test_stable_outputs.py.
EDGE_MARGIN = 1e-9


def _on_rounding_edge(x: float, digits: int, percent: bool) -> bool:
    """True if ``x`` written with ``digits`` decimals (as a percentage if ``percent``) lies so close
    to a rounding boundary that noise in its last bits could change the written digits; an exact
    decimal tie (the float nearest to ...5, which a ratio of counts gives and model noise
    practically never does) is not on an edge."""
    x = x * (100 if percent else 1)
    scaled = abs(x) * 10**digits
    margin = abs(scaled - math.floor(scaled) - 0.5) / 10**digits
    exact_tie = abs(x) == abs(float(f"{x:.{digits + 1}f}")) and f"{x:.{digits + 1}f}".endswith("5")
    return margin < EDGE_MARGIN * max(1.0, abs(x)) and not exact_tie


def _stored_raw(x: float, digits: int, percent: bool) -> float:
    """The raw value glue stores: ``x`` rounded to RAW_EXTRA_DIGITS decimals more than written,
    unless ``x`` is on a rounding edge (kept whole, so that the tests see it) or the rounded value
    would be written otherwise than ``x``."""
    rounded = round(x, digits + (2 if percent else 0) + RAW_EXTRA_DIGITS)
    if _on_rounding_edge(x, digits, percent) or fmt(rounded, digits, percent, "en") != fmt(
        x, digits, percent, "en"
    ):
        return x
    return rounded


def glue(name: str, value, digits: int = 3, percent: bool = False) -> None:
    """Store ``value`` under ``name`` for the prose (``{glue:text}`name```), formatted with
    :func:`fmt` for the active language; strings are stored as they are.

    Writes the same hidden output as ``myst_nb.glue(name, text, display=False)`` without needing
    myst-nb (so notebooks also run in Colab), and records the raw number in the output's metadata,
    rounded to three decimals more than written (RAW_EXTRA_DIGITS), so tests can check that every
    language glued the same value. Shows nothing in the notebook.
    """
    from IPython.display import display

    if not isinstance(name, str) or not name:
        raise ValueError("glue needs a non-empty name")
    raw = None
    if isinstance(value, str):
        text = value
    else:
        if isinstance(value, numbers.Integral) and not isinstance(value, bool) and not percent:
            digits = 0
        text = fmt(value, digits=digits, percent=percent)
        raw = _stored_raw(float(value), digits, percent)
    metadata = {
        "scrapbook": {"name": name, "mime_prefix": _GLUE_PREFIX},
        "beyond_accuracy": {"raw": raw, "digits": digits, "percent": percent, "lang": get_language()},
    }
    display({_GLUE_PREFIX + "text/plain": repr(text)}, raw=True, metadata=metadata)
