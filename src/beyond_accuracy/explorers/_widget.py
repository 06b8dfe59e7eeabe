"""BrowserWidget: one ES module that renders an explorer on the static page and in a notebook.

A widget exports DATA only (a JSON dict with everything its module needs, including the labels in
the notebook's language and the number style); the metrics the reader sees are computed by the
module's JavaScript. In Jupyter or Colab the widget is an anywidget; on the book's static page
the stored ``text/html`` output (the same JSON in a ``.ba-widget`` element) is rendered by
``js/loader.js`` with the same module. The bundle of a module is ``js/core.js`` followed by
``js/<name>.js`` (anywidget loads one string, so the module cannot import core.js).
"""

from __future__ import annotations

import html
import json
import numbers
from functools import cache
from importlib import resources

import anywidget
import numpy as np
import traitlets

from ..language import _NUMBER_STYLE, _check_language, get_language, term

# Explorer modules are the files of js/ other than these two.
_LIBRARY = ("core", "loader")


def _js(name: str) -> str:
    return resources.files("beyond_accuracy").joinpath(f"explorers/js/{name}.js").read_text(encoding="utf-8")


def modules() -> list[str]:
    """The names of the explorer modules (js/<name>.js, without core.js and loader.js)."""
    folder = resources.files("beyond_accuracy").joinpath("explorers/js")
    names = sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".js"))
    return [n for n in names if n not in _LIBRARY]


@cache
def esm(name: str) -> str:
    """The bundle of module ``name``: core.js, a newline, then js/<name>.js (the text anywidget
    loads as ``_esm`` and the Sphinx extension writes to _static/explorers/<name>.js)."""
    if name not in modules():
        raise ValueError(f"unknown explorer module {name!r}; the modules are {', '.join(modules())}")
    return _js("core") + "\n" + _js(name)


def loader() -> str:
    """The static page's loader (js/loader.js)."""
    return _js("loader")


def rounded_keeping_sides(values, points, digits: int = 6) -> list:
    """A 1-D array of floats as a JSON-ready list, each rounded to ``digits`` decimals but kept on
    its side of every number in ``points`` (below it, equal to it or above it): a decision at any
    of those points (a slider's threshold, a bin edge) is the same for the exported value as for
    the value itself. A value that rounding would carry across a point is rounded towards its
    own side instead; one that no rounding to ``digits``, ``digits + 3`` or ``digits + 6``
    decimals keeps in place (a value equal to 1/3, an edge) is exported in full.

    Unlike the full ``repr``, the export does not carry the last bits of a model's arithmetic,
    which differ between machines (BLAS kernels), so a stored notebook output stays the same."""
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1 or not np.isfinite(arr).all():
        raise ValueError("expected a 1-D sequence of finite numbers")
    points = np.unique(np.asarray(points, dtype=float))

    def cells(x):  # equal cells: the same side of every point (left != right: on a point)
        return np.searchsorted(points, x, side="left"), np.searchsorted(points, x, side="right")

    left, right = cells(arr)
    out = arr.copy()
    todo = np.ones(arr.shape, dtype=bool)
    for d in (digits, digits + 3, digits + 6):
        scale = 10.0**d
        near = np.round(arr[todo], d)
        l_near, r_near = cells(near)
        moved = (l_near != left[todo]) | (r_near != right[todo])
        towards = np.where(near > arr[todo], np.floor(arr[todo] * scale), np.ceil(arr[todo] * scale))
        candidate = np.where(moved, np.round(towards / scale, d), near)
        l_c, r_c = cells(candidate)
        kept = (l_c == left[todo]) & (r_c == right[todo])
        index = np.flatnonzero(todo)
        out[index[kept]] = candidate[kept]
        todo[index[kept]] = False
        if not todo.any():
            break
    return [_clean(x) for x in out.tolist()]


