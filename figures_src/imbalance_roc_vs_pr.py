"""ROC and precision-recall curves of one logistic regression on the fraud desk's validation set
(100,000 synthetic transactions, about 1% frauds; the chapter's split and model)."""

from _fraud_desk import validation_probabilities

from beyond_accuracy import plots, term

NAME = "imbalance-roc-vs-pr"


def draw():
    y_val, p_val = validation_probabilities()
    fig = plots.plot_roc_pr(y_val, {term("model"): p_val})
    for ax in fig.axes:  # thousands of points: keep a marker every few centimetres only
        for line in ax.lines[1:]:
            line.set_markevery(0.08)
    return fig
