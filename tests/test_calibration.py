"""Chapter 3's helpers: reliability table, ECE/MCE, Brier decomposition, the explorer widget."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis_profiles import examples
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss
from statsmodels.stats.proportion import proportion_confint

from beyond_accuracy import plots, set_language, term
from beyond_accuracy.explorers import CalibrationExplorer
from beyond_accuracy.metrics import (
    brier_decomposition,
    expected_calibration_error,
    max_calibration_error,
    reliability_table,
)


@st.composite
def forecasts(draw):
    n = draw(st.integers(2, 200))
    p = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)))
    return y, p


@examples(200)
@given(forecasts(), st.integers(1, 20), st.sampled_from(["uniform", "quantile"]))
def test_reliability_table_agrees_with_calibration_curve(data, n_bins, strategy):
    y, p = data
    table = reliability_table(y, p, n_bins=n_bins, strategy=strategy)
    edges = (
        np.linspace(0, 1, n_bins + 1)
        if strategy == "uniform"
        else np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    )
    assume(not np.isin(p, edges[1:-1]).any())  # the two conventions differ only on inner edges
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    assert np.allclose(table["fraction_positive"], prob_true)
    assert np.allclose(table["mean_predicted"], prob_pred)
    assert table["count"].sum() == len(y)
    low, high = proportion_confint(
        np.round(table["fraction_positive"] * table["count"]), table["count"], alpha=0.05, method="wilson"
    )
    assert np.allclose(table["ci_lower"], low, rtol=0, atol=1e-9)
    assert np.allclose(table["ci_upper"], high, rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    "successes, n, low, high",
    [
        # Wilson (1927) 95 % intervals typed from Newcombe (1998), Statistics in Medicine 17, table I
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_reliability_table_wilson_interval_by_hand(successes, n, low, high):
    y = np.r_[np.ones(successes), np.zeros(n - successes)].astype(int)
    table = reliability_table(y, np.full(n, 0.3), n_bins=1)
    assert table[["ci_lower", "ci_upper"]].iloc[0].tolist() == pytest.approx([low, high], abs=5e-5)
    assert proportion_confint(successes, n, method="wilson") == pytest.approx((low, high), abs=5e-5)


def direct_ece(y, p, n_bins):
    """ECE by a plain loop over bins, half-open [a, b) with the last bin closed."""
    edges = np.linspace(0, 1, n_bins + 1)
    total, worst = 0.0, 0.0
    for b in range(n_bins):
        last = b == n_bins - 1
        inside = (p >= edges[b]) & ((p <= edges[b + 1]) if last else (p < edges[b + 1]))
        if inside.any():
            gap = abs(y[inside].mean() - p[inside].mean())
            total += inside.sum() / len(y) * gap
            worst = max(worst, gap)
    return total, worst


@examples(150)
@given(forecasts(), st.integers(1, 15))
def test_ece_and_mce_match_a_direct_computation(data, n_bins):
    y, p = data
    ece, mce = direct_ece(y, p, n_bins)
    assert expected_calibration_error(y, p, n_bins=n_bins) == pytest.approx(ece, abs=1e-12)
    assert max_calibration_error(y, p, n_bins=n_bins) == pytest.approx(mce, abs=1e-12)


def test_ece_of_the_rain_table_by_hand():
    p = np.repeat([0.2, 0.5, 0.8], [100, 200, 100])
    y = np.concatenate(
        [np.repeat([1, 0], [18, 82]), np.repeat([1, 0], [130, 70]), np.repeat([1, 0], [84, 16])]
    )
    assert expected_calibration_error(y, p, n_bins=10) == pytest.approx(0.09)
    assert max_calibration_error(y, p, n_bins=10) == pytest.approx(0.15)


def test_a_probability_on_an_inner_edge_goes_to_the_upper_bin():
    table = reliability_table([0, 1], [0.0, 0.5], n_bins=2)
    assert table["count"].tolist() == [1, 1] and table["bin_lower"].tolist() == [0.0, 0.5]
    prob_true, _ = calibration_curve([0, 1], [0.0, 0.5], n_bins=2)  # scikit-learn: (0, 0.5] holds both
    assert len(prob_true) == 1


def test_one_falls_in_the_last_bin():
    table = reliability_table([1, 1, 0], [1.0, 0.95, 0.0], n_bins=10)
    assert table["bin_upper"].iloc[-1] == 1.0 and table["count"].iloc[-1] == 2


def test_confidence_ece_for_a_probability_matrix():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]])
    y = np.array([0, 1, 0, 2])
    correct = np.array([1, 1, 0, 0])
    confidence = proba.max(axis=1)
    assert expected_calibration_error(y, proba, n_bins=5) == pytest.approx(
        expected_calibration_error(correct, confidence, n_bins=5)
    )
    with pytest.raises(ValueError, match="labels="):
        expected_calibration_error([0, 1, 1, 0], proba, n_bins=5)
    # by hand: the top labels are a (0.7, right), b (0.8, right), c (0.4, wrong), a (0.6, wrong);
    # five bins: [0.4, 0.6) holds 0.4 and 0.6 (gap 0.5), then 0.7 (gap 0.3) and 0.8 (gap 0.2)
    assert expected_calibration_error(y, proba, n_bins=5) == pytest.approx((2 * 0.5 + 0.3 + 0.2) / 4)
    # four bins: [0.25, 0.5) holds 0.4 (gap 0.4), [0.5, 0.75) holds 0.6 and 0.7 (share 1/2, mean 0.65),
    # [0.75, 1] holds 0.8 (gap 0.2)
    by_hand = (0.4 + 2 * 0.15 + 0.2) / 4
    assert expected_calibration_error(["a", "b", "a", "c"], proba, labels=["a", "b", "c"], n_bins=4) == (
        pytest.approx(by_hand)
    )


def test_brier_decomposition_is_exact_when_bins_hold_one_forecast_value():
    rng = np.random.default_rng(1)
    p = rng.choice([0.05, 0.25, 0.45, 0.65, 0.85], size=5000)
    y = (rng.uniform(size=p.size) < p).astype(int)
    rel, res, unc = brier_decomposition(y, p, n_bins=10)
    assert rel - res + unc == pytest.approx(brier_score_loss(y, p), abs=1e-12)
    assert unc == pytest.approx(y.mean() * (1 - y.mean()))


def test_brier_decomposition_is_approximate_with_spread_forecasts():
    rng = np.random.default_rng(2)
    p = rng.uniform(size=20000)
    y = (rng.uniform(size=p.size) < p).astype(int)
    rel, res, unc = brier_decomposition(y, p, n_bins=10)
    gap = abs(rel - res + unc - brier_score_loss(y, p))
    assert 0 < gap < 0.01  # the within-bin spread: small, not zero


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (([0, 1], [0.2, 1.2]), {}, r"\[0, 1\]"),
        (([0, 1], [0.2, np.nan]), {}, "missing"),
        (([0, 1, 1], [0.2, 0.3]), {}, "same length"),
        (([0, 2], [0.2, 0.3]), {}, "0/1"),
        (([0, 1], [0.2, 0.3]), {"n_bins": 0}, "n_bins"),
        (([0, 1], [0.2, 0.3]), {"strategy": "kmeans"}, "strategy"),
        (([], []), {}, "empty"),
    ],
)
@pytest.mark.parametrize(
    "func", [reliability_table, expected_calibration_error, max_calibration_error, brier_decomposition]
)
def test_calibration_functions_validate(func, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        func(*args, **kwargs)


def explorer_data():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=400)
    y = (rng.uniform(size=p.size) < p).astype(int)
    sharp = np.clip(p**3 / (p**3 + (1 - p) ** 3), 0, 1)
    return y, {("A", "none"): sharp, ("A", "temperature"): p, ("B", "none"): p, ("B", "temperature"): p}


def test_explorer_summary_by_hand_and_counts_changed_decisions():
    y = np.array([1, 0, 1, 0, 1, 0])
    raw = np.array([0.9, 0.6, 0.4, 0.2, 0.5, 0.1])
    calibrated = np.array([0.8, 0.45, 0.55, 0.2, 0.49, 0.35])
    probs = {
        ("A", "none"): raw,
        ("A", "temperature"): calibrated,
        ("B", "none"): raw,
        ("B", "temperature"): raw,
    }
    s = CalibrationExplorer(y, probs).summary("A", "temperature")
    # squared gaps 0.04, 0.2025, 0.2025, 0.04, 0.2601, 0.1225
    assert s["brier"] == pytest.approx(0.8676 / 6)
    assert s["log_loss"] == pytest.approx(-np.log([0.8, 0.55, 0.55, 0.8, 0.49, 0.65]).sum() / 6)
    assert s["roc_auc"] == 1.0  # every positive (0.8, 0.55, 0.49) above every negative (0.45, 0.2, 0.35)
    # ten bins: 0.45 and 0.49 share [0.4, 0.5) (share 1/2, mean 0.47); the others are alone
    assert s["ece"] == pytest.approx((0.2 + 2 * 0.03 + 0.45 + 0.2 + 0.35) / 6)
    # flagged at 0.5 (>=): raw 0.9, 0.6, 0.5; calibrated 0.8, 0.55: items 1, 2 and 4 change
    assert s["decisions_changed"] == 3
    assert CalibrationExplorer(y, probs).summary("B", "none")["decisions_changed"] == 0
    # at 0.45 only item 2 changes (0.4 -> 0.55): 0.6 -> 0.45 and 0.5 -> 0.49 stay flagged
    assert CalibrationExplorer(y, probs, threshold=0.45).summary("A", "temperature")["decisions_changed"] == 1


def test_explorer_validates():
    y, probs = explorer_data()
    with pytest.raises(ValueError, match="uncalibrated entry"):
        CalibrationExplorer(y, {("A", "temperature"): probs[("A", "none")]})
    with pytest.raises(ValueError, match="string pairs"):
        CalibrationExplorer(y, {"A": probs[("A", "none")]})
    with pytest.raises(ValueError, match="no probabilities"):
        CalibrationExplorer(y, probs).summary("C", "none")


def test_reliability_plot_is_localised():
    set_language("fi")
    y, probs = explorer_data()
    fig = plots.plot_reliability_diagram(y, {"A": probs[("A", "none")]})
    labels = {ax.get_ylabel() for ax in fig.axes} | {ax.get_xlabel() for ax in fig.axes}
    assert term("observed_frequency_axis") in labels and term("mean_predicted_axis") in labels
    with pytest.raises(ValueError, match="non-empty dict"):
        plots.plot_reliability_diagram(y, [0.1])


def test_reliability_plot_survives_bins_with_no_positive():
    y = np.zeros(50, dtype=int)
    y[-1] = 1
    p = np.linspace(0.001, 0.3, 50)  # step 0.299/49: 17 below 0.1, 16 in [0.1, 0.2), 17 from 0.2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero, no NaN on the way
        fig = plots.plot_reliability_diagram(y, {"m": p}, n_bins=10)
    ax, ax_n = fig.axes
    (bars,) = ax.containers
    points = bars.lines[0].get_xydata()
    assert points[:, 1].tolist() == pytest.approx([0, 0, 1 / 17])
    assert points[:, 0] == pytest.approx([p[:17].mean(), p[17:33].mean(), p[33:].mean()])
    (segments,) = bars.lines[2]
    spans = [tuple(segment[:, 1]) for segment in segments.get_segments()]
    expected = [proportion_confint(k, n, method="wilson") for k, n in ((0, 17), (0, 16), (1, 17))]
    assert spans == [pytest.approx(e, abs=1e-12) for e in expected]
    assert [bar.get_height() for bar in ax_n.patches] == [17, 16, 17]


# --- found by mutation testing (make mutation): defaults and messages --------


def test_calibration_errors_default_to_ten_uniform_bins():
    rng = np.random.default_rng(4)
    p = rng.uniform(0, 1, 300)
    y = (rng.uniform(0, 1, p.size) < p**2).astype(int)
    assert max_calibration_error(y, p) == max_calibration_error(y, p, n_bins=10)
    assert expected_calibration_error(y, p) == expected_calibration_error(y, p, n_bins=10)
    assert max_calibration_error(y, p, n_bins=10) != max_calibration_error(y, p, n_bins=11)


def test_pos_label_with_one_column_of_probabilities():
    y = np.array(["no", "yes", "yes", "no", "yes"])
    p = np.array([0.2, 0.9, 0.6, 0.4, 0.3])
    as_ints = (y == "yes").astype(int)
    assert expected_calibration_error(y, p, pos_label="yes", n_bins=2) == pytest.approx(
        expected_calibration_error(as_ints, p, n_bins=2)
    )
    with pytest.raises(ValueError, match="^y_true must be 1-D"):
        expected_calibration_error([["no", "yes"]], [0.2, 0.9], pos_label="yes")


def test_calibration_messages_name_the_problem():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.4, 0.1]])
    with pytest.raises(ValueError, match="^kind must be 'binary', 'confidence' or None, got 'bin'$"):
        expected_calibration_error([0, 1, 2, 0], proba, kind="bin")
    with pytest.raises(ValueError, match="kind='confidence' for the calibration of the confidence"):
        expected_calibration_error([0, 1], np.array([[0.4, 0.6], [0.9, 0.1]]))
    with pytest.raises(ValueError, match="same length"):
        expected_calibration_error([0, 1, 2], proba, labels=[0, 1, 2], kind="confidence")


def test_reliability_and_brier_default_to_ten_bins():
    # 0.01 and 0.095 share the first of ten bins, [0, 0.1), but not of eleven
    table = reliability_table([0, 1], [0.01, 0.095])
    assert table[["bin_lower", "bin_upper", "count"]].values.tolist() == [[0.0, 0.1, 2]]
    assert table["mean_predicted"].tolist() == pytest.approx([0.0525])
    assert brier_decomposition([0, 1], [0.01, 0.095]) == pytest.approx((0.4475**2, 0.0, 0.25))


def test_n_bins_limits():
    table = reliability_table([0, 1], [0.2, 0.9], n_bins=10_000)
    assert table["bin_lower"].tolist() == pytest.approx([0.2, 0.9])
    message = (
        r"^n_bins must be at most 10,000, got 10,001: the bins cost memory whether or not a prediction "
        r"falls in them, and so many bins hold too few predictions each to estimate anything$"
    )
    with pytest.raises(ValueError, match=message):
        reliability_table([0, 1], [0.2, 0.9], n_bins=10_001)
    for bad in (True, 2.5):
        with pytest.raises(ValueError, match=f"^n_bins must be a positive whole number, got {bad}$"):
            reliability_table([0, 1], [0.2, 0.9], n_bins=bad)


@pytest.mark.parametrize(
    "y, p, message",
    [
        ([0, 1], [0.2, 1.2], r"^y_prob must hold probabilities in \[0, 1\]; found \[1.2\]$"),
        ([0, 1, 1], [0.2, 0.3], r"^inputs must have the same length: y_true has 3, y_prob has 2$"),
        ([0, np.nan], [0.2, 0.3], r"^y_true contains missing values \(NaN/None\) at positions \[1\]$"),
        (
            list(range(7)),
            [0.5] * 7,
            r"^y_true must hold 0/1 labels \(1 = the positive class\), found \[0, 1, 2, 3, 4\]$",
        ),
    ],
)
def test_binary_calibration_messages(y, p, message):
    with pytest.raises(ValueError, match=message):
        reliability_table(y, p)


def test_binary_kind_uses_the_column_of_pos_label():
    y = [0, 1, 1]
    proba = np.array([[0.5, 0.5], [0.2, 0.8], [0.9, 0.1]])
    # pos_label=0: outcomes 1, 0, 0 at 0.5, 0.2, 0.9; [0, 0.5) holds 0.2 (gap 0.2), [0.5, 1] holds 0.5
    # and 0.9 (one positive, sum 1.4: gap 0.4 over two)
    kw = {"n_bins": 2, "kind": "binary"}
    assert expected_calibration_error(y, proba, pos_label=0, **kw) == pytest.approx(0.6 / 3)
    assert max_calibration_error(y, proba, pos_label=0, **kw) == pytest.approx(0.2)
    # default, the larger label 1: outcomes 0, 1, 1 at 0.5, 0.8, 0.1: gaps 0.9 and |1 - 1.3| over two
    assert expected_calibration_error(y, proba, **kw) == pytest.approx(1.2 / 3)
    assert max_calibration_error(y, proba, **kw) == pytest.approx(0.9)
    # labels=[1, 0]: the last label, 0, is the positive class, in column 1: outcomes 1, 0, 0 at 0.5,
    # 0.8, 0.1: gaps 0.1 and |1 - 1.3| over two
    assert expected_calibration_error(y, proba, labels=[1, 0], **kw) == pytest.approx(0.4 / 3)
    assert max_calibration_error(y, proba, labels=[1, 0], **kw) == pytest.approx(0.15)


def test_confidence_ece_with_a_class_missing_from_y_true():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
    # confidences 0.7 (right), 0.8 (right), 0.4 (wrong), each alone in one of ten bins
    assert expected_calibration_error([0, 1, 1], proba, labels=[0, 1, 2]) == pytest.approx(
        (0.3 + 0.2 + 0.4) / 3
    )


THREE = np.full((3, 3), 1 / 3)


@pytest.mark.parametrize(
    "y, proba, kwargs, message",
    [
        (
            [0, 1, 2],
            THREE,
            {"kind": "binary"},
            r"^kind='binary' needs a binary problem, but y_prob has 3 columns; use kind='confidence', or "
            r"pass the probability of one class against the rest$",
        ),
        (
            [0, 1],
            np.array([[0.4, 0.6], [0.9, 0.1]]),
            {},
            r"^y_prob has two columns, so it is ambiguous which ECE you want: pass kind='binary' for the "
            r"calibration of the positive-class probability \(the column of pos_label, as in "
            r"calibration_curve\(y, proba\[:, 1\]\)\) or kind='confidence' for the calibration of the "
            r"confidence \(the largest probability against whether that class is right\)$",
        ),
        (
            [0, 1],
            [0.4, 0.6],
            {"kind": "confidence"},
            r"^kind='confidence' needs the \(n, K\) matrix of predict_proba; a 1-D y_prob holds the "
            r"positive-class probabilities \(kind='binary'\)$",
        ),
        (
            [0, 1],
            np.array([[0.4, 0.6], [0.9, 0.1]]),
            {"kind": "binary", "pos_label": 5},
            r"^pos_label=5 is not one of the labels \[0, 1\]$",
        ),
        (
            [0, 1, 0],
            THREE,
            {},
            r"^y_prob has 3 columns but 2 labels are known \[0, 1\]; pass labels= in the column order of "
            r"predict_proba$",
        ),
        (
            list(range(7)),
            np.full((7, 3), 1 / 3),
            {},
            r"^y_prob has 3 columns but 7 labels are known \[0, 1, 2, 3, 4, 5\];",
        ),
        (
            list(range(9)),
            np.full((9, 3), 1 / 3),
            {"labels": [0, 1, 2]},
            r"^y_true holds labels not in labels: \[3, 4, 5, 6, 7\]$",
        ),
        (
            [0, 1, 1],
            np.full((3, 1), 0.5),
            {},
            r"^a 2-D y_prob needs one column per class, got shape \(3, 1\)$",
        ),
        ([0, 1, 2], np.full((3, 3), "a"), {}, r"^y_prob must be numeric$"),
        (
            [0, 1, 2],
            THREE * 3.6,
            {},
            r"^y_prob must hold probabilities in \[0, 1\]; found \[1.2, 1.2, 1.2\]$",
        ),
        ([0, np.nan, 2], THREE, {}, r"^y_true contains missing values \(NaN/None\) at positions \[1\]$"),
    ],
)
def test_probability_matrix_messages(y, proba, kwargs, message):
    for func in (expected_calibration_error, max_calibration_error):
        with pytest.raises(ValueError, match=message):
            func(y, proba, **kwargs)
