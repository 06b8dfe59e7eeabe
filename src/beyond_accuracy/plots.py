"""Localised plots used by the figures of the book and by the labs.

Every label comes from the terminology table in the active language. Colours come from the
Okabe–Ito palette (safe for the common forms of colour blindness), and every series also differs
by line style or marker, so no figure relies on colour alone.
"""

from __future__ import annotations

import numbers
import textwrap
from contextlib import contextmanager

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from . import _validation as v
from .language import fmt, get_language, term
from .metrics import confusion_counts

# Okabe & Ito (2008), "Color Universal Design".
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
}
SERIES = [
    {"color": PALETTE["blue"], "linestyle": "-", "marker": "o"},
    {"color": PALETTE["vermillion"], "linestyle": "--", "marker": "s"},
    {"color": PALETTE["green"], "linestyle": "-.", "marker": "^"},
    {"color": PALETTE["purple"], "linestyle": ":", "marker": "D"},
]
BASELINE = {"color": "0.45", "linestyle": ":", "linewidth": 1.2}
_COLOURS = [PALETTE[c] for c in ("blue", "vermillion", "green", "purple", "orange", "sky", "black", "yellow")]
_LINESTYLES = ["-", "--", "-.", ":"]
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def series_style(i: int) -> dict:
    """The style of the i-th series: SERIES for the first four, then further combinations of
    colour, line style and marker, distinct for the first 64 series (a plot draws every series
    it is given)."""
    if i < len(SERIES):
        return SERIES[i]
    return {
        "color": _COLOURS[i % len(_COLOURS)],
        "linestyle": _LINESTYLES[i % len(_LINESTYLES)],
        "marker": _MARKERS[(i + i // len(_COLOURS)) % len(_MARKERS)],
    }


def _numbers(values, name, low=None, high=None) -> list[float]:
    """A number or a sequence of numbers, as a list of floats (a clear error otherwise)."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a number or a sequence of numbers, got the string {values!r}")
    if isinstance(values, numbers.Real) or (isinstance(values, np.ndarray) and values.ndim == 0):
        values = [values]
    try:
        items = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a number or a sequence of numbers, got {v.show(values)}") from None
    return [v.number(x, name, low=low, high=high) for x in items]


def _non_empty(table, name):
    if len(table) == 0:
        raise ValueError(f"{name} is empty: there is nothing to draw")


STYLE = {
    "axes.prop_cycle": mpl.cycler(color=[s["color"] for s in SERIES]),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "font.size": 10,
    "figure.dpi": 100,
    "svg.hashsalt": "beyond-accuracy",  # deterministic element ids in SVG output
    "svg.fonttype": "path",
}


class LocalisedFormatter(mpl.ticker.ScalarFormatter):
    """Tick labels with the active language's decimal mark."""

    def __call__(self, x, pos=None):
        text = super().__call__(x, pos)
        return text.replace(".", "\x00").replace(",", " ").replace("\x00", fmt(0.5, 1)[1])


def localise_axes(ax):
    """Write the tick labels of ``ax`` with the language's decimal mark (0,5 rather than 0.5)."""
    for axis in (ax.xaxis, ax.yaxis):
        if isinstance(axis.get_major_formatter(), mpl.ticker.ScalarFormatter):
            axis.set_major_formatter(LocalisedFormatter())
    return ax


def _one_line(text: str) -> str:
    return " ".join(text.replace("$", "").split())


def _panel_description(ax, lang: str) -> str:
    """One panel's title, axis labels and legend entries, in the words of ``lang``."""
    parts = [
        _one_line(" ".join(t for t in (ax.get_title("left"), ax.get_title(), ax.get_title("right")) if t))
    ]
    if ax.axison:
        for key, label in (("plot_alt_x_axis", ax.get_xlabel()), ("plot_alt_y_axis", ax.get_ylabel())):
            if label.strip():
                parts.append(term(key, lang).format(label=_one_line(label)))
    legend = ax.get_legend()
    if legend is not None:
        names = [_one_line(t.get_text()) for t in legend.get_texts() if t.get_text().strip()]
        if names:
            parts.append(term("plot_alt_series", lang).format(names=", ".join(names)))
    return "; ".join(p for p in parts if p)


def describe_figure(fig, lang: str | None = None, panels: int = 4) -> str:
    """What a figure shows, said with its own texts in the active language (or ``lang``): its
    title, then each panel's title, axis labels and legend entries ("Chart: Reliability diagram;
    horizontal axis: declared probability; vertical axis: observed frequency; series: ...").
    A figure of more than ``panels`` panels (an image gallery) describes its first two and says how
    many more there are. The notebooks store it as the figure's plain-text output, and the site
    gives it to the image as its alt text (tools/book/sphinx/localisation.py)."""
    if not isinstance(fig, mpl.figure.Figure):
        raise ValueError(f"describe_figure expects a matplotlib Figure, got {type(fig).__name__}")
    if isinstance(panels, bool) or not isinstance(panels, numbers.Integral) or panels < 2:
        raise ValueError(
            f"panels must be a whole number of at least 2 (a gallery is described by its first two "
            f"panels), got {v.show(panels)}"
        )
    lang = lang or get_language()
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    described = [d for d in (_panel_description(ax, lang) for ax in axes) if d]
    heading = (
        term("plot_alt_chart", lang) if len(axes) < 2 else term("plot_alt_panels", lang).format(n=len(axes))
    )
    suptitle = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    if suptitle.strip():
        heading += f" ({_one_line(suptitle)})"
    if len(described) > panels:
        more = term("plot_alt_more", lang).format(n=len(described) - 2)
        described = [*described[:2], more]
    return heading + (": " + ". ".join(described) if described else "") + "."


@contextmanager
def course_style():
    """Matplotlib settings of the course (palette, grid, deterministic SVG).

    Interactive mode is left as it is at the end of the block: in a new Jupyter kernel, the first
    figure loads the inline backend, which turns interactive mode on, and ``rc_context`` would turn
    it off again on leaving (matplotlib issue #24351), so that a figure made later, or the same
    cell run again, would no longer show."""
    interactive = mpl.is_interactive()
    try:
        with mpl.rc_context(STYLE):
            try:
                yield
            finally:
                interactive = mpl.is_interactive()
    finally:
        mpl.interactive(interactive)


def _class_names(pos_name, neg_name):
    return (pos_name or term("sick"), neg_name or term("healthy"))


def plot_confusion_matrix(y_true, y_pred, pos_label=1, pos_name=None, neg_name=None, ax=None):
    """A binary confusion matrix in the book's layout: actual in rows, predicted in columns,
    positive class first. Each cell shows its count and its name (TP, FN, FP, TN)."""
    tp, fp, fn, tn = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return _draw_matrix(
        np.array([[tp, fn], [fp, tn]]), [["TP", "FN"], ["FP", "TN"]], _class_names(pos_name, neg_name), ax=ax
    )


def _draw_matrix(counts, names, class_names, ax=None, title=None):
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(3.8, 3.4))
        ax.grid(False)
        shade = np.array([[1, 0], [0, 1]])  # correct decisions light, errors darker
        ax.imshow(shade, cmap=mpl.colors.ListedColormap(["#F2D3BF", "#D9ECF5"]), vmin=0, vmax=1)
        for i in range(2):
            for j in range(2):
                label = names[i][j]
                count = "" if counts is None else f"\n{fmt(int(counts[i][j]), 0)}"
                ax.text(
                    j,
                    i,
                    f"{label}{count}",
                    ha="center",
                    va="center",
                    fontsize=12,
                    fontweight="bold" if label in ("TP", "TN") else "normal",
                )
        ax.set_xticks([0, 1], class_names)
        ax.set_yticks([0, 1], class_names)
        ax.set_xlabel(term("predicted_class"))
        ax.set_ylabel(term("actual_class"))
        ax.xaxis.set_label_position("top")
        ax.xaxis.tick_top()
        for spine in ax.spines.values():
            spine.set_visible(False)
        if title:
            ax.set_title("\n".join(textwrap.wrap(title, 36)), pad=38, fontsize=10)
    return ax


def plot_confusion_layouts(ax_book=None, ax_sklearn=None):
    """The book's layout beside scikit-learn's default layout for 0/1 labels, cell names only."""
    with course_style():
        if ax_book is None or ax_sklearn is None:
            _, (ax_book, ax_sklearn) = plt.subplots(1, 2, figsize=(8.4, 3.9), layout="constrained")
        pos, neg = f"{term('sick')} (1)", f"{term('healthy')} (0)"
        _draw_matrix(None, [["TP", "FN"], ["FP", "TN"]], (pos, neg), ax=ax_book, title=term("book_layout"))
        _draw_matrix(
            None, [["TN", "FP"], ["FN", "TP"]], (neg, pos), ax=ax_sklearn, title=term("sklearn_layout")
        )
        # the diagonal of correct decisions runs the other way: recolour to keep light = correct
        ax_sklearn.images[0].set_data(np.array([[1, 0], [0, 1]]))
    return ax_book.figure


def _curves(y_true, scores, pos_label):
    y = v.as_1d(y_true, "y_true")
    if not isinstance(scores, dict) or not scores:
        raise ValueError("scores must be a non-empty dict {model name: scores}")
    out = {}
    for name, s in scores.items():
        s = v.scores(s, f"scores[{name!r}]")
        v.same_length(y_true=y, **{"scores": s})
        out[name] = s
    y, _, _ = v.binary_labels(y, None, pos_label)
    v.both_classes(y, pos_label)
    return y, out


def _model_curves(ax, curves, drawstyle):
    """One line per model, ``curves`` giving (x, y, legend label) each, in the series' styles."""
    for i, (x, y, label) in enumerate(curves):
        style = series_style(i)
        ax.plot(
            x,
            y,
            drawstyle=drawstyle,
            label=label,
            color=style["color"],
            linestyle=style["linestyle"],
            marker=style["marker"],
            markersize=3.5,
        )


def _unit_square(ax, xlabel, ylabel, top, legend_loc):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, top)
    ax.set_aspect("equal")
    ax.legend(loc=legend_loc, fontsize=8)


