"""Ordinal regression as a scikit-learn estimator: the proportional-odds (cumulative-logit) model.

    P(y <= k | x) = σ(θ_k − x·β),   θ_1 < θ_2 < … < θ_{K−1}

A latent variable y* = x·β + ε, with ε drawn from the standard logistic distribution, is cut into
K ordered classes by K − 1 learned cut-points θ_k (not to be confused with a decision threshold).
Because of ε every example gets a whole distribution over the classes. ``predict`` answers its
mode by default, which need not be the class whose interval holds x·β; that class is the median
(``decision="median"``). The model is the one statsmodels fits with ``OrderedModel(y, X,
distr="logit")`` (McCullagh, 1980); this estimator solves the same maximum likelihood problem with
scipy, so it can live in a scikit-learn ``Pipeline`` and be cross-validated like any classifier.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ._validation import show


class OrdinalLogisticRegression(ClassifierMixin, BaseEstimator):
    """Proportional-odds logistic regression for ordered classes.

    P(y <= k | x) = σ(θ_k − x·β): the class of an example is the interval of the cut-points θ_k in
    which y* = x·β + ε falls, with ε standard logistic, so ``predict_proba`` spreads every example
    over all K classes and ``predict`` reads one class from that distribution (``decision``).

    Parameters
    ----------
    alpha : float, default 0.0
        L2 penalty on the coefficients (not on the cut-points): the fit minimises
        ``negative log-likelihood + alpha/2 · ||coef_||²``. With ``alpha=0`` it is the maximum
        likelihood fit of statsmodels' ``OrderedModel(distr="logit")``.
    decision : {"mode", "median"}, default "mode"
        How ``predict`` turns the predicted distribution into one class: its mode (the most
        probable class, which maximises expected accuracy) or its median (the first class whose
        cumulative probability reaches ½, which minimises expected absolute error in classes).
    max_iter : int, default 1000
        Iterations of the L-BFGS-B solver. A fit that stops before converging (too few
        iterations, or badly scaled features: put a ``StandardScaler`` first) emits a
        ``sklearn.exceptions.ConvergenceWarning``.
    classes : sequence or None, default None
        The classes from lowest to highest, e.g. ``["low", "medium", "high"]``. The order of
        the classes is the model: by default it is the order of an ordered pandas
        ``Categorical`` y (its ``categories``), otherwise the sorted order of the labels seen in
        ``fit``, which is right for integers; for strings (which sort alphabetically) that
        default emits a warning when there are three or more (two classes only flip the sign of
        ``coef_``), so pass ``classes=`` or an ordered Categorical. Every class
        must occur in ``y``.

    Features must not contain a constant column (such as the bias column of
    ``PolynomialFeatures``): the cut-points already play the role of an intercept, so its
    coefficient could not be identified; ``fit`` raises ValueError naming the column.
    ``fit`` accepts ``sample_weight`` (each example's log-likelihood is weighted, so integer
    weights give the fit on repeated rows).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (n_features,)
        β: a larger x·β pushes the distribution towards higher classes.
    cut_points_ : ndarray of shape (K − 1,)
        θ_1 < … < θ_{K−1} on the latent scale.
    n_iter_ : int
    """

    def __init__(self, alpha=0.0, decision="mode", max_iter=1000, classes=None):
        self.alpha = alpha
        self.decision = decision
        self.max_iter = max_iter
        self.classes = classes

    # -- parameters: cut-points as a first value plus positive increments (exp), so they stay ordered
    @staticmethod
    def _cuts(params, n_cuts):
        start, logs = params[0], params[1:n_cuts]
        return start + np.concatenate([[0.0], np.cumsum(np.exp(logs))])

    def _objective(self, params, X, codes, n_cuts, weight=None):
        cuts = self._cuts(params, n_cuts)
        beta = params[n_cuts:]
        eta = X @ beta
        upper = np.append(cuts, np.inf)[codes] - eta  # θ_k − η (θ_K = +∞)
        lower = np.insert(cuts, 0, -np.inf)[codes] - eta  # θ_{k−1} − η (θ_0 = −∞)
        F_up, F_low = expit(upper), expit(lower)
        prob = np.clip(F_up - F_low, 1e-300, None)
        f_up, f_low = F_up * (1 - F_up), F_low * (1 - F_low)
        log_prob = np.log(prob)
        nll = -(np.sum(log_prob) if weight is None else weight @ log_prob) + 0.5 * self.alpha * beta @ beta
        # gradient: d(−log p)/dθ_k = −f(up)/p, d/dθ_{k−1} = f(low)/p, d/dη = (f(up) − f(low))/p
        up_term, low_term = f_up / prob, f_low / prob
        if weight is None:
            g_eta = (f_up - f_low) / prob
        else:
            up_term, low_term = weight * up_term, weight * low_term
            g_eta = up_term - low_term
        g_beta = X.T @ g_eta + self.alpha * beta
        g_cut = np.zeros(n_cuts)
        has_up = codes < n_cuts
        has_low = codes > 0
        np.add.at(g_cut, codes[has_up], -up_term[has_up])
        np.add.at(g_cut, codes[has_low] - 1, low_term[has_low])
        # chain rule to (start, log-increments): θ_j = start + Σ_{m<=j} exp(d_m)
        g_params = np.empty(n_cuts)
        g_params[0] = g_cut.sum()
        tail = np.cumsum(g_cut[::-1])[::-1]  # Σ_{j>=m} g_cut[j]
        g_params[1:] = np.exp(params[1:n_cuts]) * tail[1:]
        return nll, np.concatenate([g_params, g_beta])

    def _class_order(self, y):
        """(y as a plain array, the classes in order or None for the sorted labels)."""
        if self.classes is not None:
            if isinstance(self.classes, str) or np.ndim(self.classes) != 1 or len(self.classes) < 2:
                raise ValueError(
                    f"classes must be a sequence of at least two classes from lowest to highest, "
                    f"got {show(self.classes)}"
                )
            order = np.asarray(self.classes)
            if len(set(order.tolist())) != len(order):
                raise ValueError(f"classes must be distinct, got {show(order)}")
        else:
            order = None
        dtype = getattr(y, "dtype", None)
        if isinstance(dtype, pd.CategoricalDtype):
            if order is None and dtype.ordered:
                order = np.asarray(dtype.categories)
            # numpy's own dtype of the labels (object for strings, int64 for integers, also for
            # pandas' nullable "Int64", which np.asarray(dtype=...) cannot interpret)
            y = np.asarray(y)
        return y, order

    def fit(self, X, y, sample_weight=None):
        """Fit the model; ``sample_weight`` weights each example's log-likelihood."""
        if (
            not isinstance(self.alpha, (int, float, np.integer, np.floating))
            or isinstance(self.alpha, bool)
            or not np.isfinite(self.alpha)
            or self.alpha < 0
        ):
            raise ValueError(f"alpha must be a non-negative number, got {self.alpha!r}")
        self._check_decision(self.decision)
        y, order = self._class_order(y)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        if order is None:
            self.classes_, codes = np.unique(y, return_inverse=True)
            if self.classes_.dtype.kind in "OUS" and len(self.classes_) > 2:
                warnings.warn(
                    f"the classes {show(self.classes_)} are strings, ordered alphabetically; if that "
                    "is not their order, pass classes=[lowest, ..., highest] or y as an ordered "
                    "pandas Categorical",
                    UserWarning,
                    stacklevel=2,
                )
        else:
            position = {c: i for i, c in enumerate(order.tolist())}
            unknown = sorted({c for c in y.tolist() if c not in position}, key=str)
            if unknown:
                raise ValueError(f"y holds labels that are not in classes={show(order)}: {show(unknown[:5])}")
            codes = np.array([position[c] for c in y.tolist()], dtype=np.intp)
            self.classes_ = order
        if len(np.unique(codes)) < 2:
            raise ValueError(
                f"OrdinalLogisticRegression needs at least two classes in y, got 1 class: "
                f"{show(np.unique(y))}"
            )
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        weight_per_class = np.bincount(codes, weights=sample_weight, minlength=len(self.classes_))
        if (weight_per_class <= 0).any():
            absent = self.classes_[weight_per_class <= 0]
            what = "do not occur in y" if sample_weight is None else "have no positive sample_weight"
            raise ValueError(
                f"the classes {show(absent)} {what}: every class needs examples, or the cut-points "
                f"around it cannot be estimated (OrdinalLogisticRegression needs each class in y)"
            )
        if X.shape[0] > 1:
            constant = np.flatnonzero(np.ptp(X, axis=0) == 0)
            if len(constant):
                raise ValueError(
                    f"column {int(constant[0])} of X is constant ({X[0, constant[0]]:g}); the cut-points "
                    "already act as the intercept, so its coefficient cannot be identified: drop it "
                    "(for PolynomialFeatures, include_bias=False)"
                )
        n_cuts = len(self.classes_) - 1
        # start from the cut-points of the marginal distribution, with β = 0
        cum = np.cumsum(weight_per_class)[:-1] / weight_per_class.sum()
        cum = np.clip(cum, 1e-6, 1 - 1e-6)
        start_cuts = np.log(cum / (1 - cum))
        start_cuts = np.maximum.accumulate(start_cuts + np.arange(n_cuts) * 1e-6)
        init = np.concatenate(
            [[start_cuts[0]], np.log(np.maximum(np.diff(start_cuts), 1e-6)), np.zeros(X.shape[1])]
        )
        result = minimize(
            self._objective,
            init,
            args=(X, codes, n_cuts, sample_weight),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": self.max_iter, "gtol": 1e-8, "ftol": 1e-14},
        )
        self.cut_points_ = self._cuts(result.x, n_cuts)
        self.coef_ = result.x[n_cuts:]
        self.n_iter_ = int(result.nit)
        if not result.success and not self._converged(result):
            warnings.warn(
                f"OrdinalLogisticRegression did not converge in {self.n_iter_} iterations "
                f"({result.message}); increase max_iter (now {self.max_iter}) or scale the features "
                "(StandardScaler)",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    @staticmethod
    def _converged(result):
        """L-BFGS-B can stop on a failed line search at the optimum itself (the objective cannot
        decrease any more in floating point): that counts as converged when the gradient is
        negligible."""
        return result.status == 2 and np.max(np.abs(result.jac)) < 1e-5

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # scikit-learn's generic classifier check trains on three blobs placed around the plane,
        # with no order among them; one latent direction cannot separate unordered classes, so
        # the model scores below that check's accuracy bar. poor_score is the tag for such models.
        tags.classifier_tags.poor_score = True
        return tags

    @staticmethod
    def _check_decision(decision):
        if decision not in ("mode", "median"):
            raise ValueError(f"decision must be 'mode' or 'median', got {decision!r}")

    def latent_score(self, X):
        """The latent score x·β of each example (higher means a higher class).

        Not named ``decision_function``: scikit-learn expects that to be positive exactly when
        the second class is predicted, whereas this score is compared with the cut-points."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_

    def predict_proba(self, X):
        """P(y = k | x) for every class k, columns in the order of ``classes_``."""
        eta = self.latent_score(X)
        cum = expit(self.cut_points_[None, :] - eta[:, None])
        cum = np.hstack([np.zeros((len(eta), 1)), cum, np.ones((len(eta), 1))])
        return np.diff(cum, axis=1)

    def predict(self, X, decision=None):
        """One class per example: the mode (default) or the median of the predicted distribution."""
        decision = self.decision if decision is None else decision
        self._check_decision(decision)
        proba = self.predict_proba(X)
        if decision == "mode":
            index = proba.argmax(axis=1)
        else:
            index = (np.cumsum(proba, axis=1) >= 0.5).argmax(axis=1)
        return self.classes_[index]
