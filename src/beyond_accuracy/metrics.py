"""Metrics the course needs that scikit-learn does not offer as such.

Most of it is computed by scikit-learn underneath and only arranged the way the book reads it
(positive class first), with validated input. Where a function counts for itself it says so in its
docstring, and the tests check it against scikit-learn: :func:`threshold_table` (and so
:func:`expected_cost_by_threshold`) sorts the scores once and counts with ``searchsorted``, the
binning of the calibration functions uses ``bincount`` on the edges of ``calibration_curve``, and
the ranking helpers of chapter 5 use cumulative sums.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn import metrics as skm

from . import _validation as v


class ConfusionCounts(NamedTuple):
    """The four cells of a binary confusion matrix, in the book's order."""

    tp: int
    fp: int
    fn: int
    tn: int


def confusion_counts(y_true, y_pred, pos_label=1) -> ConfusionCounts:
    """Count true/false positives and negatives for the class ``pos_label``.

    Same numbers as ``sklearn.metrics.confusion_matrix(y_true, y_pred, labels=[pos, neg]).ravel()``
    but named, so the orientation of the matrix cannot be misread.
    """
    y_true, y_pred, classes = v.binary_labels(y_true, y_pred, pos_label, single_class_ok=True)
    others = [c for c in classes if c != pos_label]
    if not others:  # every label is the positive one
        return ConfusionCounts(len(y_true), 0, 0, 0)
    if pos_label not in classes:  # no positive at all, neither true nor predicted
        return ConfusionCounts(0, 0, 0, len(y_true))
    tp, fn, fp, tn = skm.confusion_matrix(y_true, y_pred, labels=[pos_label, others[0]]).ravel()
    return ConfusionCounts(int(tp), int(fp), int(fn), int(tn))


def binary_scores(y_true, y_pred, pos_label=1) -> pd.Series:
    """The scoreboard of one set of binary decisions: accuracy, precision, recall, specificity,
    NPV, F1, balanced accuracy, MCC and Cohen's kappa (each computed by scikit-learn).

    Undefined ratios (for example precision when nothing is flagged) are reported as 0, as
    scikit-learn does with ``zero_division=0``. A batch without any positive (true or predicted)
    is counted: every decision is a true negative.
    """
    y_true, y_pred, classes = v.binary_labels(y_true, y_pred, pos_label, single_class_ok=True)
    if pos_label not in classes:  # the mirror image of an all-positive batch
        return pd.Series(
            {
                "accuracy": 1.0,
                "precision": 0.0,
                "recall": 0.0,
                "specificity": 1.0,
                "npv": 1.0,
                "f1": 0.0,
                "balanced_accuracy": 1.0,
                "mcc": 0.0,
                "kappa": 0.0,
            },
            dtype=float,
        )
    others = [c for c in classes if c != pos_label]
    neg = others[0] if others else None
    kw = {"zero_division": 0}
    return pd.Series(
        {
            "accuracy": skm.accuracy_score(y_true, y_pred),
            "precision": skm.precision_score(y_true, y_pred, pos_label=pos_label, **kw),
            "recall": skm.recall_score(y_true, y_pred, pos_label=pos_label, **kw),
            "specificity": skm.recall_score(y_true, y_pred, pos_label=neg, **kw) if others else 0.0,
            "npv": skm.precision_score(y_true, y_pred, pos_label=neg, **kw) if others else 0.0,
            "f1": skm.f1_score(y_true, y_pred, pos_label=pos_label, **kw),
            "balanced_accuracy": skm.balanced_accuracy_score(y_true, y_pred) if others else 1.0,
            "mcc": skm.matthews_corrcoef(y_true, y_pred),
            "kappa": skm.cohen_kappa_score(y_true, y_pred) if len(set(y_true) | set(y_pred)) > 1 else 0.0,
        },
        dtype=float,
    )


