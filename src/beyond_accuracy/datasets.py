"""Data sets of the course: small teaching examples defined here, and real data shipped with
scikit-learn. Nothing is downloaded."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer

_TWENTY_SCORES = [
    0.95,
    0.90,
    0.85,
    0.80,
    0.75,
    0.70,
    0.65,
    0.60,
    0.55,
    0.45,
    0.40,
    0.35,
    0.30,
    0.25,
    0.20,
    0.15,
    0.10,
    0.08,
    0.05,
    0.02,
]
_TWENTY_Y = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]


def twenty_patients() -> pd.DataFrame:
    """The running example of chapter 1: 20 referred patients, P01 to P20.

    Columns: ``patient`` (id), ``score`` (the model's output, in descending order) and ``y``
    (1 = sick, 0 = healthy). Ten are sick and ten healthy.
    """
    return pd.DataFrame(
        {
            "patient": [f"P{i:02d}" for i in range(1, 21)],
            "score": _TWENTY_SCORES,
            "y": _TWENTY_Y,
        }
    )


def thousand_patients() -> pd.DataFrame:
    """1,000 patients of whom 10 are sick (prevalence 1%), for the accuracy paradox.

    Columns: ``patient``, ``y`` (1 = sick) and ``lazy``, the decisions of a "lazy" model that
    finds 5 of the 10 sick patients and raises 10 false alarms. Rows are in a fixed shuffled order.
    """
    y = np.zeros(1000, dtype=int)
    y[:10] = 1
    lazy = np.zeros(1000, dtype=int)
    lazy[:5] = 1  # five of the sick are found
    lazy[10:20] = 1  # ten healthy patients are flagged
    order = np.random.default_rng(0).permutation(1000)
    return pd.DataFrame(
        {"patient": [f"Q{i:04d}" for i in range(1, 1001)], "y": y[order], "lazy": lazy[order]}
    )


def triage_counts() -> pd.DataFrame:
    """Confusion counts of a triage model on 200 patients (rows: actual risk, columns: predicted)."""
    levels = ["low", "medium", "high"]
    counts = [[110, 9, 1], [8, 46, 6], [2, 8, 10]]
    return pd.DataFrame(
        counts,
        index=pd.Index(levels, name="actual"),
        columns=pd.Index(levels, name="predicted"),
    )


def labels_from_counts(counts: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Expand a confusion-count table (rows actual, columns predicted) into ``(y_true, y_pred)``."""
    if not isinstance(counts, pd.DataFrame):
        raise ValueError("counts must be a DataFrame with actual classes as rows and predicted as columns")
    values = counts.to_numpy()
    if values.shape[0] != values.shape[1] or list(counts.index) != list(counts.columns):
        raise ValueError("counts must be square with the same labels on rows and columns")
    if pd.isna(values).any() or (values < 0).any() or not np.equal(np.mod(values, 1), 0).all():
        raise ValueError("counts must be non-negative whole numbers")
    labels = list(counts.index)
    y_true, y_pred = [], []
    for i, actual in enumerate(labels):
        for j, predicted in enumerate(labels):
            n = int(values[i, j])
            y_true += [actual] * n
            y_pred += [predicted] * n
    return np.array(y_true), np.array(y_pred)


def smoke_detector_nights() -> pd.DataFrame:
    """100 nights watched by a three-answer smoke detector that always answers "nothing".

    Columns ``actual`` (94 "nothing", 3 "pan smoke", 3 "fire") and ``predicted`` (all "nothing").
    """
    actual = ["nothing"] * 94 + ["pan smoke"] * 3 + ["fire"] * 3
    return pd.DataFrame({"actual": actual, "predicted": ["nothing"] * 100})


def load_biopsies(features: str = "all") -> tuple[pd.DataFrame, pd.Series]:
    """The Wisconsin breast-cancer biopsies (569, 212 malignant), with **1 = malignant**.

    scikit-learn's ``load_breast_cancer`` codes 1 = benign; here the target is flipped so that the
    positive class is the one we look for. ``features="mean"`` keeps only the ten ``mean ...``
    features. Returns ``(X, y)``; ``y`` is named ``malignant``. Data: CC BY 4.0 (UCI).
    """
    if features not in ("all", "mean"):
        raise ValueError(f"features must be 'all' or 'mean', got {features!r}")
    data = load_breast_cancer(as_frame=True)
    X = data.data
    if features == "mean":
        X = X[[c for c in X.columns if c.startswith("mean ")]]
    y = (1 - data.target).rename("malignant")
    return X.copy(), y


__all__ = [
    "twenty_patients",
    "thousand_patients",
    "triage_counts",
    "labels_from_counts",
    "smoke_detector_nights",
    "load_biopsies",
    "transactions",
    "corrupt_labels",
    "marriage_ratings",
    "diabetes_stages",
]


_TRANSACTIONS_POPULATION_SEED = 0  # fixes the population; random_state only draws the sample


def transactions(n_samples: int = 20_000, prevalence: float = 0.01, random_state: int = 0):
    """A synthetic, fraud-like data set: ``(X, y)`` with ``round(prevalence * n_samples)`` frauds.

    The payments are drawn from one fixed population, built like scikit-learn's
    ``make_classification``: 10 numeric features ``v01`` to ``v10`` (5 informative, 2 redundant
    linear combinations of them, 3 pure noise); each class is a mixture of two Gaussian clusters
    centred on vertices of a hypercube (``class_sep=1.0``), with a random covariance per cluster;
    no label noise. A linear model separates the classes well but not perfectly, as with real
    transaction monitoring. The clusters, their covariances and the order of the features never
    change: ``n_samples`` and ``random_state`` only decide how many payments are drawn and which,
    and ``prevalence`` only the mix of the two classes (the payments of each class look the same
    at every prevalence). So a larger sample is the same problem measured more precisely, not a
    different problem. Seeded: the same arguments always give the same data. ``y`` is named
    ``fraud`` (1 = fraud).
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 100:
        raise ValueError(f"n_samples must be a whole number of at least 100, got {n_samples!r}")
    if isinstance(prevalence, bool) or not isinstance(prevalence, (int, float)) or not 0 < prevalence <= 0.5:
        raise ValueError(f"prevalence must lie in (0, 0.5], got {prevalence!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)) or random_state < 0:
        raise ValueError(f"random_state must be a non-negative whole number, got {random_state!r}")
    n_samples = int(n_samples)
    n_fraud = round(prevalence * n_samples)
    if n_fraud < 1:
        raise ValueError(
            f"n_samples={n_samples} at prevalence={prevalence} gives no fraud at all; draw more payments"
        )
    # The population: the same for every call.
    population = np.random.default_rng(_TRANSACTIONS_POPULATION_SEED)
    n_informative, n_redundant, n_noise, class_sep = 5, 2, 3, 1.0
    vertices = population.choice(2**n_informative, size=4, replace=False)  # clusters: 2 legitimate, 2 fraud
    centroids = class_sep * (2.0 * ((vertices[:, None] >> np.arange(n_informative)) & 1) - 1)
    covariance_maps = population.uniform(-1, 1, size=(4, n_informative, n_informative))
    redundant_map = population.uniform(-1, 1, size=(n_informative, n_redundant))
    feature_order = population.permutation(n_informative + n_redundant + n_noise)
    # The sample: drawn from its own stream, so it never reuses the population's random numbers.
    rng = np.random.default_rng(np.random.SeedSequence(int(random_state), spawn_key=(1,)))
    n_legitimate = n_samples - n_fraud
    sizes = [n_legitimate - n_legitimate // 2, n_legitimate // 2, n_fraud - n_fraud // 2, n_fraud // 2]
    informative = np.vstack(
        [
            rng.standard_normal((size, n_informative)) @ covariance_maps[k] + centroids[k]
            for k, size in enumerate(sizes)
        ]
    )
    X = np.hstack([informative, informative @ redundant_map, rng.standard_normal((n_samples, n_noise))])
    y = np.repeat([0, 0, 1, 1], sizes)
    rows = rng.permutation(n_samples)
    columns = [f"v{i:02d}" for i in range(1, 11)]
    return pd.DataFrame(X[rows][:, feature_order], columns=columns), pd.Series(y[rows], name="fraud")


def corrupt_labels(y, fraction: float, random_state: int = 0):
    """Corrupt a known share of labels: returns ``(y_noisy, corrupted)``.

    Exactly ``round(fraction * n)`` examples, chosen at random without replacement, get a label
    drawn uniformly from the *other* classes present in ``y``; ``corrupted`` is the boolean mask
    of those examples. Seeded by ``random_state``. ``y`` keeps its type (array, Series,
    Categorical) and its dtype (a categorical keeps its categories and their order).
    """
    from . import _validation as v

    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype):
        codes = np.asarray(y.codes if isinstance(y, pd.Categorical) else y.cat.codes)
        if (codes < 0).any():
            raise ValueError(
                f"y contains missing values (NaN/None) at positions {np.flatnonzero(codes < 0)[:5].tolist()}"
            )
        noisy_codes, corrupted = corrupt_labels(codes, fraction, random_state)
        noisy = pd.Categorical.from_codes(noisy_codes, dtype=dtype)
        if isinstance(y, pd.Series):
            noisy = pd.Series(noisy, index=y.index, name=y.name)
        return noisy, corrupted
    values = v.as_1d(y, "y")
    f = v.number(fraction, "fraction", low=0, high=1)
    classes = np.unique(values)
    if len(classes) < 2:
        raise ValueError("y holds a single class: there is no other label to corrupt it into")
    rng = np.random.default_rng(random_state)
    n_corrupt = int(round(f * len(values)))
    chosen = rng.choice(len(values), size=n_corrupt, replace=False)
    noisy = values.copy()
    for i in chosen:
        others = classes[classes != values[i]]
        noisy[i] = others[rng.integers(len(others))]
    corrupted = np.zeros(len(values), dtype=bool)
    corrupted[chosen] = True
    if isinstance(y, pd.Series):
        noisy = pd.Series(noisy, index=y.index, name=y.name)
    return noisy, corrupted


def marriage_ratings() -> tuple[pd.DataFrame, pd.Series]:
    """How 6,366 married women rated their marriage in a 1974 survey (statsmodels' ``fair`` data,
    Fair 1978), as ``(X, y)``.

    ``y`` (``rate_marriage``) is ordinal, 1 = very poor to 5 = very good, with counts
    99 / 348 / 993 / 2242 / 2684: real, skewed, with a weak signal. ``X`` holds ``age``,
    ``yrs_married``, ``children``, ``religious`` (1-4), ``educ`` (years), ``occupation`` and
    ``occupation_husb`` (coded 1-6) and ``affairs`` (time spent in extramarital affairs).
    Shipped with statsmodels; nothing is downloaded.
    """
    import statsmodels.api as sm

    data = sm.datasets.fair.load_pandas().data
    y = data["rate_marriage"].astype(int).rename("rate_marriage")
    return data.drop(columns="rate_marriage").copy(), y


def diabetes_stages(edges=(100, 120, 140, 250)) -> tuple[pd.DataFrame, pd.Series]:
    """scikit-learn's diabetes data (442 patients, Efron et al. 2004) with its target, a
    quantitative measure of disease progression one year after baseline (25-346), cut into
    ordered stages at ``edges``: with the default, stage 1 is below 100, stage 2 from 100 to
    below 120, stage 3 from 120 to below 140, stage 4 from 140 to below 250 and stage 5 from 250
    up. The two middle stages are narrow and stage 4 is wide, on purpose: an ordinal model's
    learned cut-points show it. Deterministic: no randomness is involved.
    Returns ``(X, y)`` with ``y`` named ``stage``.
    """
    from sklearn.datasets import load_diabetes

    edges = np.asarray(edges, dtype=float)
    if edges.ndim != 1 or len(edges) < 1 or np.isnan(edges).any() or np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must be an increasing sequence of numbers, got {edges.tolist()}")
    data = load_diabetes(as_frame=True)
    stage = np.searchsorted(edges, data.target.to_numpy(), side="right") + 1
    return data.data.copy(), pd.Series(stage, name="stage")
