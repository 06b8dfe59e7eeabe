import matplotlib.pyplot as plt
import numpy as np
import pytest

from beyond_accuracy import LANGUAGES, datasets, plots, set_language, term
from beyond_accuracy.metrics import threshold_table

PATIENTS = datasets.twenty_patients()


def texts(fig):
    return {t.get_text() for t in fig.findobj(plt.Text)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plots_are_labelled_in_the_language(lang):
    set_language(lang)
    y, s = PATIENTS["y"], PATIENTS["score"]
    fig = plots.plot_roc_pr(y, {"model": s})
    assert term("fpr_axis") in texts(fig) and term("recall_axis") in texts(fig)
    ax = plots.plot_confusion_matrix(y, (s >= 0.5).astype(int))
    assert {term("actual_class"), term("predicted_class"), term("sick"), term("healthy")} <= texts(ax.figure)
    ax = plots.plot_threshold_sweep(threshold_table(y, s, [0.2, 0.5, 0.8]))
    assert term("threshold") in texts(ax.figure)
    ax = plots.plot_scores(y, s, thresholds=(0.5,))
    assert term("score") in texts(ax.figure)


def test_tick_labels_use_the_decimal_comma():
    set_language("it")
    ax = plots.plot_roc(PATIENTS["y"], {"m": PATIENTS["score"]})
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert "0,4" in labels and not any("." in t for t in labels)


def test_confusion_matrix_cells_are_named_not_only_coloured():
    ax = plots.plot_confusion_matrix(PATIENTS["y"], (PATIENTS["score"] >= 0.5).astype(int))
    cell_texts = {t.get_text() for t in ax.texts}
    assert {"TP\n7", "FN\n3", "FP\n2", "TN\n8"} == cell_texts


def test_plots_reject_bad_input():
    with pytest.raises(ValueError, match="non-empty dict"):
        plots.plot_roc([0, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="same length"):
        plots.plot_pr([0, 1, 1], {"m": [0.2, 0.3]})
    with pytest.raises(ValueError, match="both classes"):
        plots.plot_roc([1, 1], {"m": [0.2, 0.3]})
    with pytest.raises(ValueError, match="lacks the columns"):
        plots.plot_threshold_sweep(PATIENTS)
    with pytest.raises(ValueError, match="at most two labels"):
        plots.plot_confusion_matrix([0, 1, 2], [0, 1, 1])


def test_expected_cost_plot_marks_the_minimum():
    from beyond_accuracy.metrics import expected_cost_by_threshold

    set_language("pt")
    y, s = PATIENTS["y"], PATIENTS["score"]
    table = expected_cost_by_threshold(y, s, np.linspace(0, 1, 21), c_fp=1, c_fn=5)
    ax = plots.plot_expected_cost(table)
    assert term("expected_cost_axis") in texts(ax.figure)
    assert any(term("minimum") in t for t in texts(ax.figure))
    with pytest.raises(ValueError, match="lacks the columns"):
        plots.plot_expected_cost(PATIENTS)
