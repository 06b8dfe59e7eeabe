"""Per-example losses on the validation set of the chapter's controlled experiment (60 of 2,000
labels flipped, logistic regression), sorted from the highest down; corrupted labels are marked
apart from correct ones. Left: the whole ranking; right: its first 50 examples."""

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from beyond_accuracy import plots, term
from beyond_accuracy.metrics import per_example_log_loss

NAME = "errors-ranking"
TOP = 50


@lru_cache(maxsize=1)
def ranking():
    X, y_clean = make_classification(
        n_samples=2000, n_features=12, n_informative=6, flip_y=0, class_sep=1.2, random_state=0
    )
    rng = np.random.default_rng(0)
    flipped = rng.choice(len(y_clean), size=60, replace=False)
    y_given = y_clean.copy()
    y_given[flipped] = 1 - y_given[flipped]
    X_train, X_valid, y_train, y_valid, _, wrong_valid = train_test_split(
        X, y_given, y_given != y_clean, test_size=0.4, random_state=0
    )
    model = LogisticRegression().fit(X_train, y_train)
    loss = per_example_log_loss(y_valid, model.predict_proba(X_valid))
    order = np.argsort(-loss, kind="stable")
    return loss[order], wrong_valid[order]


def _panel(ax, loss, wrong, clean_size, wrong_size):
    rank = np.arange(1, len(loss) + 1)
    ax.scatter(
        rank[~wrong],
        loss[~wrong],
        s=clean_size,
        marker="o",
        facecolor="none",
        edgecolor=plots.PALETTE["blue"],
        linewidth=0.8,
        label=term("clean_label"),
    )
    ax.scatter(
        rank[wrong],
        loss[wrong],
        s=wrong_size,
        marker="X",
        color=plots.PALETTE["vermillion"],
        edgecolor="black",
        linewidth=0.4,
        label=term("corrupted_label"),
        zorder=3,
    )
    ax.set_xlabel(term("rank_by_loss"))
    plots.localise_axes(ax)


def draw():
    loss, wrong = ranking()
    fig, (ax_all, ax_top) = plt.subplots(
        1, 2, figsize=(9.6, 3.8), layout="constrained", gridspec_kw={"width_ratios": [3, 2]}
    )
    _panel(ax_all, loss, wrong, clean_size=8, wrong_size=36)
    ax_all.axvspan(0.5, TOP + 0.5, facecolor="0.85", alpha=0.5, linewidth=0)
    ax_all.set_ylabel(term("loss_axis"))
    ax_all.set_title(term("whole_ranking"), fontsize=10)
    ax_all.legend(fontsize=8, loc="upper right")
    _panel(ax_top, loss[:TOP], wrong[:TOP], clean_size=30, wrong_size=50)
    for k in (10, 25):
        ax_top.axvline(k + 0.5, **plots.BASELINE)
    ax_top.set_xlim(0, TOP + 1)
    ax_top.set_ylim(bottom=0)
    ax_top.set_title(term("top_of_ranking"), fontsize=10)
    return fig
