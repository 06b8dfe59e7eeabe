"""The kappa paradox, in expectation and without sampling: one error mechanism (with probability
0.2 the answer moves one class up or down at random; at an edge the impossible move leaves it in
place) on three classes, while the share of the edge class 1 grows and classes 2 and 3 split the
rest. Accuracy rises, quadratic weighted kappa falls."""

import matplotlib.pyplot as plt
import numpy as np

from beyond_accuracy import plots, term

NAME = "ordinal-kappa-paradox"

P_MOVE = 0.2


def expected_confusion(proportions, p_move=P_MOVE):
    """Expected confusion matrix, as shares of the population (rows actual, columns predicted)."""
    k = len(proportions)
    move = np.zeros((k, k))
    for i in range(k):
        for j in (i - 1, i + 1):
            if 0 <= j < k:
                move[i, j] = p_move / 2
        move[i, i] = 1 - move[i].sum()
    return np.asarray(proportions, dtype=float)[:, None] * move


def quadratic_kappa(observed):
    k = len(observed)
    i, j = np.indices((k, k))
    w = (i - j) ** 2 / (k - 1) ** 2
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    return 1 - (w * observed).sum() / (w * expected).sum()


def draw():
    shares = np.linspace(1 / 3, 0.99, 200)
    rows = [expected_confusion([s, (1 - s) / 2, (1 - s) / 2]) for s in shares]
    kappa = np.array([quadratic_kappa(o) for o in rows])
    accuracy = np.array([np.trace(o) for o in rows])
    marked = {term("ord_equal_shares"): 1 / 3, "90/5/5": 0.90, "98/1/1": 0.98}

    fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    for values, style, label in (
        (kappa, plots.SERIES[0], term("weighted_kappa")),
        (accuracy, plots.SERIES[1], term("accuracy")),
    ):
        ax.plot(shares, values, color=style["color"], linestyle=style["linestyle"], linewidth=2)
        points = [expected_confusion([s, (1 - s) / 2, (1 - s) / 2]) for s in marked.values()]
        ys = [quadratic_kappa(o) if values is kappa else np.trace(o) for o in points]
        ax.plot(
            list(marked.values()),
            ys,
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=0,
            marker=style["marker"],
            markersize=7,
            markeredgecolor="black",
            label=label,
        )
    for name, s in marked.items():
        ax.axvline(s, **plots.BASELINE)
        ax.text(s, 0.405, name, rotation=90, ha="right", va="bottom", fontsize=8, color="0.3")
    ax.set_xlim(0.3, 1.0)
    ax.set_ylim(0.4, 1.0)
    ax.set_xlabel(term("ord_edge_share"))
    ax.set_ylabel(term("metric_value"))
    ax.set_title(term("ord_paradox_title"), fontsize=10)
    ax.legend(loc="lower center", bbox_to_anchor=(0.55, 0.06), fontsize=9)
    plots.localise_axes(ax)
    return fig
