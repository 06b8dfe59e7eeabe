"""Ordinal regression as a scikit-learn estimator: the proportional-odds (cumulative-logit) model.

    P(y <= k | x) = σ(θ_k − x·β),   θ_1 < θ_2 < … < θ_{K−1}

A single latent score x·β is cut into K ordered classes by K − 1 learned cut-points θ_k (not to
be confused with a decision threshold). The model is the one statsmodels fits with
``OrderedModel(y, X, distr="logit")`` (McCullagh, 1980); this estimator solves the same maximum
likelihood problem with scipy, so it can live in a scikit-learn ``Pipeline`` and be
cross-validated like any classifier.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class OrdinalLogisticRegression(ClassifierMixin, BaseEstimator):
    """Proportional-odds logistic regression for ordered classes.

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
        Iterations of the L-BFGS-B solver.

    The order of the classes is the sorted order of the labels seen in ``fit`` (``classes_``):
    use integers or other labels that sort in their natural order.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (n_features,)
        β: a larger x·β pushes the distribution towards higher classes.
    cut_points_ : ndarray of shape (K − 1,)
        θ_1 < … < θ_{K−1} on the latent scale.
    n_iter_ : int
    """

    def __init__(self, alpha=0.0, decision="mode", max_iter=1000):
        self.alpha = alpha
        self.decision = decision
        self.max_iter = max_iter

    # -- parameters: cut-points as a first value plus positive increments (exp), so they stay ordered
    @staticmethod
    def _cuts(params, n_cuts):
        start, logs = params[0], params[1:n_cuts]
        return start + np.concatenate([[0.0], np.cumsum(np.exp(logs))])

    def _objective(self, params, X, codes, n_cuts):
        cuts = self._cuts(params, n_cuts)
        beta = params[n_cuts:]
        eta = X @ beta
        upper = np.append(cuts, np.inf)[codes] - eta  # θ_k − η (θ_K = +∞)
        lower = np.insert(cuts, 0, -np.inf)[codes] - eta  # θ_{k−1} − η (θ_0 = −∞)
        F_up, F_low = expit(upper), expit(lower)
        prob = np.clip(F_up - F_low, 1e-300, None)
        f_up, f_low = F_up * (1 - F_up), F_low * (1 - F_low)
        nll = -np.sum(np.log(prob)) + 0.5 * self.alpha * beta @ beta
        # gradient: d(−log p)/dθ_k = −f(up)/p, d/dθ_{k−1} = f(low)/p, d/dη = (f(up) − f(low))/p
        g_eta = (f_up - f_low) / prob
        g_beta = X.T @ g_eta + self.alpha * beta
        g_cut = np.zeros(n_cuts)
        has_up = codes < n_cuts
        has_low = codes > 0
        np.add.at(g_cut, codes[has_up], -(f_up / prob)[has_up])
        np.add.at(g_cut, codes[has_low] - 1, (f_low / prob)[has_low])
        # chain rule to (start, log-increments): θ_j = start + Σ_{m<=j} exp(d_m)
        g_params = np.empty(n_cuts)
        g_params[0] = g_cut.sum()
        tail = np.cumsum(g_cut[::-1])[::-1]  # Σ_{j>=m} g_cut[j]
        g_params[1:] = np.exp(params[1:n_cuts]) * tail[1:]
        return nll, np.concatenate([g_params, g_beta])

    def fit(self, X, y):
        if (
            not isinstance(self.alpha, (int, float, np.integer, np.floating))
            or isinstance(self.alpha, bool)
            or not np.isfinite(self.alpha)
            or self.alpha < 0
        ):
            raise ValueError(f"alpha must be a non-negative number, got {self.alpha!r}")
        self._check_decision(self.decision)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"OrdinalLogisticRegression needs at least two classes in y, got {len(self.classes_)} class: "
                f"{self.classes_.tolist()}"
            )
        n_cuts = len(self.classes_) - 1
        # start from the cut-points of the marginal distribution, with β = 0
        cum = np.cumsum(np.bincount(codes, minlength=n_cuts + 1))[:-1] / len(codes)
        cum = np.clip(cum, 1e-6, 1 - 1e-6)
        start_cuts = np.log(cum / (1 - cum))
        start_cuts = np.maximum.accumulate(start_cuts + np.arange(n_cuts) * 1e-6)
        init = np.concatenate(
            [[start_cuts[0]], np.log(np.maximum(np.diff(start_cuts), 1e-6)), np.zeros(X.shape[1])]
        )
        result = minimize(
            self._objective,
            init,
            args=(X, codes, n_cuts),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": self.max_iter, "gtol": 1e-8, "ftol": 1e-14},
        )
        self.cut_points_ = self._cuts(result.x, n_cuts)
        self.coef_ = result.x[n_cuts:]
        self.n_iter_ = int(result.nit)
        return self

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
