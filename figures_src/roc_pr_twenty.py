"""ROC and precision-recall curves of the 20 referred patients' scores."""

from beyond_accuracy import datasets, plots, term

NAME = "roc-pr-twenty"


def draw():
    patients = datasets.twenty_patients()
    return plots.plot_roc_pr(patients["y"], {term("model"): patients["score"]})
