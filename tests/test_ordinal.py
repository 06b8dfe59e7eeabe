"""Chapter 4's helpers: one-off accuracy, the ordinal estimator, its data sets and plots."""

import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
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


@pytest.mark.slow  # fits many models (scikit-learn's estimator checks): make test, not make unit
@pytest.mark.mutation  # but make mutation keeps it: it guards ordinal.py
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


@pytest.mark.slow  # fits statsmodels on a whole data set: make test, not make unit
@pytest.mark.mutation  # but make mutation keeps it: it guards ordinal.py
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


@pytest.mark.parametrize("alpha", [True, np.nan, np.inf, -1, "1"])
def test_alpha_must_be_a_non_negative_number(alpha):
    with pytest.raises(
        ValueError, match=f"^alpha must be a non-negative number, got {re.escape(repr(alpha))}$"
    ):
        OrdinalLogisticRegression(alpha=alpha).fit([[0.0], [1.0]], [0, 1])


@pytest.mark.parametrize("classes, shown", [("abc", "'abc'"), ([1], "[1]"), (5, "5"), ([[1, 2], [3, 4]], "")])
def test_classes_must_be_a_sequence_of_two_or_more(classes, shown):
    message = "^classes must be a sequence of at least two classes from lowest to highest, got "
    with pytest.raises(ValueError, match=message + re.escape(shown)):
        OrdinalLogisticRegression(classes=classes).fit([[0.0], [1.0]], [1, 2])


def test_classes_must_be_distinct():
    with pytest.raises(ValueError, match=r"^classes must be distinct, got \[1, 1, 2\]$"):
        OrdinalLogisticRegression(classes=[1, 1, 2]).fit([[0.0], [1.0]], [1, 2])


def _two_classes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.where(X @ [1.0, -1.0] + rng.normal(size=60) > 0, "yes", "no")
    return X, y