# The curves are computed with scikit-learn's roc_curve and precision_recall_curve. Its
# RocCurveDisplay and PrecisionRecallDisplay would draw them too, but with English axis labels and a
# two-digit "AUC = 0.74" legend, their own limits and legend: all of which the course replaces with
# the reader's language and its own styles, so the lines are drawn here.
def plot_roc(y_true, scores, pos_label=1, ax=None):
    """ROC curves of one or more models (``scores`` is ``{name: scores}``) with the diagonal of
    random guessing; the legend gives each model's AUC in the active language."""
    y, scores = _curves(y_true, scores, pos_label)
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(4.2, 4.0))
        ax.plot([0, 1], [0, 1], label=term("random_guess"), **BASELINE)
        curves = []
        for name, s in scores.items():
            fpr, tpr, _ = roc_curve(y, s, pos_label=pos_label)
            curves.append((fpr, tpr, f"{name} (AUC {fmt(roc_auc_score(y == pos_label, s))})"))
        _model_curves(ax, curves, "default")
        _unit_square(ax, term("fpr_axis"), term("tpr_axis"), 1.02, "lower right")
    return localise_axes(ax)


def plot_pr(y_true, scores, pos_label=1, ax=None):
    """Precision–recall curves (recall on x, precision on y) drawn as steps, with the horizontal
    line of a random model at the prevalence; the legend gives each model's average precision."""
    y, scores = _curves(y_true, scores, pos_label)
    prevalence = float(np.mean(y == pos_label))
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(4.2, 4.0))
        ax.plot(
            [0, 1],
            [prevalence, prevalence],
            label=f"{term('prevalence_line')} ({fmt(prevalence)})",
            **BASELINE,
        )
        curves = []
        for name, s in scores.items():
            precision, recall, _ = precision_recall_curve(y, s, pos_label=pos_label)
            ap = average_precision_score(y == pos_label, s)
            curves.append((recall, precision, f"{name} (AP {fmt(ap)})"))
        _model_curves(ax, curves, "steps-post")
        _unit_square(ax, term("recall_axis"), term("precision_axis"), 1.05, "lower left")
    return localise_axes(ax)


