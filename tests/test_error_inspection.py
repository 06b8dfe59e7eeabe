"""Chapter 5's helpers: per-example loss, label corruption and the hunt for wrong labels."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_profiles import examples
from sklearn.metrics import log_loss

from beyond_accuracy import datasets, plots, set_language, term
from beyond_accuracy.metrics import (
    hunt_curve,
    per_example_log_loss,
    precision_at_k,
    recall_at_k,
    review_budget,
)


@st.composite
def problems(draw):
    k = draw(st.integers(2, 5))
    n = draw(st.integers(1, 30))
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    raw = draw(st.lists(st.lists(st.floats(0, 1), min_size=k, max_size=k), min_size=n, max_size=n))
    p = np.array(raw) + 1e-3
    p = p / p.sum(axis=1, keepdims=True)
    if draw(st.booleans()):  # include exact zeros and ones, which log_loss clips
        p[0] = 0.0
        p[0, 0] = 1.0
    return np.array(y), p, list(range(k))


@examples(80)
@given(problems())
def test_per_example_loss_equals_sklearn_log_loss_row_by_row(problem):
    y, p, labels = problem
    losses = per_example_log_loss(y, p, labels=labels)
    for i in range(len(y)):
        assert losses[i] == pytest.approx(log_loss(y[i : i + 1], p[i : i + 1], labels=labels), rel=1e-12)
    assert losses.mean() == pytest.approx(log_loss(y, p, labels=labels), rel=1e-12)


def test_per_example_loss_binary_and_string_labels():
    y = np.array(["spam", "ham", "ham", "spam"])
    p = np.array([[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]])
    assert per_example_log_loss(y, p).mean() == pytest.approx(log_loss(y, p))
    assert per_example_log_loss([0, 1, 1], [0.2, 0.7, 0.4]) == pytest.approx(-np.log([0.8, 0.7, 0.4]))


@pytest.mark.parametrize(
    "y, p, kwargs, message",
    [
        ([0, 1], [[0.5, 0.5]], {}, "same length"),
        ([0, 1], [[0.5, 0.6], [0.5, 0.5]], {}, "sum to 1"),
        ([0, 1], [[1.5, -0.5], [0.5, 0.5]], {}, r"\[0, 1\]"),
        ([0, 1], [[np.nan, 1], [0.5, 0.5]], {}, "NaN"),
        ([0, 0], [[0.5, 0.5], [0.5, 0.5]], {}, "single label"),
        ([0, 3], [[0.5, 0.5], [0.5, 0.5]], {"labels": [0, 1]}, "not in labels"),
        ([0, 1], [[0.2, 0.3, 0.5], [0.5, 0.25, 0.25]], {}, "3 columns"),
        ([], [], {}, "empty"),
    ],
)
def test_per_example_loss_validates(y, p, kwargs, message):
    with pytest.raises(ValueError, match=message):
        per_example_log_loss(y, p, **kwargs)


def test_corrupt_labels_exact_count_and_other_class():
    y = np.repeat(np.arange(10), 50)
    noisy, corrupted = datasets.corrupt_labels(y, 0.05, random_state=3)
    assert corrupted.sum() == round(0.05 * 500)
    assert np.all(noisy[corrupted] != y[corrupted]) and np.all(noisy[~corrupted] == y[~corrupted])
    again, _ = datasets.corrupt_labels(y, 0.05, random_state=3)
    assert np.array_equal(noisy, again)
    s = pd.Series(y, name="digit")
    noisy_s, _ = datasets.corrupt_labels(s, 0.1)
    assert isinstance(noisy_s, pd.Series) and noisy_s.name == "digit"


def test_corrupted_labels_are_spread_uniformly_over_the_other_classes():
    y = np.zeros(30_000, dtype=int)
    y[:10_000], y[10_000:20_000] = 1, 2
    noisy, corrupted = datasets.corrupt_labels(y, 0.5, random_state=0)
    from_zero = noisy[corrupted & (y == 0)]
    share_one = np.mean(from_zero == 1)
    assert 0.47 < share_one < 0.53


@pytest.mark.parametrize(
    "args, message",
    [(([0, 0, 0], 0.5), "single class"), (([0, 1], 1.5), "fraction"), (([0, np.nan], 0.5), "missing")],
)
def test_corrupt_labels_validates(args, message):
    with pytest.raises(ValueError, match=message):
        datasets.corrupt_labels(*args)


def test_hunt_metrics_by_hand():
    is_error = np.array([False, True, False, True, False, False])
    scores = np.array([0.1, 3.0, 2.0, 1.0, 0.2, 0.3])  # ranking: 1 (err), 2, 3 (err), 5, 4, 0
    assert precision_at_k(is_error, scores, 1) == 1.0
    assert precision_at_k(is_error, scores, 2) == 0.5
    assert recall_at_k(is_error, scores, 3) == 1.0
    assert review_budget(is_error, scores, 0.5) == 1
    assert review_budget(is_error, scores, 1.0) == 3
    curve = hunt_curve(is_error, scores)
    assert curve["found"].tolist() == [1, 1, 2, 2, 2, 2]


def test_hunt_metrics_validate():
    with pytest.raises(ValueError, match="nothing to find"):
        precision_at_k([False, False], [0.1, 0.2], 1)
    with pytest.raises(ValueError, match="k must be"):
        precision_at_k([True, False], [0.1, 0.2], 3)
    with pytest.raises(ValueError, match="same length"):
        recall_at_k([True, False], [0.1], 1)
    with pytest.raises(ValueError, match="booleans"):
        hunt_curve([2, 0], [0.1, 0.2])


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_error_inspection_plots(lang):
    set_language(lang)
    rng = np.random.default_rng(0)
    is_error = rng.uniform(size=200) < 0.1
    scores = rng.normal(size=200) + 2 * is_error
    curve = hunt_curve(is_error, scores)
    ax = plots.plot_hunt_curves(curve)
    assert term("examples_reviewed") in {
        t.get_text() for t in ax.figure.findobj(lambda o: hasattr(o, "get_text"))
    }
    ax = plots.plot_review_budget(curve)
    assert ax.get_ylabel() == term("errors_found_share")
    fig = plots.plot_image_gallery(rng.uniform(size=(5, 64)), [1, 2, 3, 4, 5], [1, 2, 3, 4, 6], ncols=3)
    assert term("given_label") in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="same length"):
        plots.plot_image_gallery(rng.uniform(size=(5, 64)), [1, 2], [1, 2])
    with pytest.raises(ValueError, match="lacks the columns"):
        plots.plot_hunt_curves(pd.DataFrame({"k": [1]}))


def test_hunt_curve_rates_by_hand():
    is_error = np.array([False, True, False, True, False, False])
    scores = np.array([0.1, 3.0, 2.0, 1.0, 0.2, 0.3])  # found after k = 1 … 6: 1, 1, 2, 2, 2, 2
    curve = hunt_curve(is_error, scores)
    assert curve["precision"].tolist() == pytest.approx([1, 1 / 2, 2 / 3, 2 / 4, 2 / 5, 2 / 6])
    assert curve["recall"].tolist() == [0.5, 0.5, 1, 1, 1, 1]
    assert recall_at_k(is_error, scores, 1) == 0.5
    assert precision_at_k(is_error, scores, 6) == pytest.approx(1 / 3)  # k = n: everything opened
    counted = hunt_curve([0, 1, 1], [0.3, 0.2, 0.1])["found"]
    assert pd.api.types.is_integer_dtype(counted) and counted.tolist() == [0, 1, 2]


def test_ties_keep_the_data_order():
    scores = np.tile([0.0, 1.0], 10)  # ten ties at 1.0: indices 1, 3, 5, … in this order
    is_error = np.zeros(20, dtype=bool)
    is_error[5] = True
    assert review_budget(is_error, scores, 1.0) == 3
    assert hunt_curve(is_error, scores)["found"].tolist()[:4] == [0, 0, 1, 1]


def test_review_budget_reaches_a_recall_within_rounding():
    is_error = np.array([False, True, False, True, False, False])
    scores = np.array([0.1, 3.0, 2.0, 1.0, 0.2, 0.3])
    assert review_budget(is_error, scores, 0.5 + 1e-12) == 1


@pytest.mark.parametrize("recall", [1.5, -0.5])
def test_review_budget_recall_message(recall):
    with pytest.raises(ValueError, match=rf"^recall must lie in \[0, 1\], got {recall}$"):
        review_budget([True, False], [0.1, 0.2], recall)


@pytest.mark.parametrize("k", [True, 1.0, 7, 0])
def test_k_message(k):
    with pytest.raises(ValueError, match=rf"^k must be a whole number between 1 and 6, got {k}$"):
        precision_at_k([True] + [False] * 5, np.arange(6.0), k)


@pytest.mark.parametrize(
    "is_error, scores, message",
    [
        (
            [2, 0],
            [0.1, 0.2],
            r"^is_error must be booleans \(or 0/1\): True where the label is known to be wrong$",
        ),
        (5, [0.1], r"^is_error must be a 1-D sequence of values, got a single value 5$"),
        ([True, False], [0.1, np.inf], r"^scores contains infinite values$"),
        ([False, False], [0.1, 0.2], r"^is_error marks no example as an error: there is nothing to find$"),
    ],
)
def test_ranking_messages(is_error, scores, message):
    with pytest.raises(ValueError, match=message):
        hunt_curve(is_error, scores)


def test_per_example_loss_clips_like_log_loss():
    eps = np.finfo(np.float64).eps
    expected = [-np.log1p(-eps)] * 2  # a sure, right prediction: -log(1 - eps), as in log_loss
    for proba in ([[1, 0], [0, 1]], [[1.0, 0.0], [0.0, 1.0]]):
        losses = per_example_log_loss([0, 1], proba)
        assert losses.tolist() == pytest.approx(expected, rel=1e-12, abs=0)
        assert losses.mean() == pytest.approx(log_loss([0, 1], proba), rel=1e-12, abs=0)


def test_per_example_loss_rows_must_sum_to_one_within_sqrt_eps():
    with pytest.raises(ValueError, match=r"^each row of proba must sum to 1$"):
        per_example_log_loss([0, 1], [[0.5, 0.500001], [0.5, 0.5]])


@pytest.mark.parametrize(
    "y, p, kwargs, message",
    [
        ([0, 1], [0.2, 1.4], {}, r"^proba must hold probabilities in \[0, 1\]; found \[1.4\]$"),
        ([0, 1], [[1.5, 0.0], [0.5, 0.5]], {}, r"^proba must hold probabilities in \[0, 1\]$"),
        ([0, 1], [[-0.5, 0.0], [0.5, 0.5]], {}, r"^proba must hold probabilities in \[0, 1\]$"),
        ([0, 1], [["a", "b"], ["c", "d"]], {}, r"^proba must be numeric, got values of type <U1$"),
        ([0, 1], np.full((2, 2, 2), 0.5), {}, r"^proba must be 1-D or 2-D, got shape \(2, 2, 2\)$"),
        ([0, 1], [[np.nan, 1], [0.5, 0.5]], {}, r"^proba contains missing values \(NaN\)$"),
        ([0, np.nan], [0.2, 0.3], {}, r"^y_true contains missing values \(NaN/None\) at positions \[1\]$"),
        (
            [0, 0],
            [[0.5, 0.5], [0.5, 0.5]],
            {},
            r"^y_true holds a single label; pass labels= to say which column is which$",
        ),
        (
            [0, 1],
            [0.2, 0.3],
            {"labels": "ab"},
            r"^labels must be a 1-D sequence of values, got a single value 'ab'$",
        ),
        ([0, 1], [0.2, 0.3], {"labels": [1, 1]}, r"^labels must be distinct$"),
        (
            list(range(9)),
            np.full((9, 3), 1 / 3),
            {"labels": [0, 1, 2]},
            r"^y_true holds labels not in labels: \[3, 4, 5, 6, 7\]$",
        ),
    ],
)
def test_per_example_loss_messages(y, p, kwargs, message):
    with pytest.raises(ValueError, match=message):
        per_example_log_loss(y, p, **kwargs)
