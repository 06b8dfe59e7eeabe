"""ROC and precision-recall curves of one logistic regression on the fraud desk's validation set
(100,000 synthetic transactions, about 1% frauds; the chapter's split and model)."""

from functools import lru_cache

from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from beyond_accuracy import datasets, plots, term

NAME = "imbalance-roc-vs-pr"


@lru_cache(maxsize=1)
def validation_probabilities():
    X, y = datasets.transactions(n_samples=100_000)
    X_rest, _, y_rest, _ = train_test_split(X, y, test_size=0.20, stratify=y, random_state=0)
    X_train, X_val, y_train, y_val = train_test_split(X_rest, y_rest, test_size=0.25, stratify=y_rest,
                                                      random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    return y_val.to_numpy(), model.predict_proba(X_val)[:, 1]


def draw():
    y_val, p_val = validation_probabilities()
    fig = plots.plot_roc_pr(y_val, {term("model"): p_val})
    for ax in fig.axes:  # thousands of points: keep a marker every few centimetres only
        for line in ax.lines[1:]:
            line.set_markevery(0.08)
    return fig