def plot_roc_pr(y_true, scores, pos_label=1):
    """ROC (left) and precision–recall (right) side by side; returns the figure."""
    with course_style():
        fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(8.6, 4.2), layout="constrained")
        plot_roc(y_true, scores, pos_label=pos_label, ax=ax_roc)
        plot_pr(y_true, scores, pos_label=pos_label, ax=ax_pr)
    return fig


def plot_threshold_sweep(table, columns=("precision", "recall"), ax=None):
    """Metrics of :func:`beyond_accuracy.metrics.threshold_table` against the threshold;
    ``columns`` is a column name or a sequence of them."""
    if isinstance(columns, str):
        columns = (columns,)
    missing = [c for c in ("threshold", *columns) if c not in getattr(table, "columns", [])]
    if missing:
        raise ValueError(f"table lacks the columns {missing}; build it with metrics.threshold_table")
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(5.0, 3.4))
        for i, col in enumerate(columns):
            style = series_style(i)
            label = term(col) if col in ("precision", "recall", "specificity") else col.upper()
            ax.plot(
                table["threshold"],
                table[col],
                label=label,
                color=style["color"],
                linestyle=style["linestyle"],
                marker=style["marker"],
                markersize=3.5,
            )
        ax.set_xlabel(term("threshold"))
        ax.set_ylabel(term("metric_value"))
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=8)
    return localise_axes(ax)


