"""Chapter 4's helpers: one-off accuracy, the ordinal estimator, its data sets and plots."""

import warnings

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

from beyond_accuracy import datasets, plots, set_language, term
from beyond_accuracy.metrics import one_off_accuracy
from beyond_accuracy.ordinal import OrdinalLogisticRegression


def test_one_off_accuracy_by_hand():
    assert one_off_accuracy([1, 2, 3, 4], [2, 2, 5, 1]) == 0.5
    assert one_off_accuracy([1, 2, 3, 4], [2, 2, 5, 1], tolerance=0) == 0.25
    assert one_off_accuracy([1, 2, 3, 4], [2, 2, 5, 1], tolerance=3) == 1.0
    order = ["low", "medium", "high"]
    assert one_off_accuracy(["low", "high"], ["medium", "low"], labels=order) == 0.5


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((["a", "b"], ["a", "b"]), {}, "ordered integer"),
        (([1.5, 2], [1, 2]), {}, "ordered integer"),
        (([1, 2], [1, 2, 3]), {}, "same length"),
        ((["low"], ["huge"]), {"labels": ["low", "high"]}, "not in labels"),
        (([1, 2], [1, 2]), {"tolerance": -1}, "tolerance"),
        (([1, np.nan], [1, 2]), {}, "missing"),
        (([1, 2], [1, 2]), {"labels": [1, 1, 2]}, "distinct"),
    ],
)
def test_one_off_accuracy_validates(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        one_off_accuracy(*args, **kwargs)


def test_estimator_passes_scikit_learns_checks():
    """check_estimator, with no failing check expected: the one generic check an ordinal model
    cannot pass (accuracy above 0.83 on three unordered blobs) is handled by the `poor_score`
    tag, documented in OrdinalLogisticRegression.__sklearn_tags__."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(OrdinalLogisticRegression(), on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert not failed
    assert len(results) > 40


def statsmodels_fit(X, y):
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = OrderedModel(y, X, distr="logit")
        result = model.fit(method="bfgs", disp=False, maxiter=5000, gtol=1e-10)
    k = X.shape[1]
    cuts = model.transform_threshold_params(result.params)[1:-1]
    return result.params[:k], cuts, model.predict(result.params, exog=X)


@pytest.mark.parametrize("data", ["marriage", "diabetes"])
def test_unpenalised_fit_agrees_with_statsmodels(data):
    if data == "marriage":
        X, y = datasets.marriage_ratings()
        X = X[["age", "yrs_married", "children", "religious", "educ"]].to_numpy(float)
    else:
        X, y = datasets.diabetes_stages()
        X = StandardScaler().fit_transform(X)
    y = y.to_numpy()
    ours = OrdinalLogisticRegression().fit(X, y)
    coef, cuts, proba = statsmodels_fit(X, y)
    assert np.max(np.abs(ours.coef_ - coef)) < 1e-4
    assert np.max(np.abs(ours.cut_points_ - cuts)) < 1e-4
    assert np.max(np.abs(ours.predict_proba(X) - proba)) < 1e-5


def test_works_in_pipeline_and_cross_validation():
    X, y = datasets.diabetes_stages()
    pipe = make_pipeline(StandardScaler(), OrdinalLogisticRegression(alpha=1.0))
    scores = cross_val_score(pipe, X, y, cv=5)
    assert scores.shape == (5,) and (scores > 0.2).all()


def test_predict_mode_and_median():
    X, y = datasets.diabetes_stages()
    model = OrdinalLogisticRegression().fit(StandardScaler().fit_transform(X), y)
    Xs = StandardScaler().fit_transform(X)
    proba = model.predict_proba(Xs)
    assert np.allclose(proba.sum(axis=1), 1) and (proba >= 0).all()
    # the median of a cumulative-logit model is the interval of the latent score among the
    # cut-points: P(y <= k) = expit(theta_k - score) >= 1/2 exactly when theta_k >= score
    interval = np.searchsorted(model.cut_points_, model.latent_score(Xs), side="left")
    assert np.array_equal(model.predict(Xs, decision="median"), model.classes_[interval])
    assert np.all(np.diff(model.cut_points_) > 0)
    with pytest.raises(ValueError, match="decision"):
        model.predict(Xs, decision="mean")


def test_predict_mode_and_median_of_typed_distributions(monkeypatch):
    X, y = datasets.diabetes_stages()
    model = OrdinalLogisticRegression().fit(StandardScaler().fit_transform(X), y)
    typed = np.array(
        [
            # mode, median (the first class where the running sum reaches 1/2), by hand
            [0.40, 0.10, 0.05, 0.05, 0.40],  # tie: the first, 1; running sums 0.4, 0.5: 2
            [0.05, 0.30, 0.10, 0.15, 0.40],  # 5; 0.05, 0.35, 0.45, 0.60: 4
            [0.50, 0.20, 0.10, 0.10, 0.10],  # 1; 0.5 reaches 1/2: 1
            [0.10, 0.10, 0.20, 0.35, 0.25],  # 4; 0.1, 0.2, 0.4, 0.75: 4
            [0.00, 0.00, 0.00, 0.00, 1.00],  # 5; 5
        ]
    )
    monkeypatch.setattr(model, "predict_proba", lambda X: typed)
    rows = np.zeros((5, X.shape[1]))
    assert model.classes_.tolist() == [1, 2, 3, 4, 5]
    assert model.predict(rows).tolist() == [1, 5, 1, 4, 5]
    assert model.predict(rows, decision="mode").tolist() == [1, 5, 1, 4, 5]
    assert model.predict(rows, decision="median").tolist() == [2, 4, 1, 4, 5]


def test_penalty_shrinks_coefficients():
    X, y = datasets.diabetes_stages()
    Xs = StandardScaler().fit_transform(X)
    free = OrdinalLogisticRegression().fit(Xs, y)
    shrunk = OrdinalLogisticRegression(alpha=100.0).fit(Xs, y)
    assert np.linalg.norm(shrunk.coef_) < np.linalg.norm(free.coef_)


@pytest.mark.parametrize("params, message", [({"alpha": -1}, "alpha"), ({"decision": "mean"}, "decision")])
def test_estimator_validates(params, message):
    with pytest.raises(ValueError, match=message):
        OrdinalLogisticRegression(**params).fit([[0.0], [1.0]], [0, 1])


def test_single_class_is_rejected():
    with pytest.raises(ValueError, match="at least two classes"):
        OrdinalLogisticRegression().fit([[0.0], [1.0]], [3, 3])


def test_datasets():
    X, y = datasets.marriage_ratings()
    assert X.shape == (6366, 8) and y.value_counts().sort_index().tolist() == [99, 348, 993, 2242, 2684]
    X, y = datasets.diabetes_stages()
    assert X.shape == (442, 10) and sorted(y.unique()) == [1, 2, 3, 4, 5]
    _, y3 = datasets.diabetes_stages(edges=(150,))
    assert sorted(y3.unique()) == [1, 2]
    with pytest.raises(ValueError, match="increasing"):
        datasets.diabetes_stages(edges=(200, 100))


def test_ordinal_plots_are_localised():
    set_language("es")
    X, y = datasets.diabetes_stages()
    Xs = StandardScaler().fit_transform(X)
    model = OrdinalLogisticRegression().fit(Xs, y)
    ax = plots.plot_cut_points(model, Xs)
    assert ax.get_xlabel() == term("latent_score")
    ax = plots.plot_ordinal_confusion(y, model.predict(Xs), labels=[1, 2, 3, 4, 5])
    assert ax.get_ylabel() == term("actual_class")
    with pytest.raises(ValueError, match="not in labels"):
        plots.plot_ordinal_confusion(y, model.predict(Xs), labels=[1, 2, 3])
    with pytest.raises(ValueError, match="labels"):
        plots.plot_cut_points([0.0, 1.0], labels=["a", "b"])


# --- found by mutation testing (make mutation): messages, and when a stalled fit counts as converged --


def test_one_off_accuracy_labels_messages():
    with pytest.raises(ValueError, match="^labels must be a 1-D sequence of values, got a single value"):
        one_off_accuracy(["a"], ["a"], labels="abc")
    unknown = ["u", "v", "w", "x", "y", "z"]  # six labels not in labels=: the message shows five
    with pytest.raises(
        ValueError, match=r"^labels \['u', 'v', 'w', 'x', 'y'\] are not in labels=\['a', 'b'\]$"
    ):
        one_off_accuracy(unknown, unknown, labels=["a", "b"])


def test_a_stalled_line_search_counts_as_converged_only_at_a_flat_gradient():
    from scipy.optimize import OptimizeResult

    def stopped(status, *gradient):
        return OrdinalLogisticRegression._converged(OptimizeResult(status=status, jac=np.array(gradient)))

    assert stopped(2, 1e-6, -9e-6)  # status 2: the line search failed, at the optimum
    assert not stopped(2, 1e-6, -2e-5)  # the line search failed away from it
    assert not stopped(2, 1e-5)  # the bound is strict
    assert not stopped(1, 0.0)  # status 1: out of iterations, however flat
    assert not stopped(3, 0.0)


def _fixed_model(cut_points, coef):
    """A model with the given parameters, as if fitted (for predictions at exact probabilities)."""
    model = OrdinalLogisticRegression()
    model.classes_ = np.array([1, 2, 3])
    model.cut_points_, model.coef_ = np.array(cut_points, dtype=float), np.array(coef, dtype=float)
    model.n_features_in_ = len(coef)
    return model


def test_median_prediction_takes_the_first_class_reaching_one_half():
    model = _fixed_model([0.0, 1.0], [0.0])  # P(y <= 1) = σ(0) = 0.5 exactly
    assert model.predict([[3.0]], decision="median").tolist() == [1]
    assert model.predict_proba([[3.0]])[0, 0] == 0.5


def test_latent_score_reads_numbers_written_as_text_like_fit():
    model = _fixed_model([0.0, 1.0], [2.0])
    assert model.latent_score(np.array([["1.5"]])).tolist() == [3.0]


INTEGER_CLASSES = (
    r"must hold ordered integer classes \(such as 1-5\); for other labels pass labels= in their order, "
    r"e\.g\. labels=\['low', 'medium', 'high'\]$"
)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (([1, np.nan], [1, 2]), {}, r"^y_true contains missing values \(NaN/None\) at positions \[1\]$"),
        (([1, 2], [1, np.nan]), {}, r"^y_pred contains missing values \(NaN/None\) at positions \[1\]$"),
        (([1.5, 2], [1, 2]), {}, "^y_true " + INTEGER_CLASSES),
        (([1, 2], [1, 2.5]), {}, "^y_pred " + INTEGER_CLASSES),
        (([1, 2], [1, 2]), {"labels": [1, 1, 2]}, r"^labels must be distinct$"),
        (([1, 2], [1, 2]), {"tolerance": -1}, r"^tolerance must lie in \[0, None\], got -1$"),
        # labels of two types cannot be sorted together: listed in the order of their text
        (
            (np.array(["a", 1], dtype=object), ["a", "c"]),
            {"labels": ["a", "b"]},
            r"^labels \[1, 'c'\] are not in labels=\['a', 'b'\]$",
        ),
    ],
)
def test_one_off_accuracy_messages(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        one_off_accuracy(*args, **kwargs)