def _as_sequence(values, name):
    """A scalar number as a one-element list; sequences unchanged (strings are refused)."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a number or a sequence of numbers, got the string {values!r}")
    if isinstance(values, numbers.Real) or (isinstance(values, np.ndarray) and values.ndim == 0):
        return [values]
    return values


def threshold_table(y_true, y_score, thresholds, pos_label=1, betas=(1.0,)) -> pd.DataFrame:
    """Counts and rates at each threshold, flagging ``score >= threshold`` as positive.

    ``>=`` is the convention of ``sklearn.metrics.roc_curve``. Columns: threshold, tp, fp, fn, tn,
    precision, recall, specificity and one F-beta column per beta (``f1``, ``f2``, ``f0.5``).
    ``thresholds`` and ``betas`` are sequences, or a single number.

    The counts are computed here, not by scikit-learn: the scores of each class are sorted once
    and each threshold is placed among them with ``searchsorted``, so the cost is
    O(n log n + t log n) time and O(n + t) memory for n examples and t thresholds (every
    distinct score as a threshold is fine at 10⁶ rows). At the thresholds of
    ``sklearn.metrics.confusion_matrix_at_thresholds`` the counts are the same (tested).
    """
    y_true, _, classes = v.binary_labels(y_true, None, pos_label)
    v.both_classes(y_true, pos_label)
    y_score = v.scores(y_score, "y_score")
    v.same_length(y_true=y_true, y_score=y_score)
    thresholds = v.scores(_as_sequence(thresholds, "thresholds"), "thresholds")
    betas = [v.number(beta, "beta", low=1e-12) for beta in _as_sequence(betas, "betas")]
    positive = y_true == pos_label
    # how many scores of each class lie below the threshold: the rest are flagged
    scores_of_class = y_score[positive]
    scores_of_class.sort()
    n_pos = len(scores_of_class)
    fn = np.searchsorted(scores_of_class, thresholds, side="left")
    scores_of_class = y_score[~positive]
    scores_of_class.sort()
    n_neg = len(scores_of_class)
    tn = np.searchsorted(scores_of_class, thresholds, side="left")
    del scores_of_class
    tp, fp = n_pos - fn, n_neg - tn
    flagged = tp + fp
    columns = {
        "threshold": thresholds,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": np.divide(tp, flagged, out=np.zeros(len(tp)), where=flagged > 0),
        "recall": tp / n_pos,
        "specificity": tn / n_neg,
    }
    del flagged
    for beta in betas:
        b2 = beta**2
        numerator = (1 + b2) * tp
        denom = numerator + b2 * fn + fp
        columns[f"f{beta:g}"] = np.divide(numerator, denom, out=np.zeros(len(tp)), where=denom > 0)
        del numerator, denom
    return pd.DataFrame(columns, copy=False)  # the columns are new arrays: no need to copy them


# --- costs (chapter 2) --------------------------------------------------------------------------


def _costs(c_fp, c_fn, c_tp, c_tn) -> tuple[float, float, float, float]:
    return tuple(
        v.number(c, name) for c, name in ((c_fp, "c_fp"), (c_fn, "c_fn"), (c_tp, "c_tp"), (c_tn, "c_tn"))
    )


def cost_threshold(c_fp, c_fn, c_tp=0.0, c_tn=0.0) -> float:
    """The probability threshold that minimises expected cost (Elkan, 2001).

    With calibrated probabilities p, flagging an example costs ``p*c_tp + (1-p)*c_fp`` in
    expectation and letting it pass costs ``p*c_fn + (1-p)*c_tn``; flagging is cheaper exactly when

        p >= (c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp)).

    With correct decisions free this is ``c_fp / (c_fp + c_fn)``. Only the differences between
    the cost of being wrong and of being right matter, so revenues can be entered as negative
    costs. Raises ValueError when an error is not costlier than the corresponding correct
    decision: the decision is then degenerate (always flag, or never).
    """
    c_fp, c_fn, c_tp, c_tn = _costs(c_fp, c_fn, c_tp, c_tn)
    if c_fp <= c_tn or c_fn <= c_tp:  # compared as given: a difference may overflow or, scaled, underflow
        which = "c_fp <= c_tn" if c_fp <= c_tn else "c_fn <= c_tp"
        raise ValueError(
            f"degenerate costs ({which}): being wrong must cost more than being right for both "
            "classes, otherwise the best decision ignores the probability"
        )
    wrong_negative, wrong_positive = c_fp - c_tn, c_fn - c_tp
    if not np.isfinite(wrong_negative + wrong_positive):  # costs near the largest float: quarter them
        wrong_negative, wrong_positive = c_fp / 4 - c_tn / 4, c_fn / 4 - c_tp / 4
    return wrong_negative / (wrong_negative + wrong_positive)


def expected_cost(y_true, y_pred, c_fp, c_fn, c_tp=0.0, c_tn=0.0, pos_label=1) -> float:
    """Mean cost per example of the decisions ``y_pred``:
    ``(c_tp*TP + c_fp*FP + c_fn*FN + c_tn*TN) / m``."""
    c_fp, c_fn, c_tp, c_tn = _costs(c_fp, c_fn, c_tp, c_tn)
    tp, fp, fn, tn = confusion_counts(y_true, y_pred, pos_label=pos_label)
    return (c_tp * tp + c_fp * fp + c_fn * fn + c_tn * tn) / (tp + fp + fn + tn)


def expected_cost_by_threshold(
    y_true, y_prob, thresholds, c_fp, c_fn, c_tp=0.0, c_tn=0.0, pos_label=1
) -> pd.DataFrame:
    """Expected cost per example when flagging ``y_prob >= t``, for every threshold ``t``.

    Returns a DataFrame with columns ``threshold``, ``tp``, ``fp``, ``fn``, ``tn`` and ``cost``.
    """
    c_fp, c_fn, c_tp, c_tn = _costs(c_fp, c_fn, c_tp, c_tn)
    v.scores(y_prob, "y_prob", probabilities=True)
    table = threshold_table(y_true, y_prob, thresholds, pos_label=pos_label, betas=())
    m = table[["tp", "fp", "fn", "tn"]].sum(axis=1)
    table["cost"] = (c_tp * table["tp"] + c_fp * table["fp"] + c_fn * table["fn"] + c_tn * table["tn"]) / m
    return table[["threshold", "tp", "fp", "fn", "tn", "cost"]]


# --- error inspection (chapter 5) ---------------------------------------------------------------


def per_example_log_loss(y_true, proba, labels=None) -> np.ndarray:
    """The log loss of every example, ``-log p̂_i(y_i)``: the model's surprise at the true label.

    ``proba`` is the (n, K) matrix of ``predict_proba`` with columns in the order of ``labels``
    (default: the sorted labels of ``y_true``, as scikit-learn's ``log_loss`` assumes), or, for
    a binary problem, the 1-D probabilities of the larger label. As in ``log_loss``, float32
    (for example from ``MLPClassifier`` on float32 features) and float16 probabilities keep their
    dtype, other numbers become float64; rows must sum to 1 within the square root of the
    dtype's machine epsilon, and probabilities are clipped to ``[eps, 1 - eps]`` with that
    epsilon, so ``per_example_log_loss(y, p).mean()`` equals ``log_loss(y, p)`` up to the
    rounding of the dtype (exactly, for float64). One vectorised expression, no loop over
    examples; the result has the dtype of the probabilities.
    """
    y_true = v.as_1d(y_true, "y_true")
    proba = np.asarray(proba)
    if proba.dtype.kind not in "biuf":
        raise ValueError(f"proba must be numeric, got values of type {proba.dtype}")
    dtype = proba.dtype if proba.dtype in (np.float16, np.float32, np.float64) else np.dtype(np.float64)
    proba = proba.astype(dtype, copy=False)
    if proba.ndim == 1:
        v.scores(proba, "proba", probabilities=True)
        proba = np.column_stack([1 - proba, proba])
    elif proba.ndim != 2:
        raise ValueError(f"proba must be 1-D or 2-D, got shape {proba.shape}")
    if np.isnan(proba).any():
        raise ValueError("proba contains missing values (NaN)")
    if (proba < 0).any() or (proba > 1).any():
        raise ValueError("proba must hold probabilities in [0, 1]")
    v.same_length(y_true=y_true, proba=proba)
    if labels is None:
        labels = np.unique(y_true)
        if len(labels) < 2:
            raise ValueError("y_true holds a single label; pass labels= to say which column is which")
    else:
        labels = v.as_1d(labels, "labels")
        if len(set(labels.tolist())) != len(labels):
            raise ValueError("labels must be distinct")
    if proba.shape[1] != len(labels):
        raise ValueError(
            f"proba has {proba.shape[1]} columns but there are {len(labels)} labels {v.show(labels)}"
        )
    eps = np.finfo(dtype).eps
    if not np.allclose(proba.sum(axis=1), 1.0, rtol=np.sqrt(eps)):
        raise ValueError("each row of proba must sum to 1")
    order = np.argsort(labels, kind="stable")
    position = np.searchsorted(labels[order], y_true)
    position = np.clip(position, 0, len(labels) - 1)
    column = order[position]
    unknown = labels[column] != y_true
    if unknown.any():
        raise ValueError(f"y_true holds labels not in labels: {sorted(set(y_true[unknown].tolist()))[:5]}")
    picked = np.clip(proba, eps, 1 - eps)[np.arange(len(y_true)), column]
    return -np.log(picked)


def _ranking(is_error, scores) -> np.ndarray:
    is_error = v.as_1d(is_error, "is_error")
    if is_error.dtype != bool:
        if not set(np.unique(is_error).tolist()) <= {0, 1}:
            raise ValueError("is_error must be booleans (or 0/1): True where the label is known to be wrong")
        is_error = is_error.astype(bool)
    scores = v.scores(scores, "scores")
    v.same_length(is_error=is_error, scores=scores)
    if not is_error.any():
        raise ValueError("is_error marks no example as an error: there is nothing to find")
    order = np.argsort(-scores, kind="stable")  # highest score first; ties keep the data order
    return is_error[order]


def hunt_curve(is_error, scores) -> pd.DataFrame:
    """Review the examples from the highest score down: after opening ``k`` of them, how many
    known errors were ``found``, with ``precision`` (found / k) and ``recall`` (found / all
    errors). One row per k = 1 … n."""
    ranked = _ranking(is_error, scores)
    found = np.cumsum(ranked)
    k = np.arange(1, len(ranked) + 1)
    return pd.DataFrame({"k": k, "found": found, "precision": found / k, "recall": found / ranked.sum()})


def precision_at_k(is_error, scores, k: int) -> float:
    """Share of known errors among the ``k`` examples with the highest scores."""
    ranked = _ranking(is_error, scores)
    k = _check_k(k, len(ranked))
    return float(ranked[:k].mean())


def recall_at_k(is_error, scores, k: int) -> float:
    """Share of all known errors found among the ``k`` examples with the highest scores."""
    ranked = _ranking(is_error, scores)
    k = _check_k(k, len(ranked))
    return float(ranked[:k].sum() / ranked.sum())


def review_budget(is_error, scores, recall) -> int:
    """How many examples must be opened, from the highest score down, to find at least the share
    ``recall`` of the known errors (0 for ``recall=0``: nothing has to be opened)."""
    r = v.number(recall, "recall", low=0, high=1)
    curve = hunt_curve(is_error, scores)
    if r == 0:
        return 0
    return int(curve.loc[curve["recall"] >= r - 1e-12, "k"].iloc[0])


def _check_k(k, n) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n:
        raise ValueError(f"k must be a whole number between 1 and {n}, got {v.show(k)}")
    return int(k)


# --- calibration (chapter 3) --------------------------------------------------------------------


class BrierDecomposition(NamedTuple):
    """Murphy's (1973) partition of the Brier score: BS ≈ reliability − resolution + uncertainty."""

    reliability: float
    resolution: float
    uncertainty: float


def _binary_probabilities(y_true, y_prob):
    """(y as 0/1 floats, probabilities) for a binary problem given as the positive-class column."""
    y = v.as_1d(y_true, "y_true")
    p = v.scores(y_prob, "y_prob", probabilities=True)
    v.same_length(y_true=y, y_prob=p)
    labels = v.distinct(y)
    if not set(labels) <= {0, 1}:
        raise ValueError(f"y_true must hold 0/1 labels (1 = the positive class), found {labels[:5]}")
    return y.astype(float), p


MAX_BINS = 10_000


def _bin_ids(p: np.ndarray, n_bins, strategy: str) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive whole number, got {v.show(n_bins)}")
    if n_bins > MAX_BINS:
        raise ValueError(
            f"n_bins must be at most {MAX_BINS:,}, got {int(n_bins):,}: the bins cost memory whether "
            "or not a prediction falls in them, and so many bins hold too few predictions each to "
            "estimate anything"
        )
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    elif strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)  # exactly as calibration_curve
    else:
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    # half-open bins [a, b), the last one closed (calibration_curve uses (a, b], the first closed)
    return np.searchsorted(edges[1:-1], p, side="right"), edges