def plot_scores(y_true, y_score, thresholds=(0.5,), pos_label=1, pos_name=None, neg_name=None, ax=None):
    """Each example as a marker on the score axis (positives above, negatives below, with
    different markers), with the thresholds (a number or a sequence) as vertical lines."""
    thresholds = _numbers(thresholds, "thresholds")
    y, _, _ = v.binary_labels(y_true, None, pos_label)
    s = v.scores(y_score, "y_score")
    v.same_length(y_true=y, y_score=s)
    pos_name, neg_name = _class_names(pos_name, neg_name)
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(7.6, 2.6))
        is_pos = y == pos_label
        ax.scatter(
            s[is_pos],
            np.full(is_pos.sum(), 1.0),
            marker="o",
            s=60,
            color=PALETTE["vermillion"],
            edgecolor="black",
            label=pos_name,
            zorder=3,
        )
        ax.scatter(
            s[~is_pos],
            np.zeros((~is_pos).sum()),
            marker="s",
            s=55,
            color=PALETTE["sky"],
            edgecolor="black",
            label=neg_name,
            zorder=3,
        )
        # Neighbouring thresholds' labels on two rows, so that they do not run into each other
        # where the figure is narrow (a phone's column).
        for i, t in enumerate(thresholds):
            style = series_style(i + 1)
            ax.axvline(t, color="0.25", linestyle=style["linestyle"], linewidth=1.2)
            ax.text(t, 1.45 + 0.3 * (i % 2), f"{term('threshold')} {fmt(t, 2)}", ha="center", fontsize=8)
        ax.set_yticks([0, 1], [neg_name, pos_name])
        ax.set_ylim(-0.6, 1.7 + (0.3 if len(thresholds) > 1 else 0))
        ax.set_xlim(-0.02, 1.02)
        ax.set_xlabel(term("score"))
        ax.grid(axis="y", visible=False)
    return localise_axes(ax)


_COST_CURVE = "ba-expected-cost"


def plot_expected_cost(table, ax=None, label=None):
    """Expected cost per example against the threshold (a table from
    :func:`beyond_accuracy.metrics.expected_cost_by_threshold`), with its minimum marked."""
    missing = [c for c in ("threshold", "cost") if c not in getattr(table, "columns", [])]
    if missing:
        raise ValueError(
            f"table lacks the columns {missing}; build it with metrics.expected_cost_by_threshold"
        )
    _non_empty(table, "table")
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(5.4, 3.6))
        # the n-th cost curve on these axes gets the n-th series style (each call draws two lines)
        style = series_style(sum(line.get_gid() == _COST_CURVE for line in ax.lines))
        ax.plot(
            table["threshold"], table["cost"], color=style["color"], linestyle=style["linestyle"],
            label=label, gid=_COST_CURVE,
        )  # fmt: skip
        best = table.loc[table["cost"].idxmin()]
        ax.plot(
            [best["threshold"]],
            [best["cost"]],
            marker="v",
            markersize=9,
            color=style["color"],
            markeredgecolor="black",
            linestyle="none",
            label=f"{term('minimum')}: {term('threshold')} {fmt(best['threshold'], 2)}",
        )
        ax.set_xlabel(term("threshold"))
        ax.set_ylabel(term("expected_cost_axis"))
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    return localise_axes(ax)


