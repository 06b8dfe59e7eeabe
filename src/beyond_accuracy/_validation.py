"""Input checks shared by the public functions: each raises ValueError naming what was wrong."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd


def show(value) -> str:
    """repr of a value as the user typed it: ``0`` rather than numpy 2's ``np.int64(0)``, and lists
    or arrays of labels as plain lists."""
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, (np.ndarray, list, tuple)):
        return repr(
            [v.item() if isinstance(v, np.generic) else v for v in np.asarray(value, dtype=object).ravel()]
        )
    return repr(value)


def as_1d(values, name: str) -> np.ndarray:
    """A non-empty 1-D array without missing values."""
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise ValueError(f"{name} must be a 1-D sequence of values, got a single value {show(values)}")
    arr = np.asarray(values)
    if arr.ndim == 2 and 1 in arr.shape and arr.size > 0 and arr.shape != (1, 1):
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}; use .ravel() if you meant a vector")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if pd.isna(arr).any():
        where = np.flatnonzero(pd.isna(arr))[:5].tolist()
        raise ValueError(f"{name} contains missing values (NaN/None) at positions {where}")
    return arr


def same_length(**arrays) -> None:
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        raise ValueError(f"inputs must have the same length: {detail}")


def distinct(values: np.ndarray) -> list:
    """The distinct values of a label array (fast for numbers, also works for mixed objects)."""
    try:
        return np.unique(values).tolist()
    except TypeError:  # labels of mixed types cannot be sorted together
        return sorted(set(values.tolist()), key=str)


def _kind(arr: np.ndarray) -> str:
    if arr.dtype.kind in "biuf":
        return "numbers"
    if arr.dtype.kind in "US":
        return "strings"
    kinds = {
        "strings" if isinstance(x, str) else "numbers" if isinstance(x, (int, float, np.number)) else "other"
        for x in arr.tolist()
    }
    return kinds.pop() if len(kinds) == 1 else "mixed"


def binary_labels(y_true, y_pred=None, pos_label=1, single_class_ok=False):
    """Validate a binary problem; return (y_true, y_pred) as arrays and the sorted classes seen.

    With ``single_class_ok``, a batch whose only label is not ``pos_label`` (no positive at all,
    a normal day at a fraud desk) is accepted; otherwise ``pos_label`` must occur."""
    y_true = as_1d(y_true, "y_true")
    arrays = [y_true]
    if y_pred is not None:
        y_pred = as_1d(y_pred, "y_pred")
        same_length(y_true=y_true, y_pred=y_pred)
        kinds = _kind(y_true), _kind(y_pred)
        if kinds[0] != kinds[1] and "mixed" not in kinds and "other" not in kinds:
            raise ValueError(
                f"y_true holds {kinds[0]} and y_pred holds {kinds[1]} (for example {show(y_true[0])} and "
                f"{show(y_pred[0])}); labels must be of one type, or {show(y_true[0])} and {show(str(y_true[0]))} "
                "count as two different classes"
            )
        arrays.append(y_pred)
    classes = distinct(np.concatenate(arrays) if len(arrays) > 1 else y_true)
    if len(classes) > 2:
        shown = ", ".join(repr(c) for c in classes[:6])
        raise ValueError(f"a binary problem needs at most two labels, found {len(classes)}: {shown}")
    if pos_label not in classes and not (single_class_ok and len(classes) == 1):
        raise ValueError(
            f"pos_label={show(pos_label)} does not occur in the labels, which are {show(classes)}; "
            "pass the label of the class you are looking for"
        )
    return y_true, y_pred, classes


def both_classes(y_true: np.ndarray, pos_label) -> None:
    """Raise unless y_true holds the positive class and at least one other label."""
    n_pos = int(np.sum(y_true == pos_label))
    if n_pos == 0 or n_pos == len(y_true):
        which = "only the positive class" if n_pos else "no example of the positive class"
        raise ValueError(f"y_true holds {which} ({show(pos_label)}); this needs examples of both classes")


def scores(values, name: str = "y_score", probabilities: bool = False) -> np.ndarray:
    """A finite numeric 1-D array; with ``probabilities=True`` also within [0, 1]."""
    arr = as_1d(values, name)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got values of type {arr.dtype}")
    arr = arr.astype(float)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains infinite values")
    if probabilities and ((arr < 0).any() or (arr > 1).any()):
        bad = arr[(arr < 0) | (arr > 1)][:3].tolist()
        raise ValueError(f"{name} must hold probabilities in [0, 1]; found {bad}")
    return arr


def number(value, name: str, low=None, high=None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must lie in [{low}, {high}], got {show(value)}")
    return float(value)