def rounded(values, digits: int = 6) -> list:
    """A 1-D sequence of numbers as a JSON-ready list rounded to ``digits`` decimals (ints stay ints)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D sequence of numbers, got shape {arr.shape}")
    if arr.dtype.kind in "biu":
        return [int(x) for x in arr.tolist()]
    if arr.dtype.kind != "f":
        raise ValueError(f"expected numbers, got values of type {arr.dtype}")
    if not np.isfinite(arr).all():
        raise ValueError("expected finite numbers")
    return [_clean(round(float(x), digits)) for x in arr.tolist()]


def _clean(x: float):
    """-0.0 as 0.0, and whole floats kept as floats (JSON 1.0 is 1.0)."""
    return 0.0 if x == 0 else x


# The explorers name a metric with a short label of their own (ex_* rows of the catalogue's
# terms.csv), not with the glossary's headword, which carries a gloss ("recall (sensibilità)",
# "F1-luku (F1 score)"): {the key a module reads: the catalogue key of its text}.
SHORT_LABELS = {
    "precision": "ex_precision",
    "recall": "ex_recall",
    "f1": "ex_f1",
    "f2_score": "ex_f2",
    "mcc": "ex_mcc",
    "sensitivity": "ex_sensitivity",
    "specificity": "ex_specificity",
    "prevalence": "ex_prevalence",
    "ppv": "ex_ppv",
    "npv": "ex_npv",
    "accuracy": "ex_accuracy",
    "weighted_kappa": "ex_qwk",
    "brier_score": "ex_brier",
    "reliability_diagram": "ex_reliability_diagram",
}


def counted(key: str, n: int, lang: str, shown: str | None = None, **values) -> str:
    """A count with its noun in ``lang``: the term ``<key>_one`` when ``n`` is 1, else
    ``<key>_other`` ("1 decision changed", "2 decisions changed"), with ``{n}`` filled in by
    ``shown`` (the formatted number; ``n`` itself by default) and the other ``values``.
    js/core.js (baCounted) chooses the same way."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"a count must be a whole number, got {n!r}")
    form = "one" if n == 1 else "other"
    return term(f"{key}_{form}", lang).format(n=str(n) if shown is None else shown, **values)


def labels(keys, lang: str) -> dict[str, str]:
    """{key: its text in ``lang``} for the label keys a module uses (a metric's short label,
    :data:`SHORT_LABELS`, where it has one)."""
    return {key: term(SHORT_LABELS.get(key, key), lang) for key in keys}


def number_style(lang: str) -> dict:
    """The number style of ``lang`` (decimal mark, grouping, percent, minus), as fmt uses it."""
    return dict(_NUMBER_STYLE[_check_language(lang)])


def _script_json(obj) -> str:
    """JSON safe inside <script>: no "</script>" or "<!--" can appear."""
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class BrowserWidget(anywidget.AnyWidget):
    """Base class of the explorers and quizzes: ``module`` names js/<module>.js.

    Subclasses build ``data`` (a JSON-serialisable dict) and a localised ``text_summary()`` shown where
    JavaScript does not run. Traits synced with the front end: ``data``, ``lang`` and ``state`` (the
    module writes the reader's current control values into ``state``).
    """

    module: str = ""
    data = traitlets.Dict().tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # ipywidgets' add_traits subclasses the class again, with _esm as a trait: keep that one
        if cls.module and "_esm" not in cls.__dict__:
            cls._esm = esm(cls.module)

    def __init__(self, data: dict, lang: str | None = None, **kwargs):
        if not self.module:
            raise ValueError("BrowserWidget is a base class: use one of the explorers")
        lang = _check_language(lang or get_language())
        if not isinstance(data, dict):
            raise ValueError("data must be a dict")
        data = {**data, "number_style": number_style(lang)}
        _script_json(data)  # JSON-serialisable and finite, or ValueError/TypeError now, not in the page
        super().__init__(data=data, lang=lang, **kwargs)

    def export(self) -> dict:
        """What the static page receives: {"data": ..., "lang": ...}."""
        return {"data": self.data, "lang": self.lang}

    def text_summary(self) -> str:
        """A short localised text of what the explorer shows (for readers without JavaScript)."""
        return ""

    def to_html(self) -> str:
        """The static page's element: the module name, the JSON and the text summary."""
        return (
            f'<div class="ba-widget" data-module="{self.module}" lang="{self.lang}">'
            f'<script type="application/json">{_script_json(self.export())}</script>'
            f'<div class="ba-fallback"><p>{html.escape(self.text_summary())}</p></div></div>'
        )

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple):  # (data, metadata)
            data, metadata = bundle
        else:
            data, metadata = bundle, {}
        data = dict(data or {})
        data["text/plain"] = self.text_summary() or type(self).__name__
        data["text/html"] = self.to_html()
        return data, metadata

    def _display_bundle(self, **kwargs):
        """Display the bundle of :meth:`_repr_mimebundle_` (the widget's view, the text summary
        and the static page's HTML), then let the widget know it was displayed."""
        from IPython.display import display

        data, metadata = self._repr_mimebundle_(**kwargs)
        display(data, metadata=metadata, raw=True)
        handle_displayed = getattr(self, "_handle_displayed", None)
        if handle_displayed is not None:
            handle_displayed(**kwargs)

    # ipywidgets 7 (Colab's) displays a widget with Widget._ipython_display_, which IPython calls
    # instead of _repr_mimebundle_: its output would be "<...Explorer object at 0x...>" and the
    # widget view, without the summary and the HTML. There, display the same bundle as under
    # ipywidgets 8, which has no _ipython_display_ (and whose outputs stay execute_result).
    if callable(getattr(anywidget.AnyWidget, "_ipython_display_", None)):
        _ipython_display_ = _display_bundle