def plot_image_gallery(images, given, predicted, titles_extra=None, ncols=6, shape=None):
    """A grid of small images, each titled with its given label and the model's prediction
    (localised "given"/"predicted"); ``images`` is (n, h, w), or (n, h*w) with ``shape=(h, w)``
    (default: square images, such as the 8×8 digits or 28×28 MNIST)."""
    images = np.asarray(images, dtype=float)
    if images.ndim == 2:
        size = images.shape[1]
        if shape is None:
            side = int(round(np.sqrt(size)))
            if side * side != size:
                raise ValueError(
                    f"images have {size} pixels each, not a square number: pass shape=(height, width)"
                )
            shape = (side, side)
        shape = tuple(int(d) for d in shape)
        if len(shape) != 2 or shape[0] * shape[1] != size:
            raise ValueError(f"shape={shape} does not fit images of {size} pixels each")
        images = images.reshape((-1, *shape))
    if images.ndim != 3 or len(images) == 0:
        raise ValueError(f"images must be a non-empty (n, h*w) or (n, h, w) array, got shape {images.shape}")
    given, predicted = v.as_1d(given, "given"), v.as_1d(predicted, "predicted")
    v.same_length(images=images, given=given, predicted=predicted)
    ncols = max(1, min(int(ncols), len(images)))
    nrows = int(np.ceil(len(images) / ncols))
    with course_style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(1.55 * ncols, 1.85 * nrows), squeeze=False)
        for ax in axes.ravel():
            ax.axis("off")
        for i, ax in enumerate(axes.ravel()[: len(images)]):
            ax.imshow(images[i], cmap="gray_r", interpolation="nearest")
            title = f"{term('given_label')}: {given[i]}\n{term('predicted_label')}: {predicted[i]}"
            if titles_extra is not None:
                title += f"\n{titles_extra[i]}"
            ax.set_title(title, fontsize=7.5)
        fig.tight_layout()
    return fig


def plot_hunt_curves(curve, ax=None):
    """precision@k and recall@k as the number of reviewed examples k grows (a table from
    :func:`beyond_accuracy.metrics.hunt_curve`), with the precision of a random review order."""
    missing = [c for c in ("k", "precision", "recall") if c not in getattr(curve, "columns", [])]
    if missing:
        raise ValueError(f"curve lacks the columns {missing}; build it with metrics.hunt_curve")
    _non_empty(curve, "curve")
    base_rate = float(curve["found"].iloc[-1] / curve["k"].iloc[-1])
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(5.4, 3.6))
        ax.plot(curve["k"], curve["precision"], label=term("precision_at_k"), **_line(0))
        ax.plot(curve["k"], curve["recall"], label=term("recall_at_k"), **_line(1))
        ax.axhline(base_rate, label=f"{term('random_order')} ({fmt(base_rate)})", **BASELINE)
        ax.set_xlabel(term("examples_reviewed"))
        ax.set_ylabel(term("metric_value"))
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=8)
    return localise_axes(ax)


def plot_review_budget(curve, targets=(0.5, 0.8, 0.9), ax=None):
    """Share of known errors found against the number of examples reviewed, with the budget
    needed for each target share marked, and the diagonal of a random review order."""
    missing = [c for c in ("k", "recall") if c not in getattr(curve, "columns", [])]
    if missing:
        raise ValueError(f"curve lacks the columns {missing}; build it with metrics.hunt_curve")
    _non_empty(curve, "curve")
    targets = _numbers(targets, "target", low=0, high=1)
    n = int(curve["k"].iloc[-1])
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(5.4, 3.6))
        ax.plot(curve["k"], curve["recall"], label=term("ranked_by_loss"), **_line(0))
        ax.plot([0, n], [0, 1], label=term("random_order"), **BASELINE)
        for i, target in enumerate(targets):
            style = series_style(i + 1)
            k = 0 if target == 0 else int(curve.loc[curve["recall"] >= target - 1e-12, "k"].iloc[0])
            ax.plot(
                [k],
                [target],
                marker=style["marker"],
                color=style["color"],
                markersize=8,
                markeredgecolor="black",
                linestyle="none",
                label=f"{fmt(target, 0, percent=True)}: k = {fmt(k, 0)}",
            )
        ax.set_xlabel(term("examples_reviewed"))
        ax.set_ylabel(term("errors_found_share"))
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=8)
    return localise_axes(ax)