def _bin_stats(y, p, n_bins, strategy):
    ids, edges = _bin_ids(p, n_bins, strategy)
    count = np.bincount(ids, minlength=n_bins)
    sum_y = np.bincount(ids, weights=y, minlength=n_bins)
    sum_p = np.bincount(ids, weights=p, minlength=n_bins)
    keep = count > 0
    return edges, count, sum_y, sum_p, keep


def _wilson(successes, n, z=1.959963984540054):
    """Wilson (1927) score interval for a binomial proportion (95% by default)."""
    phat = successes / n
    denom = 1 + z**2 / n
    centre = (phat + z**2 / (2 * n)) / denom
    half = z * np.sqrt(phat * (1 - phat) / n + z**2 / (4 * n**2)) / denom
    # the interval always contains the observed share; rounding can miss it by 1e-16 at 0 and 1
    return np.minimum(centre - half, phat), np.maximum(centre + half, phat)


def reliability_table(y_true, y_prob, n_bins=10, strategy="uniform") -> pd.DataFrame:
    """The numbers behind a reliability diagram, one row per non-empty bin.

    Columns: ``bin_lower``, ``bin_upper``, ``count``, ``mean_predicted`` (mean of y_prob in the
    bin), ``fraction_positive`` (observed share of 1s), and ``ci_lower``/``ci_upper``, the 95%
    Wilson interval of that share. Bins are half-open [a, b) with the last one closed, so 1.0
    falls in the last bin; ``strategy="uniform"`` gives equal-width bins, ``"quantile"``
    equal-mass bins (edges at quantiles of y_prob). The edges are those of
    ``sklearn.calibration.calibration_curve``, whose two arrays equal ``fraction_positive`` and
    ``mean_predicted`` except when a probability lies exactly on an inner edge: scikit-learn 1.9
    puts it in the lower bin (a, b], this table in the upper one [a, b). Vectorised.
    """
    y, p = _binary_probabilities(y_true, y_prob)
    edges, count, sum_y, sum_p, keep = _bin_stats(y, p, n_bins, strategy)
    n = count[keep]
    low, high = _wilson(sum_y[keep], n)
    return pd.DataFrame(
        {
            "bin_lower": edges[:-1][keep],
            "bin_upper": edges[1:][keep],
            "count": n,
            "mean_predicted": sum_p[keep] / n,
            "fraction_positive": sum_y[keep] / n,
            "ci_lower": low,
            "ci_upper": high,
        }
    )


