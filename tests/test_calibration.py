"""Chapter 3's helpers: reliability table, ECE/MCE, Brier decomposition, the explorer widget."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score

from beyond_accuracy import plots, set_language, term
from beyond_accuracy.metrics import (
    brier_decomposition,
    expected_calibration_error,
    max_calibration_error,
    reliability_table,
)
from beyond_accuracy.widgets import CalibrationExplorer


@st.composite
def forecasts(draw):
    n = draw(st.integers(2, 200))
    p = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)))
    return y, p


@settings(max_examples=200, deadline=None)
@given(forecasts(), st.integers(1, 20), st.sampled_from(["uniform", "quantile"]))
def test_reliability_table_agrees_with_calibration_curve(data, n_bins, strategy):
    y, p = data
    table = reliability_table(y, p, n_bins=n_bins, strategy=strategy)
    edges = (
        np.linspace(0, 1, n_bins + 1)
        if strategy == "uniform"
        else np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    )
    if np.isin(p, edges[1:-1]).any():  # the two conventions differ only on inner edges
        return
    try:
        prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    except ValueError:  # scikit-learn refuses a single class; our table does not need both
        return
    assert np.allclose(table["fraction_positive"], prob_true)
    assert np.allclose(table["mean_predicted"], prob_pred)
    assert table["count"].sum() == len(y)
    assert (
        (table["ci_lower"] <= table["fraction_positive"] + 1e-12)
        & (table["fraction_positive"] <= table["ci_upper"] + 1e-12)
    ).all()


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


@settings(max_examples=150, deadline=None)
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


def test_top_label_ece_for_a_probability_matrix():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]])
    y = np.array([0, 1, 0, 2])
    correct = np.array([1, 1, 0, 0])
    confidence = proba.max(axis=1)
    assert expected_calibration_error(y, proba, n_bins=5) == pytest.approx(
        expected_calibration_error(correct, confidence, n_bins=5)
    )
    with pytest.raises(ValueError, match="labels="):
        expected_calibration_error([0, 1, 1, 0], proba, n_bins=5)
    assert expected_calibration_error(["a", "b", "a", "c"], proba, labels=["a", "b", "c"]) >= 0


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


def test_explorer_summary_matches_sklearn_and_counts_changed_decisions():
    y, probs = explorer_data()
    explorer = CalibrationExplorer(y, probs)
    s = explorer.summary("A", "temperature")
    p = probs[("A", "temperature")]
    assert s["brier"] == pytest.approx(brier_score_loss(y, p))
    assert s["log_loss"] == pytest.approx(log_loss(y, p))
    assert s["roc_auc"] == pytest.approx(roc_auc_score(y, p))
    assert s["ece"] == pytest.approx(expected_calibration_error(y, p))
    changed = np.sum((p >= 0.5) != (probs[("A", "none")] >= 0.5))
    assert s["decisions_changed"] == changed
    assert explorer.summary("B", "none")["decisions_changed"] == 0


def test_explorer_widget_callback_redraws():
    set_language("it")
    y, probs = explorer_data()
    explorer = CalibrationExplorer(y, probs)
    box = explorer.widget()
    model_menu, calibrator_menu = box.children[0].children
    assert model_menu.description == term("model") and calibrator_menu.description == term("calibrator")
    assert explorer.selection == ("A", "none")  # drawn once when created
    calibrator_menu.value = "temperature"  # fires the callback, as a click would
    assert explorer.selection == ("A", "temperature")
    assert explorer.last_summary.equals(explorer.summary("A", "temperature"))
    model_menu.value = "B"
    assert explorer.selection == ("B", "temperature")
    assert explorer.update("B", "none")["decisions_changed"] == 0


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
    p = np.linspace(0.001, 0.3, 50)
    plots.plot_reliability_diagram(y, {"m": p}, n_bins=10)


# --- found by mutation testing (make mutation): the Wilson interval, defaults and messages --------


def test_wilson_interval_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(3)
    p = rng.uniform(0, 1, 400)
    y = (rng.uniform(0, 1, p.size) < p).astype(int)
    table = reliability_table(y, p, n_bins=10)
    positives = np.round(table["fraction_positive"] * table["count"]).astype(int)
    low, high = proportion_confint(positives, table["count"], alpha=0.05, method="wilson")
    assert table["ci_lower"].to_numpy() == pytest.approx(np.asarray(low), abs=1e-12)
    assert table["ci_upper"].to_numpy() == pytest.approx(np.asarray(high), abs=1e-12)


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
    with pytest.raises(ValueError, match="^kind must be 'binary', 'top-label' or None, got 'bin'$"):
        expected_calibration_error([0, 1, 2, 0], proba, kind="bin")
    with pytest.raises(ValueError, match="kind='top-label' for the calibration of the confidence"):
        expected_calibration_error([0, 1], np.array([[0.4, 0.6], [0.9, 0.1]]))
    with pytest.raises(ValueError, match="same length"):
        expected_calibration_error([0, 1, 2], proba, labels=[0, 1, 2], kind="top-label")