def _line(i):
    s = SERIES[i % len(SERIES)]
    return {"color": s["color"], "linestyle": s["linestyle"]}


RELIABILITY_COLUMNS = ("mean_predicted", "fraction_positive", "ci_lower", "ci_upper")


def plot_reliability_curve(table, ax, label=None, i=0, markersize=4.5):
    """One reliability curve on ``ax``, from a :func:`beyond_accuracy.metrics.reliability_table`:
    the observed share of positives against the mean predicted probability of each bin, with its
    95% Wilson interval as error bars, in the ``i``-th series style. Returns ``ax``."""
    missing = [c for c in RELIABILITY_COLUMNS if c not in getattr(table, "columns", [])]
    if missing:
        raise ValueError(f"table lacks the columns {missing}; build it with metrics.reliability_table")
    style = series_style(i)
    share = table["fraction_positive"]
    # clipped at 0: when a share is 0 or 1, rounding can put the Wilson bound a hair inside it
    err = np.clip(np.vstack([share - table["ci_lower"], table["ci_upper"] - share]), 0, None)
    with course_style():
        ax.errorbar(
            table["mean_predicted"],
            share,
            yerr=err,
            label=label,
            color=style["color"],
            linestyle=style["linestyle"],
            marker=style["marker"],
            markersize=markersize,
            capsize=2.5,
        )
    return ax


def plot_reliability_diagram(y_true, probs, n_bins=10, strategy="uniform", show_counts=True):
    """Reliability diagrams of one or more models (``probs`` is ``{name: positive-class
    probabilities}``): observed share of positives against mean predicted probability per bin,
    with 95% Wilson intervals as error bars, the diagonal of perfect calibration and, below,
    the number of examples per bin. Returns the figure."""
    from .metrics import reliability_table

    if not isinstance(probs, dict) or not probs:
        raise ValueError("probs must be a non-empty dict {model name: probabilities}")
    tables = {
        name: reliability_table(y_true, p, n_bins=n_bins, strategy=strategy) for name, p in probs.items()
    }
    with course_style():
        if show_counts:
            fig, (ax, ax_n) = plt.subplots(
                2, 1, figsize=(4.8, 5.6), height_ratios=[3, 1], sharex=True, layout="constrained"
            )
        else:
            fig, ax = plt.subplots(figsize=(4.8, 4.4), layout="constrained")
        ax.plot([0, 1], [0, 1], label=term("perfect_calibration"), **BASELINE)
        width = 0.8 / max(len(tables), 1)
        for i, (name, t) in enumerate(tables.items()):
            style = series_style(i)
            plot_reliability_curve(t, ax, label=name, i=i)
            if show_counts:
                centres = (t["bin_lower"] + t["bin_upper"]) / 2
                widths = (t["bin_upper"] - t["bin_lower"]) * width
                ax_n.bar(
                    centres + (i - (len(tables) - 1) / 2) * widths,
                    t["count"],
                    width=widths,
                    color=style["color"],
                    edgecolor="black",
                    linewidth=0.4,
                    hatch=["", "//", "..", "xx"][i % 4],
                )
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel(term("observed_frequency_axis"))
        ax.legend(fontsize=8, loc="upper left")
        localise_axes(ax)
        if show_counts:
            ax_n.set_xlabel(term("mean_predicted_axis"))
            ax_n.set_ylabel(term("count"))
            counts = np.concatenate([t["count"].to_numpy() for t in tables.values()])
            if counts.max() / max(counts.min(), 1) > 50:  # a log scale only when counts span decades
                ax_n.set_yscale("log")
            localise_axes(ax_n)
        else:
            ax.set_xlabel(term("mean_predicted_axis"))
    return fig