KINDS = ("binary", "confidence")


def _calibration_pairs(y_true, y_prob, labels, kind, pos_label):
    """(outcome, probability) pairs: the positive class's (binary) or the confidence's (the top
    label's probability against whether the top label is right)."""
    proba = np.asarray(y_prob)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be 'binary', 'confidence' or None, got {v.show(kind)}")
    if proba.ndim == 2 and proba.shape[1] == 2 and kind is None:
        raise ValueError(
            "y_prob has two columns, so it is ambiguous which ECE you want: pass kind='binary' for "
            "the calibration of the positive-class probability (the column of pos_label, as in "
            "calibration_curve(y, proba[:, 1])) or kind='confidence' for the calibration of the "
            "confidence (the largest probability against whether that class is right)"
        )
    if proba.ndim == 1 and kind == "confidence":
        raise ValueError(
            "kind='confidence' needs the (n, K) matrix of predict_proba; a 1-D y_prob holds the "
            "positive-class probabilities (kind='binary')"
        )
    if proba.ndim == 2 and proba.shape[1] >= 2:
        y = v.as_1d(y_true, "y_true")
        if proba.dtype.kind not in "biuf":
            raise ValueError("y_prob must be numeric")
        v.scores(proba.ravel(), "y_prob", probabilities=True)
        v.same_length(y_true=y, y_prob=proba)
        labels = np.asarray(v.distinct(y) if labels is None else labels)
        if len(labels) != proba.shape[1]:
            raise ValueError(
                f"y_prob has {proba.shape[1]} columns but {len(labels)} labels are known "
                f"{v.show(labels[:6])}; pass labels= in the column order of predict_proba"
            )
        unknown = ~np.isin(y, labels)
        if unknown.any():
            raise ValueError(
                f"y_true holds labels not in labels: {v.show(sorted(set(y[unknown].tolist()))[:5])}"
            )
        if kind == "binary":
            if proba.shape[1] != 2:
                raise ValueError(
                    f"kind='binary' needs a binary problem, but y_prob has {proba.shape[1]} columns; "
                    "use kind='confidence', or pass the probability of one class against the rest"
                )
            pos = labels[-1] if pos_label is None else pos_label
            if pos not in labels.tolist():
                raise ValueError(f"pos_label={v.show(pos)} is not one of the labels {v.show(labels)}")
            column = labels.tolist().index(pos)
            return (y == pos).astype(float), proba[:, column].astype(float)
        correct = (labels[proba.argmax(axis=1)] == y).astype(float)
        return correct, proba.max(axis=1).astype(float)
    if proba.ndim == 2:
        raise ValueError(f"a 2-D y_prob needs one column per class, got shape {proba.shape}")
    if pos_label is not None:
        y = v.as_1d(y_true, "y_true")
        return _binary_probabilities((y == pos_label).astype(int), y_prob)
    return _binary_probabilities(y_true, y_prob)


