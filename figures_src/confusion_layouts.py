"""The book's confusion-matrix layout beside scikit-learn's default one for 0/1 labels."""

from beyond_accuracy import plots

NAME = "confusion-layouts"


def draw():
    return plots.plot_confusion_layouts()