@pytest.mark.parametrize("classes", [None, ["no", "yes"]])
@pytest.mark.parametrize("as_text", [False, True])
def test_two_classes_are_logistic_regression(classes, as_text):
    """With two classes the model is logistic regression, θ = −intercept; two string classes
    need no warning (the wrong order would only flip the sign of coef_)."""
    X, y = _two_classes()
    logistic = LogisticRegression(C=np.inf, tol=1e-10, max_iter=10_000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = OrdinalLogisticRegression(classes=classes).fit(X.astype(str) if as_text else X, y)
    assert model.classes_.tolist() == ["no", "yes"]
    assert np.max(np.abs(model.coef_ - logistic.coef_[0])) < 1e-5
    assert np.max(np.abs(model.cut_points_ + logistic.intercept_)) < 1e-5


def _three_rows_per_class():
    return np.arange(9.0)[:, None] % 4, np.repeat(["low", "medium", "high"], 3)


def test_classes_override_the_order_of_an_ordered_categorical():
    X, labels = _three_rows_per_class()
    y = pd.Categorical(labels, categories=["low", "medium", "high"], ordered=True)
    model = OrdinalLogisticRegression(classes=["high", "medium", "low"]).fit(X, y)
    assert model.classes_.tolist() == ["high", "medium", "low"]


@pytest.fixture
def warning_callers(monkeypatch):
    """Where each warning should point: the line that called the function that warns (here fit,
    or the wrapper that mutation testing puts around fit)."""
    callers, warn = [], warnings.warn

    def recording_warn(message, category=None, stacklevel=1, **kwargs):
        caller = sys._getframe(1).f_back
        callers.append((caller.f_code.co_filename, caller.f_lineno))
        warn(message, category, stacklevel + 1, **kwargs)

    monkeypatch.setattr(warnings, "warn", recording_warn)
    return callers


def test_unordered_categorical_is_sorted_with_a_warning_where_fit_is_called(warning_callers):
    X, labels = _three_rows_per_class()
    y = pd.Categorical(labels, categories=["low", "medium", "high"])
    message = (
        "the classes ['high', 'low', 'medium'] are strings, ordered alphabetically; if that is not their "
        "order, pass classes=[lowest, ..., highest] or y as an ordered pandas Categorical"
    )
    with pytest.warns(UserWarning, match=f"^{re.escape(message)}$") as record:
        model = OrdinalLogisticRegression().fit(X, y)
    assert model.classes_.tolist() == ["high", "low", "medium"]
    assert [(w.filename, w.lineno) for w in record] == warning_callers


@pytest.mark.parametrize("dtype", ["int64", "Int64"])
def test_ordered_categorical_of_integers(dtype):
    X, _ = _three_rows_per_class()
    y = pd.Series([3, 3, 3, 1, 1, 1, 2, 2, 2], dtype=dtype).astype(pd.CategoricalDtype(ordered=True))
    y = y.cat.reorder_categories(pd.array([3, 1, 2], dtype=dtype))
    assert y.dtype.categories.dtype == dtype
    model = OrdinalLogisticRegression().fit(X, y)
    assert model.classes_.tolist() == [3, 1, 2]


def test_labels_outside_classes_are_named_five_at_most_in_text_order():
    X = np.arange(8.0)[:, None]
    with pytest.raises(ValueError, match=r"^y holds labels that are not in classes=\[1, 2\]: \[10, 9\]$"):
        OrdinalLogisticRegression(classes=[1, 2]).fit(X[:4], [1, 2, 9, 10])
    y = ["a", "b", "u", "v", "w", "x", "y", "z"]
    message = r"^y holds labels that are not in classes=\['a', 'b'\]: \['u', 'v', 'w', 'x', 'y'\]$"
    with pytest.raises(ValueError, match=message):
        OrdinalLogisticRegression(classes=["a", "b"]).fit(X, y)


def test_single_class_message():
    message = r"^OrdinalLogisticRegression needs at least two classes in y, got 1 class: \[3\]$"
    with pytest.raises(ValueError, match=message):
        OrdinalLogisticRegression().fit([[0.0], [1.0]], [3, 3])


MISSING_CLASS = (
    ": every class needs examples, or the cut-points around it cannot be estimated "
    r"\(OrdinalLogisticRegression needs each class in y\)$"
)


def test_every_class_must_occur():
    X = np.arange(5.0)[:, None]
    with pytest.raises(ValueError, match=r"^the classes \[3\] do not occur in y" + MISSING_CLASS):
        OrdinalLogisticRegression(classes=[1, 2, 3]).fit(X[:4], [1, 2, 1, 2])
    with pytest.raises(
        ValueError, match=r"^the classes \[3\] have no positive sample_weight" + MISSING_CLASS
    ):
        OrdinalLogisticRegression().fit(X, [1, 2, 2, 3, 3], sample_weight=[1, 1, 1, 0, 0])


def _diabetes(n_features=3):
    X, y = datasets.diabetes_stages()
    return StandardScaler().fit_transform(X)[:, :n_features], y.to_numpy()


def test_weights_below_one_scale_the_likelihood():
    """Halving every weight halves the log-likelihood: the unweighted maximum, statsmodels'."""
    X, y = _diabetes()
    model = OrdinalLogisticRegression().fit(X, y, sample_weight=np.full(len(y), 0.5))
    coef, cuts, _ = statsmodels_fit(X, y)
    assert np.max(np.abs(model.coef_ - coef)) < 1e-4
    assert np.max(np.abs(model.cut_points_ - cuts)) < 1e-4


def test_penalised_fit_minimises_statsmodels_likelihood_plus_penalty():
    from scipy.optimize import minimize
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    X, y = _diabetes()
    alpha, k = 50.0, X.shape[1]
    ordered = OrderedModel(y, X, distr="logit")

    def penalised(params):
        return -ordered.loglike(params) + alpha / 2 * params[:k] @ params[:k]

    start = np.concatenate([np.zeros(k), [-1.0], np.zeros(3)])
    best = minimize(penalised, start, method="BFGS", options={"gtol": 1e-8}).x
    model = OrdinalLogisticRegression(alpha=alpha).fit(X, y)
    assert np.max(np.abs(model.coef_ - best[:k])) < 1e-4
    assert np.max(np.abs(model.cut_points_ - ordered.transform_threshold_params(best)[1:-1])) < 1e-4


CONSTANT = (
    "; the cut-points already act as the intercept, so its coefficient cannot be identified: drop it "
    r"\(for PolynomialFeatures, include_bias=False\)$"
)


def test_a_constant_column_is_named_with_its_value():
    with pytest.raises(ValueError, match=r"^column 1 of X is constant \(5\)" + CONSTANT):
        OrdinalLogisticRegression().fit([[1.0, 5.0], [2.0, 5.0]], [0, 1])
    # the value of the first row: -0.0 and 0.0 are equal, so the column is constant
    with pytest.raises(ValueError, match=r"^column 0 of X is constant \(-0\)" + CONSTANT):
        OrdinalLogisticRegression().fit([[-0.0], [0.0], [0.0]], [0, 1, 0])


def _uninformative(counts):
    """Each class in equal numbers at x = −1 and x = 1: by symmetry β̂ = 0 and the cut-points are
    the logits of the cumulative class proportions."""
    y = np.repeat(np.arange(len(counts)), 2 * np.asarray(counts))
    return np.tile([[-1.0], [1.0]], (len(y) // 2, 1)), y


def test_the_fit_starts_from_the_marginal_cut_points():
    X, y = _uninformative([3, 1, 2, 2])
    model = OrdinalLogisticRegression().fit(X, y)
    assert np.allclose(model.cut_points_, [np.log(3 / 5), 0.0, np.log(3)], atol=1e-6)
    assert abs(model.coef_[0]) < 1e-8
    assert model.n_iter_ <= 5


@pytest.mark.parametrize("tiny, where, middle", [(5e-324, 0, 1), (1e-20, 2, 0)])
def test_a_class_of_negligible_weight_gets_finite_cut_points(tiny, where, middle):
    """The start clips the class proportions away from 0 and 1: a class whose weight vanishes
    next to the total (the proportion rounds to 0 or to 1) must not give an infinite start."""
    X, y = _uninformative([1, 1, 1])
    weight = np.where(y == where, tiny, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = OrdinalLogisticRegression().fit(X, y, sample_weight=weight)
    assert np.isfinite(model.cut_points_).all() and np.isfinite(model.coef_).all()
    assert abs(model.cut_points_[middle]) < 1e-3  # logit(1/2), between the two other classes
    assert (model.predict_proba(X)[:, where] < 1e-6).all()


def test_convergence_warning_message_where_fit_is_called(warning_callers):
    X, y = _diabetes(10)
    message = (
        r"^OrdinalLogisticRegression did not converge in 3 iterations \(STOP: TOTAL NO\. OF ITERATIONS "
        r"REACHED LIMIT\); increase max_iter \(now 3\) or scale the features \(StandardScaler\)$"
    )
    with pytest.warns(ConvergenceWarning, match=message) as record:
        OrdinalLogisticRegression(max_iter=3).fit(X, y)
    assert [(w.filename, w.lineno) for w in record] == warning_callers


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