def expected_calibration_error(
    y_true, y_prob, n_bins=10, strategy="uniform", labels=None, kind=None, pos_label=None
) -> float:
    """ECE = Σ_b (n_b / n) · |observed share_b − mean predicted_b| over the non-empty bins.

    Two different quantities share the name; ``kind`` says which one:

    - ``kind="binary"``: the calibration of the positive-class probability, outcome = whether
      the example is positive (what ``calibration_curve`` and a reliability diagram show).
      ``y_prob`` is the 1-D positive-class probability with 0/1 ``y_true`` (the default for a
      1-D ``y_prob``), or the two-column ``predict_proba`` of a binary model, whose column of
      ``pos_label`` (default: the larger label, column 1) is used.
    - ``kind="confidence"``: the calibration of the confidence, for a (n, K) probability matrix
      (columns in the order of ``labels``, default the sorted labels of ``y_true``):
      confidence = the largest probability, outcome = whether that class is the true one. The
      default for a matrix of three or more columns. (This is *confidence* calibration in Gupta
      and Ramdas's terms; *top-label* calibration conditions on the predicted class as well.)

    A two-column matrix without ``kind`` raises ValueError: on a binary model the two numbers
    differ (the confidence folds the probabilities below ½ onto those above), so the choice must be
    explicit. Binning as in :func:`reliability_table`. The value depends on the binning:
    report it with ``n_bins`` and ``strategy``.
    """
    y, p = _calibration_pairs(y_true, y_prob, labels, kind, pos_label)
    _, count, sum_y, sum_p, keep = _bin_stats(y, p, n_bins, strategy)
    return float(np.abs(sum_y[keep] - sum_p[keep]).sum() / len(y))


