"""Input checks shared by the public functions: each raises ValueError naming what was wrong."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd


def as_1d(values, name: str) -> np.ndarray:
    """A non-empty 1-D array without missing values."""
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise ValueError(f"{name} must be a 1-D sequence of values, got a single value {values!r}")
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


def binary_labels(y_true, y_pred=None, pos_label=1):
    """Validate a binary problem; return (y_true, y_pred) as arrays and the sorted classes seen."""
    y_true = as_1d(y_true, "y_true")
    arrays = [y_true]
    if y_pred is not None:
        y_pred = as_1d(y_pred, "y_pred")
        same_length(y_true=y_true, y_pred=y_pred)
        arrays.append(y_pred)
    classes = distinct(np.concatenate(arrays) if len(arrays) > 1 else y_true)
    if len(classes) > 2:
        shown = ", ".join(repr(c) for c in classes[:6])
        raise ValueError(f"a binary problem needs at most two labels, found {len(classes)}: {shown}")
    if pos_label not in classes:
        raise ValueError(
            f"pos_label={pos_label!r} does not occur in the labels, which are {classes}; "
            "pass the label of the class you are looking for"
        )
    return y_true, y_pred, classes


def both_classes(y_true: np.ndarray, pos_label) -> None:
    """Raise unless y_true holds the positive class and at least one other label."""
    n_pos = int(np.sum(y_true == pos_label))
    if n_pos == 0 or n_pos == len(y_true):
        which = "only the positive class" if n_pos else "no example of the positive class"
        raise ValueError(f"y_true holds {which} ({pos_label!r}); this needs examples of both classes")


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
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must lie in [{low}, {high}], got {value!r}")
    return float(value)