def plot_ordinal_confusion(y_true, y_pred, labels, ax=None, normalize=False):
    """Confusion matrix of an ordinal target as a heat map (actual in rows, predicted in columns,
    classes in their order) where distance from the diagonal is visible: every cell shows its
    count and the bands one and two classes away from the diagonal are outlined."""
    from sklearn.metrics import confusion_matrix

    labels = v.as_1d(labels, "labels").tolist()
    y_true, y_pred = v.as_1d(y_true, "y_true"), v.as_1d(y_pred, "y_pred")
    v.same_length(y_true=y_true, y_pred=y_pred)
    unknown = sorted(set(np.concatenate([y_true, y_pred]).tolist()) - set(labels), key=str)
    if unknown:
        raise ValueError(f"labels {unknown[:5]} are not in labels={labels}")
    counts = confusion_matrix(y_true, y_pred, labels=labels)
    shown = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1) if normalize else counts
    k = len(labels)
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(0.8 * k + 2.2, 0.8 * k + 1.6))
        ax.grid(False)
        ax.imshow(shown, cmap="cividis", vmin=0)
        top = shown.max() if shown.max() > 0 else 1
        for i in range(k):
            for j in range(k):
                text = fmt(shown[i, j], 2) if normalize else fmt(int(counts[i, j]), 0)
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="black" if shown[i, j] > 0.55 * top else "white",
                    fontweight="bold" if i == j else "normal",
                )
        for distance, style in ((1, "--"), (2, ":")):
            for i in range(k):
                for j in (i - distance, i + distance):
                    if 0 <= j < k:
                        ax.add_patch(
                            plt.Rectangle(
                                (j - 0.5, i - 0.5),
                                1,
                                1,
                                fill=False,
                                linestyle=style,
                                linewidth=1.0,
                                edgecolor=PALETTE["orange"],
                            )
                        )
        ax.set_xticks(range(k), [str(x) for x in labels])
        ax.set_yticks(range(k), [str(x) for x in labels])
        ax.set_xlabel(term("predicted_class"))
        ax.set_ylabel(term("actual_class"))
        ax.set_title(term("ordinal_bands"), fontsize=9)
    return ax


def plot_cut_points(model, X=None, labels=None, ax=None):
    """The cut-points of a fitted :class:`beyond_accuracy.ordinal.OrdinalLogisticRegression` on
    its latent scale, with the class each interval stands for and, if ``X`` is given, the
    distribution of the examples' latent scores."""
    cuts = np.asarray(
        getattr(model, "cut_points_", None) if not isinstance(model, (list, tuple, np.ndarray)) else model,
        dtype=float,
    )
    if cuts is None or cuts.ndim != 1 or len(cuts) < 1:
        raise ValueError("model must be a fitted OrdinalLogisticRegression or a sequence of cut-points")
    labels = list(labels) if labels is not None else list(getattr(model, "classes_", range(1, len(cuts) + 2)))
    if len(labels) != len(cuts) + 1:
        raise ValueError(f"{len(cuts)} cut-points separate {len(cuts) + 1} classes, got {len(labels)} labels")
    with course_style():
        if ax is None:
            _, ax = plt.subplots(figsize=(7.0, 2.8))
        span = cuts.max() - cuts.min() if len(cuts) > 1 else 2.0
        low, high = cuts.min() - 0.6 * span - 1, cuts.max() + 0.6 * span + 1
        if X is not None:
            scores = model.latent_score(X)
            low, high = min(low, np.percentile(scores, 1)), max(high, np.percentile(scores, 99))
            ax.hist(
                scores,
                bins=40,
                range=(low, high),
                color=PALETTE["sky"],
                edgecolor="white",
                label=term("latent_score"),
            )
        ax.set_xlim(low, high)
        bounds = [low, *cuts, high]
        for i, c in enumerate(cuts):
            ax.axvline(c, color="black", linestyle="--", linewidth=1.2)
            ax.text(c, 1.02, f"θ{i + 1}", transform=ax.get_xaxis_transform(), ha="center", fontsize=9)
        for i, label in enumerate(labels):
            ax.text(
                (bounds[i] + bounds[i + 1]) / 2,
                0.9,
                str(label),
                transform=ax.get_xaxis_transform(),
                ha="center",
                fontsize=10,
                fontweight="bold",
            )
        ax.set_xlabel(term("latent_score"))
        ax.set_yticks([])
        ax.grid(axis="y", visible=False)
        ax.set_title(term("cut_points"), fontsize=9, pad=14)
    return localise_axes(ax)