def max_calibration_error(
    y_true, y_prob, n_bins=10, strategy="uniform", labels=None, kind=None, pos_label=None
) -> float:
    """MCE: the largest gap |observed share − mean predicted| over the non-empty bins; ``kind``
    ("binary" or "confidence") as in :func:`expected_calibration_error`."""
    y, p = _calibration_pairs(y_true, y_prob, labels, kind, pos_label)
    _, count, sum_y, sum_p, keep = _bin_stats(y, p, n_bins, strategy)
    return float(np.max(np.abs(sum_y[keep] - sum_p[keep]) / count[keep]))


def brier_decomposition(y_true, y_prob, n_bins=10, strategy="uniform") -> BrierDecomposition:
    """Murphy's decomposition of the Brier score over binned forecasts.

    reliability = Σ_b (n_b/n)(p̄_b − ȳ_b)² (miscalibration, lower is better);
    resolution  = Σ_b (n_b/n)(ȳ_b − ȳ)²   (how far bins move from the base rate, higher is better);
    uncertainty = ȳ(1 − ȳ)                 (fixed by the data).

    ``reliability − resolution + uncertainty`` equals the Brier score exactly when every forecast
    in a bin equals the bin's mean forecast (for example when forecasts take at most one value
    per bin); otherwise the two differ by the within-bin variation of the forecasts
    (Σ_i (p_i − p̄_b)² and a covariance term), which finer bins shrink.
    """
    y, p = _binary_probabilities(y_true, y_prob)
    _, count, sum_y, sum_p, keep = _bin_stats(y, p, n_bins, strategy)
    n, share = count[keep] / len(y), sum_y[keep] / count[keep]
    mean_p = sum_p[keep] / count[keep]
    base = y.mean()
    return BrierDecomposition(
        reliability=float(np.sum(n * (mean_p - share) ** 2)),
        resolution=float(np.sum(n * (share - base) ** 2)),
        uncertainty=float(base * (1 - base)),
    )


