"""Experiment A of chapter 3: reliability diagrams, on the test split, of a class-weighted logistic
regression before and after Platt scaling fitted on a separate calibration split, with 95% Wilson
intervals and the number of examples per bin."""

from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from beyond_accuracy import plots, term

NAME = "calibration-experiment-a"


def experiment_a():
    """(model, platt, X_test, y_test), exactly as in the chapter."""
    X, y = make_classification(
        n_samples=30_000, n_features=10, n_informative=5, weights=[0.966], flip_y=0.01, random_state=0
    )
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.5, random_state=0)
    X_cal, X_test, y_cal, y_test = train_test_split(X_rest, y_rest, test_size=0.5, random_state=0)
    model = LogisticRegression(class_weight="balanced").fit(X_train, y_train)
    platt = CalibratedClassifierCV(FrozenEstimator(model), method="sigmoid").fit(X_cal, y_cal)
    return model, platt, X_test, y_test


def draw():
    model, platt, X_test, y_test = experiment_a()
    probs = {
        term("raw_class_weighted"): model.predict_proba(X_test)[:, 1],
        term("after_platt"): platt.predict_proba(X_test)[:, 1],
    }
    fig = plots.plot_reliability_diagram(y_test, probs, n_bins=10)
    fig.set_size_inches(5.6, 6.0)
    return fig
