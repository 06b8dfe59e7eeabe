import matplotlib.pyplot as plt
import numpy as np
import pytest

from beyond_accuracy import LANGUAGES, datasets, plots, set_language, term
from beyond_accuracy.metrics import threshold_table

PATIENTS = datasets.twenty_patients()


def texts(fig):
    return {t.get_text() for t in fig.findobj(plt.Text)}


# The words of the plots, typed here from the terminology tables for English and Italian (the
# other languages are read with term(), so a swapped key shows there too).
WORDS = {
    "en": {
        "fpr_axis": "False positive rate (1 − specificity)",
        "tpr_axis": "True positive rate (recall)",
        "random_guess": "random guessing",
        "recall_axis": "Recall",
        "precision_axis": "Precision",
        "prevalence_line": "random: precision = prevalence",
        "threshold": "threshold",
        "metric_value": "value",
        "precision": "precision",
        "recall": "recall",
        "specificity": "specificity",
        "score": "score",
        "predicted_class": "Predicted class",
        "actual_class": "Actual class",
        "book_layout": "This book: positive class first",
        "sklearn_layout": "scikit-learn with 0/1: labels\nsorted, 0 first",  # wrapped at 36 characters
        "expected_cost_axis": "Expected cost per example",
        "minimum": "minimum",
        "given_label": "given",
        "predicted_label": "predicted",
        "examples_reviewed": "examples reviewed (k)",
        "precision_at_k": "precision@k",
        "recall_at_k": "recall@k",
        "random_order": "random review order",
        "ranked_by_loss": "reviewed by decreasing loss",
        "errors_found_share": "share of wrong labels found",
        "observed_frequency_axis": "Observed share of positives",
        "mean_predicted_axis": "Mean predicted probability",
        "perfect_calibration": "perfectly calibrated",
        "count": "count",
        "ordinal_bands": "dashed: one class away · dotted: two classes away",
        "latent_score": "latent score x·β",
        "cut_points": "learned cut-points θ and the class of each interval",
    },
    "it": {
        "fpr_axis": "Tasso di falsi positivi (1 − specificità)",
        "tpr_axis": "Tasso di veri positivi (recall)",
        "random_guess": "classificatore casuale",
        "recall_axis": "Recall",
        "precision_axis": "Precision",
        "prevalence_line": "casuale: precision = prevalenza",
        "threshold": "soglia",
        "metric_value": "valore",
        "precision": "precision (precisione)",
        "recall": "recall (sensibilità)",
        "specificity": "specificità",
        "score": "punteggio",
        "predicted_class": "Classe prevista",
        "actual_class": "Classe reale",
        "book_layout": "Questo libro: prima la classe\npositiva",
        "sklearn_layout": "scikit-learn con 0/1: etichette\nordinate, prima lo 0",
        "expected_cost_axis": "Costo atteso per singolo esempio",
        "minimum": "minimo",
        "given_label": "etichetta",
        "predicted_label": "prevista",
        "examples_reviewed": "esempi rivisti (k)",
        "precision_at_k": "precision@k",
        "recall_at_k": "recall@k",
        "random_order": "revisione in ordine casuale",
        "ranked_by_loss": "revisione per perdita decrescente",
        "errors_found_share": "quota di etichette errate trovate",
        "observed_frequency_axis": "Quota osservata di positivi",
        "mean_predicted_axis": "Probabilità prevista media",
        "perfect_calibration": "calibrazione perfetta",
        "count": "conteggio",
        "ordinal_bands": "tratteggio: una classe di distanza · puntini: due classi",
        "latent_score": "punteggio latente x·β",
        "cut_points": "punti di taglio appresi θ e la classe di ogni intervallo",
    },
}
DECIMAL = {"en": ".", "it": ",", "es": ",", "pt": ",", "fi": ","}
PERCENT = {"en": "%", "it": "%", "es": "\u00a0%", "pt": "%", "fi": "\u00a0%"}
WRAPPED = {"book_layout", "sklearn_layout"}  # titles wrapped by the plot: typed for en and it only

# Four patients with hand-worked curves: y = 0, 0, 1, 1 and scores 0.1, 0.4, 0.35, 0.8.
# AUC 3/4 (0.35 beats 0.1 only); AP = 1/2 * 1 + 1/2 * 2/3 = 0.833; prevalence 1/2.
# The reversed scores 1 - s: AUC 1/4, AP 1/2.
Y4, S4 = np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])


def axes_words(fig):
    """Size of the figure, then each axes' x label, y label, title and legend entries."""
    described = []
    for ax in fig.axes:
        legend = ax.get_legend()
        entries = [t.get_text() for t in legend.get_texts()] if legend else []
        described.append((ax.get_xlabel(), ax.get_ylabel(), ax.get_title(), entries))
    return tuple(round(float(x), 9) for x in fig.get_size_inches()), described