# --- ordinal targets (chapter 4) ----------------------------------------------------------------


def _ordinal_positions(y_true, y_pred, labels):
    y_true, y_pred = v.as_1d(y_true, "y_true"), v.as_1d(y_pred, "y_pred")
    v.same_length(y_true=y_true, y_pred=y_pred)
    if labels is None:
        for name, arr in (("y_true", y_true), ("y_pred", y_pred)):
            if arr.dtype.kind not in "biuf" or not np.all(np.mod(arr, 1) == 0):
                raise ValueError(
                    f"{name} must hold ordered integer classes (such as 1-5); for other labels pass "
                    "labels= in their order, e.g. labels=['low', 'medium', 'high']"
                )
        return y_true.astype(float), y_pred.astype(float)
    labels = v.as_1d(labels, "labels")
    if len(set(labels.tolist())) != len(labels):
        raise ValueError("labels must be distinct")
    position = {label: i for i, label in enumerate(labels.tolist())}
    unknown = sorted({x for x in [*y_true.tolist(), *y_pred.tolist()] if x not in position}, key=str)
    if unknown:
        raise ValueError(f"labels {unknown[:5]} are not in labels={labels.tolist()}")
    to_pos = np.vectorize(position.__getitem__, otypes=[float])
    return to_pos(y_true), to_pos(y_pred)


def one_off_accuracy(y_true, y_pred, tolerance=1, labels=None) -> float:
    """Share of predictions at most ``tolerance`` classes away from the truth.

    Classes must be ordered integers (distance = difference of the integers) or any labels given
    in their order with ``labels=`` (distance = difference of positions in that list). The
    tolerance is the author's choice: declare it whenever you report the number.
    ``tolerance=0`` is plain accuracy.
    """
    t = v.number(tolerance, "tolerance", low=0)
    true_pos, pred_pos = _ordinal_positions(y_true, y_pred, labels)
    return float(np.mean(np.abs(true_pos - pred_pos) <= t))
