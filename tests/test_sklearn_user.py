"""The helper package as a scikit-learn user holds it: dtypes, estimator
parameters, plots that draw every series, clear errors and the edge cases of a normal day."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix_at_thresholds, log_loss
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from beyond_accuracy import datasets, metrics, plots
from beyond_accuracy.metrics import (
    binary_scores,
    confusion_counts,
    cost_threshold,
    expected_calibration_error,
    expected_cost,
    hunt_curve,
    max_calibration_error,
    per_example_log_loss,
    reliability_table,
    review_budget,
    threshold_table,
)
from beyond_accuracy.ordinal import OrdinalLogisticRegression


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --- per_example_log_loss accepts float32 as log_loss does ---------------------------------------


def test_per_example_log_loss_float32_from_an_mlp():
    from sklearn.neural_network import MLPClassifier

    X, y = make_classification(n_samples=300, n_classes=3, n_informative=4, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        proba = (
            MLPClassifier(max_iter=50, random_state=0)
            .fit(X.astype(np.float32), y)
            .predict_proba(X.astype(np.float32))
        )
    assert proba.dtype == np.float32
    losses = per_example_log_loss(y, proba)
    assert losses.dtype == np.float32
    assert losses.mean() == pytest.approx(log_loss(y, proba), rel=1e-6)


def test_per_example_log_loss_clips_with_the_dtypes_epsilon():
    # a float32 probability of exactly 0 for the true class: log_loss clips at float32's epsilon
    proba = np.array([[1.0, 0.0], [0.3, 0.7], [0.6, 0.4]], dtype=np.float32)
    y = np.array([1, 1, 0])
    losses = per_example_log_loss(y, proba)
    assert losses[0] == pytest.approx(-np.log(np.finfo(np.float32).eps), rel=1e-6)
    assert losses.mean() == pytest.approx(log_loss(y, proba), rel=1e-6)
    # rows that sum to 1 only within float32's tolerance are accepted, as log_loss accepts them
    p = np.float32(1 / 3)
    assert per_example_log_loss([0, 1, 2], np.full((3, 3), p, dtype=np.float32)).shape == (3,)


# --- expected_calibration_error: binary and confidence cannot be confused -------------------------


def _lab3_logistic_regression():
    X, y = datasets.load_biopsies()
    X_fit, X_eval, y_fit, y_eval = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_fit, y_fit)
    return y_eval.to_numpy(), model.predict_proba(X_eval)


def test_two_column_predict_proba_needs_a_kind():
    y, proba = _lab3_logistic_regression()
    for func in (expected_calibration_error, max_calibration_error):
        with pytest.raises(ValueError, match="kind='binary'.*kind='confidence'"):
            func(y, proba)
    binary = expected_calibration_error(y, proba, kind="binary")
    assert binary == expected_calibration_error(y, proba[:, 1])
    top = expected_calibration_error(y, proba, kind="confidence")
    correct = (proba.argmax(axis=1) == y).astype(int)
    assert top == expected_calibration_error(correct, proba.max(axis=1))
    assert binary != top
    assert max_calibration_error(y, proba, kind="binary") == max_calibration_error(y, proba[:, 1])
    # the other column is the positive class when asked
    assert expected_calibration_error(y, proba, kind="binary", pos_label=0) == pytest.approx(
        expected_calibration_error(1 - y, proba[:, 0])
    )


def test_calibration_defaults_the_notebooks_use_are_unchanged_and_silent():
    ex_conf = np.array([[0.9, 0.05, 0.05], [0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]])
    ex_true = np.array([0, 1, 1, 2])
    ex_p = np.repeat([0.2, 0.5, 0.8], [100, 200, 100])
    ex_y = np.concatenate(
        [np.r_[np.ones(r), np.zeros(d - r)] for d, r in zip([100, 200, 100], [18, 110, 84])]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert expected_calibration_error(ex_true, ex_conf, n_bins=1) == pytest.approx(0.025)
        assert expected_calibration_error(ex_true, ex_conf, n_bins=1, kind="confidence") == pytest.approx(
            0.025
        )
        assert expected_calibration_error(ex_y, ex_p) == pytest.approx(
            (2 * 100 + 5 * 200 + 4 * 100) / 100 / 400
        )
    with pytest.raises(ValueError, match="kind=.confidence."):
        expected_calibration_error(ex_true, ex_conf, kind="binary")
    with pytest.raises(ValueError, match="kind must be"):
        expected_calibration_error(ex_y, ex_p, kind="positive")


# --- OrdinalLogisticRegression -------------------------------------------------------------------


def _ordinal_data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    latent = X @ [1.0, -0.5, 0.25] + rng.logistic(size=n)
    return X, np.digitize(latent, [-1.0, 0.0, 1.2]) + 1


def test_sample_weight_agrees_with_repeated_rows():
    X, y = _ordinal_data()
    w = np.random.default_rng(1).integers(0, 4, size=len(y))
    weighted = OrdinalLogisticRegression().fit(X, y, sample_weight=w)
    repeated = OrdinalLogisticRegression().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(weighted.cut_points_, repeated.cut_points_, rtol=1e-6, atol=1e-8)
    unit = OrdinalLogisticRegression().fit(X, y, sample_weight=np.ones(len(y)))
    np.testing.assert_allclose(unit.coef_, OrdinalLogisticRegression().fit(X, y).coef_, rtol=1e-8)


def test_sample_weight_agrees_with_weighted_statsmodels():
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    X, y = _ordinal_data(n=120, seed=3)
    w = np.random.default_rng(2).integers(1, 3, size=len(y))
    ours = OrdinalLogisticRegression().fit(X, y, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = OrderedModel(np.repeat(y, w), np.repeat(X, w, axis=0), distr="logit")
        result = rep.fit(method="bfgs", disp=False, maxiter=5000, gtol=1e-10)
    np.testing.assert_allclose(ours.coef_, result.params[:3], rtol=1e-4, atol=1e-6)


def test_unconverged_fit_warns():
    X, y = _ordinal_data()
    with pytest.warns(ConvergenceWarning, match="did not converge in 3 iterations"):
        OrdinalLogisticRegression(max_iter=3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        OrdinalLogisticRegression().fit(X, y)  # a converged fit says nothing


def test_string_classes_keep_the_order_given():
    X, y = _ordinal_data()
    names = np.array(["low", "medium", "high", "very high"])[y - 1]
    by_number = OrdinalLogisticRegression().fit(X, y)
    given = OrdinalLogisticRegression(classes=["low", "medium", "high", "very high"]).fit(X, names)
    assert given.classes_.tolist() == ["low", "medium", "high", "very high"]
    np.testing.assert_allclose(given.coef_, by_number.coef_)
    np.testing.assert_allclose(given.predict_proba(X), by_number.predict_proba(X))
    ordered = pd.Series(
        pd.Categorical(names, categories=["low", "medium", "high", "very high"], ordered=True)
    )
    from_categorical = OrdinalLogisticRegression().fit(X, ordered)
    assert from_categorical.classes_.tolist() == ["low", "medium", "high", "very high"]
    np.testing.assert_allclose(from_categorical.coef_, by_number.coef_)
    with pytest.warns(UserWarning, match="ordered alphabetically.*classes="):
        alphabetical = OrdinalLogisticRegression().fit(X, names)
    assert alphabetical.classes_.tolist() == ["high", "low", "medium", "very high"]
    with pytest.raises(ValueError, match="not in classes"):
        OrdinalLogisticRegression(classes=["low", "medium", "high"]).fit(X, names)
    with pytest.raises(ValueError, match="do not occur in y"):
        OrdinalLogisticRegression(classes=["none", "low", "medium", "high", "very high"]).fit(X, names)


def test_constant_column_is_refused():
    X, y = _ordinal_data()
    with pytest.raises(ValueError, match="column 0 of X is constant.*include_bias=False"):
        make_pipeline(PolynomialFeatures(2), OrdinalLogisticRegression()).fit(X, y)
    make_pipeline(
        PolynomialFeatures(2, include_bias=False), StandardScaler(), OrdinalLogisticRegression()
    ).fit(X, y)


# --- threshold_table is what scikit-learn counts, and says how it counts ------------------------


def test_threshold_table_agrees_with_confusion_matrix_at_thresholds():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=2000)
    s = np.round(rng.uniform(size=2000), 2)  # ties
    tns, fps, fns, tps, thresholds = confusion_matrix_at_thresholds(y, s)
    table = threshold_table(y, s, thresholds)
    np.testing.assert_array_equal(table["tp"], tps)
    np.testing.assert_array_equal(table["fp"], fps)
    np.testing.assert_array_equal(table["fn"], fns)
    np.testing.assert_array_equal(table["tn"], tns)


def test_the_module_says_truthfully_what_it_computes_itself():
    assert "Everything here is computed by scikit-learn" not in metrics.__doc__
    assert "computed here" in threshold_table.__doc__ and "searchsorted" in threshold_table.__doc__


# --- plots draw every series ---------------------------------------------------------------------

Y = np.tile([0, 1], 20)
SCORES = {f"model {i}": np.linspace(0, 1, 40) ** (1 + i / 10) for i in range(14)}


def _labels(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_curve_plots_draw_every_model():
    for plot in (plots.plot_roc, plots.plot_pr):
        ax = plot(Y, SCORES)
        assert sum(label.startswith("model ") for label in _labels(ax)) == 14
    fig = plots.plot_reliability_diagram(Y, SCORES, n_bins=5)
    assert sum(label.startswith("model ") for label in _labels(fig.axes[0])) == 14
    styles = {(s["color"], s["linestyle"], s["marker"]) for s in map(plots.series_style, range(14))}
    assert len(styles) == 14  # and they can be told apart


def test_threshold_plots_draw_every_threshold_and_column():
    table = pd.DataFrame({"threshold": [0.1, 0.5, 0.9], **{f"m{i}": [0.1, 0.2, 0.3] for i in range(14)}})
    ax = plots.plot_threshold_sweep(table, columns=[f"m{i}" for i in range(14)])
    assert len(ax.lines) == 14
    ax = plots.plot_scores(Y, SCORES["model 0"], thresholds=np.linspace(0.05, 0.95, 11))
    assert len(ax.lines) == 11
    curve = hunt_curve(Y.astype(bool), SCORES["model 0"])
    ax = plots.plot_review_budget(curve, targets=np.linspace(0.1, 1.0, 10))
    assert len(ax.lines) == 2 + 10


# --- clear errors instead of raw Python ones -----------------------------------------------------


def test_scalars_where_sequences_are_expected():
    pd.testing.assert_frame_equal(
        threshold_table(Y, SCORES["model 0"], [0.5], betas=2),
        threshold_table(Y, SCORES["model 0"], [0.5], betas=(2,)),
    )
    ax = plots.plot_scores(Y, SCORES["model 0"], thresholds=0.5)
    assert len(ax.lines) == 1
    with pytest.raises(ValueError, match="thresholds must be a number or a sequence"):
        plots.plot_scores(Y, SCORES["model 0"], thresholds="0.5")
    ax = plots.plot_threshold_sweep(threshold_table(Y, SCORES["model 0"], [0.2, 0.5]), columns="recall")
    assert len(ax.lines) == 1


def test_image_gallery_of_28_by_28_images():
    images = np.random.default_rng(0).uniform(size=(3, 784))
    fig = plots.plot_image_gallery(images, [1, 2, 3], [1, 2, 4])
    assert fig.axes[0].images[0].get_array().shape == (28, 28)
    with pytest.raises(ValueError, match="not a square number: pass shape"):
        plots.plot_image_gallery(np.zeros((2, 10)), [1, 2], [1, 2])
    fig = plots.plot_image_gallery(np.zeros((2, 10)), [1, 2], [1, 2], shape=(2, 5))
    assert fig.axes[0].images[0].get_array().shape == (2, 5)


def test_empty_tables_are_refused():
    with pytest.raises(ValueError, match="curve is empty"):
        plots.plot_hunt_curves(pd.DataFrame({"k": [], "found": [], "precision": [], "recall": []}))
    with pytest.raises(ValueError, match="table is empty"):
        plots.plot_expected_cost(pd.DataFrame({"threshold": [], "cost": []}))


def test_numbers_and_strings_are_not_compared_as_strings():
    with pytest.raises(ValueError, match="y_true holds numbers and y_pred holds strings"):
        confusion_counts([0, 1, 1], ["0", "1", "1"])


def test_messages_show_numbers_as_typed():
    with pytest.raises(ValueError, match="does not occur") as error:
        confusion_counts(np.array([0, 2, 2]), np.array([0, 0, 2]), pos_label=np.int64(1))
    assert "pos_label=1 " in str(error.value) and "np.int64" not in str(error.value)
    with pytest.raises(ValueError, match="proba has 2 columns but there are 3 labels") as error:
        per_example_log_loss([0, 1, 2], np.full((3, 2), 0.5), labels=np.array([0, 1, 2]))
    assert "[0, 1, 2]" in str(error.value) and "np.int64" not in str(error.value)
    with pytest.raises(ValueError, match="n_bins must be a positive whole number, got 0") as error:
        expected_calibration_error([0, 1], [0.2, 0.8], n_bins=np.int64(0))
    assert "np.int64" not in str(error.value)


# --- silent oddities ------------------------------------------------------------------------------


def test_a_batch_without_positives_is_counted():
    y = np.zeros(50, dtype=int)
    assert confusion_counts(y, y) == (0, 0, 0, 50)
    scores = binary_scores(y, y)
    assert scores["accuracy"] == 1 and scores["specificity"] == 1 and scores["recall"] == 0
    assert scores["precision"] == 0 and scores["mcc"] == 0
    assert expected_cost(y, y, c_fp=1, c_fn=10, c_tn=0.5) == 0.5
    # the mirror image, which already worked
    assert confusion_counts(1 - y, 1 - y) == (50, 0, 0, 0)


def test_cost_threshold_of_huge_costs_does_not_overflow():
    assert cost_threshold(1e308, 1e308) == 0.5
    assert cost_threshold(1e308, 1e308, c_tn=-1e308) == pytest.approx(2 / 3)
    assert cost_threshold(20, 400) == 20 / 420  # the ordinary case is computed as before


def test_n_bins_has_an_upper_bound():
    with pytest.raises(ValueError, match="n_bins must be at most 10,000"):
        reliability_table(np.tile([0, 1], 500), np.linspace(0, 1, 1000), n_bins=10**8)
    with pytest.raises(ValueError, match="n_bins must be at most"):
        expected_calibration_error(np.tile([0, 1], 500), np.linspace(0, 1, 1000), n_bins=10**8)


def test_review_budget_of_nothing_is_nothing():
    is_error, scores = np.array([0, 1, 0, 1]), np.array([0.1, 0.9, 0.3, 0.2])
    assert review_budget(is_error, scores, 0) == 0
    assert review_budget(is_error, scores, 0.5) == 1


def test_corrupt_labels_keeps_a_categorical():
    y = pd.Series(
        pd.Categorical(["low", "mid", "high"] * 20, categories=["low", "mid", "high"], ordered=True)
    )
    noisy, corrupted = datasets.corrupt_labels(y, 0.2, random_state=0)
    assert noisy.dtype == y.dtype and corrupted.sum() == 12
    assert (noisy[corrupted] != y[corrupted]).all() and (noisy[~corrupted] == y[~corrupted]).all()
    bare, _ = datasets.corrupt_labels(y.array, 0.2, random_state=0)
    assert isinstance(bare, pd.Categorical) and bare.ordered