def drawn(lang):
    """Each plot function on small inputs, and what its figure must show in ``lang``."""
    from beyond_accuracy.metrics import expected_cost_by_threshold, hunt_curve
    from beyond_accuracy.plots import (
        plot_confusion_layouts,
        plot_confusion_matrix,
        plot_cut_points,
        plot_expected_cost,
        plot_hunt_curves,
        plot_image_gallery,
        plot_ordinal_confusion,
        plot_pr,
        plot_reliability_diagram,
        plot_review_budget,
        plot_roc,
        plot_roc_pr,
        plot_scores,
        plot_threshold_sweep,
    )

    w = WORDS[lang].__getitem__ if lang in WORDS else lambda key: term(key, lang)
    d, pct = DECIMAL[lang], PERCENT[lang]
    roc = (w("fpr_axis"), w("tpr_axis"), "", [w("random_guess"), f"m (AUC 0{d}750)"])
    pr = (w("recall_axis"), w("precision_axis"), "", [f"{w('prevalence_line')} (0{d}500)", f"m (AP 0{d}833)"])
    matrix = (w("predicted_class"), w("actual_class"))
    curve = hunt_curve([True, False, True, False], [0.9, 0.8, 0.3, 0.1])  # errors 1st and 3rd
    yield "roc", plot_roc(Y4, {"m": S4}).figure, ((4.2, 4.0), [roc])
    yield "pr", plot_pr(Y4, {"m": S4}).figure, ((4.2, 4.0), [pr])
    both = plot_roc_pr(Y4, {"m": S4, "n": 1 - S4})
    roc2 = (*roc[:3], [*roc[3], f"n (AUC 0{d}250)"])
    pr2 = (*pr[:3], [*pr[3], f"n (AP 0{d}500)"])
    yield "roc_pr", both, ((8.6, 4.2), [roc2, pr2])
    table = threshold_table(Y4, S4, [0.2, 0.5])
    sweep = plot_threshold_sweep(table, columns=("precision", "recall", "specificity", "f1")).figure
    legend = [w("precision"), w("recall"), w("specificity"), "F1"]
    yield "threshold_sweep", sweep, ((5.0, 3.4), [(w("threshold"), w("metric_value"), "", legend)])
    yield "scores", plot_scores(Y4, S4).figure, ((7.6, 2.6), [(w("score"), "", "", [])])
    yield "confusion", plot_confusion_matrix(Y4, S4 >= 0.5).figure, ((3.8, 3.4), [(*matrix, "", [])])
    if lang in WORDS:
        layouts = [(*matrix, w("book_layout"), []), (*matrix, w("sklearn_layout"), [])]
        yield "confusion_layouts", plot_confusion_layouts(), ((8.4, 3.9), layouts)
    costs = expected_cost_by_threshold(Y4, S4, [0.2, 0.3, 0.5], c_fp=1, c_fn=5)  # 1/4, 1/4, 5/4
    cost = (w("threshold"), w("expected_cost_axis"), "", [f"{w('minimum')}: {w('threshold')} 0{d}20"])
    yield "expected_cost", plot_expected_cost(costs).figure, ((5.4, 3.6), [cost])
    gallery = plot_image_gallery(np.zeros((5, 4)), [1, 2, 3, 4, 5], [1, 2, 3, 4, 6], ncols=3)
    titles = [
        f"{w('given_label')}: {g}\n{w('predicted_label')}: {p}" for g, p in zip(range(1, 6), [1, 2, 3, 4, 6])
    ]
    yield "image_gallery", gallery, ((4.65, 3.7), [("", "", t, []) for t in [*titles, ""]])
    hunt = [w("precision_at_k"), w("recall_at_k"), f"{w('random_order')} (0{d}500)"]
    yield (
        "hunt",
        plot_hunt_curves(curve).figure,
        ((5.4, 3.6), [(w("examples_reviewed"), w("metric_value"), "", hunt)]),
    )
    budget = [w("ranked_by_loss"), w("random_order"), f"50{pct}: k = 1", f"100{pct}: k = 3"]
    budget_axes = (w("examples_reviewed"), w("errors_found_share"), "", budget)
    yield "review_budget", plot_review_budget(curve, targets=(0.5, 1.0)).figure, ((5.4, 3.6), [budget_axes])
    reliability = plot_reliability_diagram(Y4, {"m": S4, "n": 1 - S4}, n_bins=2)
    top = ("", w("observed_frequency_axis"), "", [w("perfect_calibration"), "m", "n"])
    yield "reliability", reliability, ((4.8, 5.6), [top, (w("mean_predicted_axis"), w("count"), "", [])])
    alone = plot_reliability_diagram(Y4, {"m": S4}, n_bins=2, show_counts=False)
    alone_axes = (w("mean_predicted_axis"), w("observed_frequency_axis"), "", [w("perfect_calibration"), "m"])
    yield "reliability_without_counts", alone, ((4.8, 4.4), [alone_axes])
    ordinal = plot_ordinal_confusion([1, 2, 3], [1, 3, 3], labels=[1, 2, 3]).figure
    yield "ordinal_confusion", ordinal, ((4.6, 4.0), [(*matrix, w("ordinal_bands"), [])])
    cuts = plot_cut_points([0.0, 1.0], labels=["a", "b", "c"]).figure
    yield "cut_points", cuts, ((7.0, 2.8), [(w("latent_score"), "", w("cut_points"), [])])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plots_are_labelled_in_the_language(lang):
    """Every plot function's size, axis labels, titles and legend entries, exactly."""
    set_language(lang)
    seen = []
    for name, fig, expected in drawn(lang):
        assert axes_words(fig) == expected, name
        seen.append(name)
        plt.close(fig)
    assert len(seen) == (15 if lang in WORDS else 14)


def test_confusion_matrix_ticks_name_the_classes():
    set_language("it")
    ax = plots.plot_confusion_matrix(PATIENTS["y"], (PATIENTS["score"] >= 0.5).astype(int))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["malato", "sano"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["malato", "sano"]
    ax = plots.plot_scores(PATIENTS["y"], PATIENTS["score"], thresholds=(0.5,))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["sano", "malato"]
    assert "soglia 0,50" in texts(ax.figure)


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
