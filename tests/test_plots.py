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
        "errors_found_share": "quota di etichette sbagliate trovate",
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


# --- found by mutation testing (make mutation): what each plot draws, exactly ---------------------


def _cell_texts(ax):
    return [(t.get_position(), t.get_text(), t.get_fontweight()) for t in ax.texts]


def test_confusion_layouts_put_the_two_diagonals_side_by_side():
    import textwrap

    set_language("it")
    fig = plots.plot_confusion_layouts()
    book, sklearn = fig.axes
    assert tuple(fig.get_size_inches()) == (8.4, 3.9)
    assert [t.get_text() for t in book.texts] == ["TP", "FN", "FP", "TN"]  # rows actual, columns predicted
    assert [t.get_text() for t in sklearn.texts] == ["TN", "FP", "FN", "TP"]
    sick, healthy = f"{term('sick')} (1)", f"{term('healthy')} (0)"
    assert [t.get_text() for t in book.get_xticklabels()] == [sick, healthy]
    assert [t.get_text() for t in sklearn.get_yticklabels()] == [healthy, sick]
    assert book.get_title() == "\n".join(textwrap.wrap(term("book_layout"), 36))
    assert sklearn.get_title() == "\n".join(textwrap.wrap(term("sklearn_layout"), 36))
    assert book.get_xlabel() == term("predicted_class") and book.get_ylabel() == term("actual_class")
    # light cells are the correct decisions in both layouts
    assert book.images[0].get_array().tolist() == [[1, 0], [0, 1]]
    assert sklearn.images[0].get_array().tolist() == [[1, 0], [0, 1]]
    bold = {t.get_text() for t in book.texts + sklearn.texts if t.get_fontweight() == "bold"}
    assert bold == {"TP", "TN"}


def test_ordinal_confusion_counts_bands_and_labels():
    # actual low, low, mid, high, high, high; predicted low, mid, mid, high, low, high
    y_true = ["low", "low", "mid", "high", "high", "high"]
    y_pred = ["low", "mid", "mid", "high", "low", "high"]
    labels = ["low", "mid", "high", "extreme"]  # the order of the classes, one never seen
    ax = plots.plot_ordinal_confusion(y_true, y_pred, labels)
    assert tuple(ax.figure.get_size_inches()) == pytest.approx((0.8 * 4 + 2.2, 0.8 * 4 + 1.6))
    by_cell = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    counts = [[by_cell[i, j].get_text() for j in range(4)] for i in range(4)]
    assert counts == [["1", "1", "0", "0"], ["0", "1", "0", "0"], ["1", "0", "2", "0"], ["0", "0", "0", "0"]]
    # the largest count is written in black, the others in white on the dark cells
    assert by_cell[2, 2].get_color() == "black" and by_cell[0, 0].get_color() == "white"
    assert {k for k, t in by_cell.items() if t.get_fontweight() == "bold"} == {(0, 0), (1, 1), (2, 2), (3, 3)}
    assert all(t.get_fontsize() == 9 for t in ax.texts)
    bands = [p for p in ax.patches if isinstance(p, plt.Rectangle)]
    styles = sorted(p.get_linestyle() for p in bands)
    assert styles.count("--") == 6 and styles.count(":") == 4  # 2(k - 1) and 2(k - 2) cells
    assert all(not p.get_fill() and p.get_linewidth() == 1.0 for p in bands)
    assert [t.get_text() for t in ax.get_xticklabels()] == labels
    assert [t.get_text() for t in ax.get_yticklabels()] == labels
    assert ax.images[0].get_cmap().name == "cividis"
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == (
        term("predicted_class"),
        term("actual_class"),
        term("ordinal_bands"),
    )


def test_normalised_ordinal_confusion_shows_shares_of_each_actual_class():
    set_language("it")
    ax = plots.plot_ordinal_confusion([1, 1, 2, 3, 3, 3], [1, 2, 2, 3, 1, 3], [1, 2, 3], normalize=True)
    by_cell = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    assert [by_cell[2, j] for j in range(3)] == ["0,33", "0,00", "0,67"]  # 1, 0 and 2 of 3
    assert [by_cell[0, j] for j in range(3)] == ["0,50", "0,50", "0,00"]
    assert ax.images[0].get_array().max() == 1.0


def test_cut_points_plot_marks_each_cut_and_names_each_interval():
    ax = plots.plot_cut_points([-1.0, 0.5, 2.0])
    assert tuple(ax.figure.get_size_inches()) == (7.0, 2.8)
    # span 3: the axis runs 0.6 spans and one unit beyond the outer cuts
    assert ax.get_xlim() == pytest.approx((-1.0 - 1.8 - 1, 2.0 + 1.8 + 1))
    lines = ax.get_lines()
    assert [line.get_xdata()[0] for line in lines] == [-1.0, 0.5, 2.0]
    assert all(
        (line.get_color(), line.get_linestyle(), line.get_linewidth()) == ("black", "--", 1.2)
        for line in lines
    )
    texts = {t.get_text(): t for t in ax.texts}
    assert [t.get_text() for t in ax.texts] == ["θ1", "θ2", "θ3", "1", "2", "3", "4"]
    assert texts["θ2"].get_position() == (0.5, 1.02)
    # each class sits in the middle of its interval: bounds -3.8, -1, 0.5, 2, 4.8
    assert [texts[c].get_position()[0] for c in "1234"] == pytest.approx([-2.4, -0.25, 1.25, 3.4])
    assert {texts[c].get_position()[1] for c in "1234"} == {0.9}
    assert ax.get_title() == term("cut_points") and ax.get_xlabel() == term("latent_score")
    single = plots.plot_cut_points([0.0], labels=["no", "yes"])
    assert single.get_xlim() == pytest.approx((-2.2, 2.2))  # one cut: a span of 2
    assert [t.get_text() for t in single.texts] == ["θ1", "no", "yes"]


def test_cut_points_plot_of_a_model_draws_the_latent_scores():
    from beyond_accuracy.ordinal import OrdinalLogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 1))
    y = np.digitize(X[:, 0] + rng.normal(scale=0.5, size=120), [-0.5, 0.5]) + 1
    model = OrdinalLogisticRegression().fit(X, y)
    ax = plots.plot_cut_points(model, X)
    assert len(ax.patches) == 40  # histogram bars
    bar = ax.patches[0]
    assert bar.get_facecolor()[:3] == pytest.approx(plt.matplotlib.colors.to_rgb(plots.PALETTE["sky"]))
    assert bar.get_edgecolor()[:3] == (1.0, 1.0, 1.0)
    assert [t.get_text() for t in ax.texts][-3:] == ["1", "2", "3"]  # the model's classes
    scores = model.latent_score(X)
    low, high = ax.get_xlim()
    assert low <= np.percentile(scores, 1) and high >= np.percentile(scores, 99)


def _hunt(errors_in_review_order):
    """A hunt curve typed by hand: errors_in_review_order[i] says if the (i+1)-th example opened is an error."""
    import pandas as pd

    found = np.cumsum(errors_in_review_order)
    k = np.arange(1, len(found) + 1)
    return pd.DataFrame({"k": k, "found": found, "precision": found / k, "recall": found / found[-1]})


def test_review_budget_marks_the_first_k_that_reaches_each_target():
    set_language("it")
    curve = _hunt([1, 1, 0, 1, 0, 0, 0, 1, 0, 0])  # 4 errors: 50 % at k = 2, 75 % at k = 4, 100 % at k = 8
    ax = plots.plot_review_budget(curve, targets=(0, 0.5, 0.75, 1.0))
    markers = ax.get_lines()[2:]
    assert [(m.get_xdata()[0], m.get_ydata()[0]) for m in markers] == [(0, 0), (2, 0.5), (4, 0.75), (8, 1.0)]
    assert [m.get_label() for m in markers] == ["0%: k = 0", "50%: k = 2", "75%: k = 4", "100%: k = 8"]
    assert [m.get_marker() for m in markers] == [plots.series_style(i)["marker"] for i in (1, 2, 3, 4)]
    assert all(m.get_markeredgecolor() == "black" and m.get_markersize() == 8 for m in markers)
    assert ax.get_ylim() == (-0.02, 1.02)
    assert tuple(ax.figure.get_size_inches()) == (5.4, 3.6)
    random_order = ax.get_lines()[1]
    assert (list(random_order.get_xdata()), list(random_order.get_ydata())) == ([0, 10], [0, 1])
    big = _hunt([1] + [0] * 1499)
    assert ax.figure is not plots.plot_review_budget(big, targets=1.0).figure
    assert plt.gca().get_lines()[-1].get_label() == "100%: k = 1"
    assert plots.plot_review_budget(_hunt([0] * 1233 + [1]), targets=1.0).get_lines()[-1].get_label() == (
        "100%: k = 1.234"
    )


def test_hunt_curves_show_precision_recall_and_the_random_order():
    curve = _hunt([1, 0, 1, 0, 0, 0, 0, 0])  # 2 errors in 8: a random order finds a quarter
    ax = plots.plot_hunt_curves(curve)
    assert [line.get_label() for line in ax.get_lines()] == [
        term("precision_at_k"),
        term("recall_at_k"),
        f"{term('random_order')} (0.250)",
    ]
    assert ax.get_ylim() == (-0.02, 1.02)
    assert (ax.get_xlabel(), ax.get_ylabel()) == (term("examples_reviewed"), term("metric_value"))


def test_matrix_titles_wrap_at_36_characters_and_class_names_label_both_axes():
    ax = plots._draw_matrix(
        [[1, 2], [3, 4]], [["TP", "FN"], ["FP", "TN"]], ("yes", "no"), title="abcd " * 7 + "abcdefgh"
    )
    # 7 words of 4 letters fill 34 characters; one more word would pass 36
    assert ax.get_title() == "abcd abcd abcd abcd abcd abcd abcd\nabcdefgh"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["yes", "no"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["yes", "no"]
    assert {t.get_text() for t in ax.texts if t.get_fontweight() == "bold"} == {"TP\n1", "TN\n4"}
    assert (
        plots._draw_matrix(None, [["TN", "FP"], ["FN", "TP"]], ("a", "b"), title="x" * 36).get_title()
        == "x" * 36
    )
    wide = plots._draw_matrix(None, [["TP", "FN"], ["FP", "TN"]], ("a", "b"), title="abcd " * 7 + "ab")
    assert wide.get_title() == "abcd abcd abcd abcd abcd abcd abcd\nab"  # 37 characters do not fit


def test_roc_pr_side_by_side_with_the_positive_label_passed_on():
    y = np.array(["no", "yes", "no", "yes", "yes"])
    s = np.array([0.1, 0.8, 0.4, 0.35, 0.9])
    fig = plots.plot_roc_pr(y, {"m": s}, pos_label="yes")
    assert tuple(fig.get_size_inches()) == (8.6, 4.2)
    assert fig.get_layout_engine().__class__.__name__ == "ConstrainedLayoutEngine"
    roc, pr = fig.axes
    assert roc.get_xlabel() == term("fpr_axis") and pr.get_xlabel() == term("recall_axis")


def test_image_gallery_names_its_arguments_in_errors():
    images = np.zeros((2, 4))
    with pytest.raises(ValueError, match="^given must be 1-D"):
        plots.plot_image_gallery(images, [[0, 1]], [0, 1])
    with pytest.raises(ValueError, match="^predicted must be 1-D"):
        plots.plot_image_gallery(images, [0, 1], [[0, 1]])


def test_expected_cost_minimum_is_a_large_outlined_triangle():
    import pandas as pd

    table = pd.DataFrame({"threshold": [0.2, 0.4, 0.6], "cost": [0.5, 0.3, 0.4]})
    ax = plots.plot_expected_cost(table)
    best = ax.get_lines()[1]
    assert (best.get_xdata()[0], best.get_ydata()[0]) == (0.4, 0.3)
    assert (best.get_marker(), best.get_markersize(), best.get_markeredgecolor()) == ("v", 9, "black")
    assert best.get_label() == f"{term('minimum')}: {term('threshold')} 0.40"


def test_reliability_diagram_bars_sit_side_by_side_in_each_bin():
    from matplotlib.colors import to_rgba

    from beyond_accuracy.metrics import reliability_table

    y = np.array([0, 0, 1, 1, 0, 1])
    a = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.9])
    b = np.array([0.2, 0.1, 0.4, 0.8, 0.6, 0.95])
    fig = plots.plot_reliability_diagram(y, {"a": a, "b": b}, n_bins=2)
    assert tuple(fig.get_size_inches()) == (4.8, 5.6)
    ax, ax_n = fig.axes
    # two bins of width 0.5; two models share 0.8 of each bin: bars 0.2 wide, 0.1 either side of the centre
    bars = ax_n.patches
    assert [round(p.get_x() + p.get_width() / 2, 9) for p in bars] == [0.15, 0.65, 0.35, 0.85]
    assert [p.get_width() for p in bars] == pytest.approx([0.2] * 4)
    assert [p.get_height() for p in bars] == [3, 3, 3, 3]
    assert [p.get_hatch() or "" for p in bars] == ["", "", "//", "//"]
    assert all(p.get_edgecolor() == to_rgba("black") for p in bars)
    assert ax_n.get_yscale() == "linear"
    assert (ax_n.get_xlabel(), ax_n.get_ylabel()) == (term("mean_predicted_axis"), term("count"))
    assert [text.get_text() for text in ax.get_legend().get_texts()] == [
        term("perfect_calibration"),
        "a",
        "b",
    ]
    # error bars: the 95 % Wilson interval of each bin
    table = reliability_table(y, a, n_bins=2)
    segments = ax.containers[0].lines[2][0].get_segments()
    assert [s[0][1] for s in segments] == pytest.approx(list(table["ci_lower"]))
    assert [s[1][1] for s in segments] == pytest.approx(list(table["ci_upper"]))
    assert ax.containers[0].lines[0].get_markersize() == 4.5


def test_reliability_diagram_without_counts_and_its_log_scale():
    fig = plots.plot_reliability_diagram(
        [0, 1, 0, 1], {"m": [0.1, 0.4, 0.6, 0.9]}, n_bins=2, show_counts=False
    )
    assert tuple(fig.get_size_inches()) == (4.8, 4.4)
    assert len(fig.axes) == 1 and fig.axes[0].get_xlabel() == term("mean_predicted_axis")

    def scale(n_low, n_high):  # one bin with n_low examples, the other with n_high
        p = np.r_[np.full(n_low, 0.2), np.full(n_high, 0.8)]
        y = np.r_[np.zeros(n_low - 1), 1, np.ones(n_high - 1), 0]
        return plots.plot_reliability_diagram(y, {"m": p}, n_bins=2).axes[1].get_yscale()

    assert scale(1, 51) == "log"  # counts span more than a factor 50
    assert scale(1, 50) == "linear"


def test_roc_and_pr_baselines_markers_and_limits():
    y, s = PATIENTS["y"], PATIENTS["score"]
    ax = plots.plot_roc(y, {"m": s, "n": 1 - s})
    baseline, m, n = ax.get_lines()
    assert baseline.get_label() == term("random_guess")
    assert (list(baseline.get_xdata()), list(baseline.get_ydata())) == ([0, 1], [0, 1])
    assert (m.get_marker(), n.get_marker()) == ("o", "s")
    assert ax.get_ylim() == (-0.02, 1.02)
    pr = plots.plot_pr(y, {"m": s})
    assert pr.get_ylim() == (-0.02, 1.05)
    assert pr.get_legend()._loc == 3  # lower left, away from the curve's start at the top left
    assert pr.get_lines()[1].get_marker() == "o"


def test_score_strip_markers_and_no_horizontal_grid():
    ax = plots.plot_scores(PATIENTS["y"], PATIENTS["score"], thresholds=(0.3, 0.6))
    positives, negatives = ax.collections
    assert list(positives.get_sizes()) == [60] and list(negatives.get_sizes()) == [55]
    assert not any(line.get_visible() for line in ax.get_ygridlines())
    assert all(line.get_visible() for line in ax.get_xgridlines())  # the score axis keeps its grid
    assert [line.get_linestyle() for line in ax.get_lines()] == ["--", "-."]
    assert [t.get_text() for t in ax.texts] == [f"{term('threshold')} 0.30", f"{term('threshold')} 0.60"]
    assert tuple(ax.figure.get_size_inches()) == (7.6, 2.6)


def test_threshold_sweep_labels_and_styles_each_column():
    set_language("fi")
    table = threshold_table(PATIENTS["y"], PATIENTS["score"], [0.2, 0.5, 0.8])
    ax = plots.plot_threshold_sweep(table, columns=("precision", "recall", "specificity", "f1"))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [term("precision"), term("recall"), term("specificity"), "F1"]
    assert [line.get_linestyle() for line in ax.get_lines()] == ["-", "--", "-.", ":"]
    assert (ax.get_xlabel(), ax.get_ylabel()) == (term("threshold"), term("metric_value"))


def test_reliability_bars_of_many_models_keep_their_series_colour_and_hatch():
    from matplotlib.colors import to_rgba

    y = np.array([0, 1, 0, 1])
    probs = {f"m{i}": np.array([0.1, 0.3, 0.6, 0.9]) for i in range(5)}
    ax_n = plots.plot_reliability_diagram(y, probs, n_bins=2).axes[1]
    bars = ax_n.patches  # two bins per model
    assert [bars[2 * i].get_facecolor() for i in range(5)] == [
        to_rgba(plots.series_style(i)["color"]) for i in range(5)
    ]
    assert [bars[2 * i].get_hatch() or "" for i in range(5)] == ["", "//", "..", "xx", ""]


# --- mutation: scores, reliability, cut points, sweeps, costs


def _marker_vertices(marker):
    style = plt.matplotlib.markers.MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform()).vertices


def test_series_style_beyond_the_first_four_shifts_the_marker_every_eight_series():
    assert plots.series_style(8) == {"color": "#0072B2", "linestyle": "-", "marker": "s"}
    assert plots.series_style(13) == {"color": "#56B4E9", "linestyle": "--", "marker": "X"}


def test_tick_labels_turn_locale_grouping_into_spaces(monkeypatch):
    import locale

    monkeypatch.setattr(locale, "_override_localeconv", {"thousands_sep": ",", "grouping": [3, 0]})
    set_language("it")
    with plt.rc_context({"axes.formatter.use_locale": True}):
        _, ax = plt.subplots()
        ax.set_xlim(1000, 1001)
        plots.localise_axes(ax)
        ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "1 000,0",
        "1 000,2",
        "1 000,4",
        "1 000,6",
        "1 000,8",
        "1 001,0",
    ]


def test_numbers_name_the_argument_and_its_range():
    with pytest.raises(
        ValueError, match=r"^thresholds must be a number or a sequence of numbers, got \(3\+1j\)$"
    ):
        plots.plot_scores(Y4, S4, thresholds=3 + 1j)
    with pytest.raises(ValueError, match=r"^thresholds must be a finite number, got 'a'$"):
        plots.plot_scores(Y4, S4, thresholds=[0.5, "a"])
    curve = _hunt([1, 0, 1])
    with pytest.raises(ValueError, match=r"^target must lie in \[0, 1\], got 1\.5$"):
        plots.plot_review_budget(curve, targets=1.5)
    with pytest.raises(ValueError, match=r"^target must lie in \[0, 1\], got -0\.1$"):
        plots.plot_review_budget(curve, targets=(0.5, -0.1))


def test_score_strip_puts_each_class_on_its_row_whatever_the_style():
    from matplotlib.colors import to_rgba

    y = np.array(["no", "yes", "no", "yes", "yes"])
    s = np.array([0.1, 0.8, 0.4, 0.35, 0.9])
    with plt.rc_context({"scatter.marker": "x", "scatter.edgecolors": "red", "lines.linewidth": 3}):
        ax = plots.plot_scores(y, s, thresholds=[0.3, 0.6], pos_label="yes", pos_name="ill", neg_name="well")
    positives, negatives = ax.collections
    assert positives.get_offsets().tolist() == [[0.8, 1.0], [0.35, 1.0], [0.9, 1.0]]
    assert negatives.get_offsets().tolist() == [[0.1, 0.0], [0.4, 0.0]]
    assert positives.get_paths()[0].vertices == pytest.approx(_marker_vertices("o"))
    assert negatives.get_paths()[0].vertices == pytest.approx(_marker_vertices("s"))
    assert positives.get_facecolor().tolist() == [list(to_rgba(plots.PALETTE["vermillion"]))]
    assert negatives.get_facecolor().tolist() == [list(to_rgba(plots.PALETTE["sky"]))]
    assert positives.get_edgecolor().tolist() == negatives.get_edgecolor().tolist() == [[0, 0, 0, 1]]
    assert (positives.get_label(), negatives.get_label()) == ("ill", "well")
    assert positives.get_zorder() == negatives.get_zorder() == 3
    assert [t.get_text() for t in ax.get_yticklabels()] == ["well", "ill"]
    assert list(ax.get_yticks()) == [0, 1]
    # two thresholds: their labels take two rows above the strips
    assert ax.get_ylim() == (-0.6, 2.0) and ax.get_xlim() == (-0.02, 1.02)
    lines = ax.get_lines()
    assert [list(line.get_xdata()) for line in lines] == [[0.3, 0.3], [0.6, 0.6]]
    assert all((line.get_color(), line.get_linewidth()) == ("0.25", 1.2) for line in lines)
    assert [t.get_position() for t in ax.texts] == [(0.3, 1.45), (0.6, 1.75)]
    assert all((t.get_ha(), t.get_fontsize()) == ("center", 8) for t in ax.texts)


def test_score_strip_hides_the_horizontal_grid_of_an_axes_it_is_given():
    _, ax = plt.subplots()
    plots.plot_scores(Y4, S4, ax=ax)
    assert not any(line.get_visible() for line in ax.get_ygridlines())


def test_score_strip_names_its_arguments_in_errors():
    with pytest.raises(ValueError, match="^y_score must be numeric"):
        plots.plot_scores([0, 1], ["a", "b"])
    with pytest.raises(ValueError, match="^inputs must have the same length: y_true has 3, y_score has 2$"):
        plots.plot_scores([0, 1, 1], [0.2, 0.3])


def test_reliability_diagram_layout_diagonal_and_error_bar_styles():
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    with plt.rc_context({"lines.linewidth": 3, "lines.marker": "x", "errorbar.capsize": 7}):
        fig = plots.plot_reliability_diagram(Y4, {"m": S4, "n": 1 - S4}, n_bins=2)
    ax, ax_n = fig.axes
    assert ax.get_subplotspec().get_gridspec().get_height_ratios() == [3, 1]
    assert ax.get_shared_x_axes().joined(ax, ax_n)
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)
    diagonal = ax.get_lines()[0]
    assert (list(diagonal.get_xdata()), list(diagonal.get_ydata())) == ([0, 1], [0, 1])
    assert (diagonal.get_color(), diagonal.get_linestyle(), diagonal.get_linewidth()) == ("0.45", ":", 1.2)
    lines = [container.lines[0] for container in ax.containers]
    assert [(line.get_color(), line.get_linestyle(), line.get_marker()) for line in lines] == [
        ("#0072B2", "-", "o"),
        ("#D55E00", "--", "s"),
    ]
    caps = [cap for container in ax.containers for cap in container.lines[1]]
    assert {cap.get_markersize() for cap in caps} == {5.0}  # twice the capsize of 2.5
    assert all(bar.get_linewidth() == 0.4 for bar in ax_n.patches)
    assert ax.get_xlim() == (-0.02, 1.02) and ax.get_ylim() == (-0.02, 1.02)
    legend = ax.get_legend()
    assert legend._loc == 2  # upper left
    assert {t.get_fontsize() for t in legend.get_texts()} == {8}
    alone = plots.plot_reliability_diagram(Y4, {"m": S4}, n_bins=2, show_counts=False)
    assert isinstance(alone.get_layout_engine(), ConstrainedLayoutEngine)


def test_reliability_bars_of_one_model_fill_most_of_their_bin():
    p = np.tile(np.linspace(0.05, 0.95, 10), 2)
    y = np.r_[np.zeros(10), np.ones(10)]
    bars = plots.plot_reliability_diagram(y, {"m": p}).axes[1].patches  # ten bins by default
    assert [round(b.get_x() + b.get_width() / 2, 9) for b in bars] == pytest.approx(
        np.linspace(0.05, 0.95, 10)
    )
    assert [b.get_width() for b in bars] == pytest.approx([0.08] * 10)


def test_reliability_diagram_passes_the_binning_strategy_on():
    # quantile edges of 0.1, 0.2, 0.3, 0.9 in two bins: 0.1, 0.25, 0.9
    fig = plots.plot_reliability_diagram(
        [0, 0, 1, 1], {"m": [0.1, 0.2, 0.3, 0.9]}, n_bins=2, strategy="quantile"
    )
    bars = fig.axes[1].patches
    assert [b.get_x() + b.get_width() / 2 for b in bars] == pytest.approx([0.175, 0.575])
    assert [b.get_width() for b in bars] == pytest.approx([0.8 * 0.15, 0.8 * 0.65])


def test_reliability_counts_within_a_factor_50_keep_a_linear_scale():
    p = np.r_[np.full(10, 0.2), np.full(20, 0.8)]
    y = np.r_[np.zeros(9), 1, np.ones(19), 0]
    assert plots.plot_reliability_diagram(y, {"m": p}, n_bins=2).axes[1].get_yscale() == "linear"


def test_a_reliability_curve_draws_one_model_with_its_intervals_on_a_given_axes():
    from beyond_accuracy.metrics import reliability_table

    _, ax = plt.subplots()
    table = reliability_table(Y4, S4, n_bins=2)
    assert plots.plot_reliability_curve(table, ax, label="m", i=1, markersize=5) is ax
    (container,) = ax.containers
    line = container.lines[0]
    assert (line.get_color(), line.get_linestyle(), line.get_marker(), line.get_markersize()) == (
        "#D55E00",
        "--",
        "s",
        5,
    )
    assert list(line.get_xdata()) == list(table["mean_predicted"]) and container.get_label() == "m"
    (bars,) = container.lines[2]
    ends = [segment[:, 1] for segment in bars.get_segments()]
    assert [list(e) for e in ends] == [[lo, hi] for lo, hi in zip(table["ci_lower"], table["ci_upper"])]
    with pytest.raises(ValueError, match=r"lacks the columns \['ci_lower', 'ci_upper'\]"):
        plots.plot_reliability_curve(table.drop(columns=["ci_lower", "ci_upper"]), ax)


def test_reliability_diagram_asks_for_a_dict_of_models():
    with pytest.raises(ValueError, match=r"^probs must be a non-empty dict \{model name: probabilities\}$"):
        plots.plot_reliability_diagram(Y4, {})


class _LatentModel:
    """A fitted ordinal model as plot_cut_points sees it: cut-points, classes, and latent scores equal to X."""

    cut_points_ = np.array([0.0, 1.0])
    classes_ = np.array([2, 4, 6])

    def latent_score(self, X):
        return np.asarray(X, dtype=float)


def test_cut_points_plot_histogram_reaches_the_99th_percentile_of_the_scores():
    scores = np.arange(101.0)  # percentiles 1 and 99: 1 and 99
    ax = plots.plot_cut_points(_LatentModel(), scores)
    # two cuts 1 apart: -1.6 to 2.6 from the cuts; the 99th percentile stretches the right end
    assert ax.get_xlim() == pytest.approx((-1.6, 99.0))
    bars = ax.patches
    assert bars[0].get_x() == pytest.approx(-1.6)
    assert bars[-1].get_x() + bars[-1].get_width() == pytest.approx(99.0)
    assert bars[0].get_label() == term("latent_score")
    assert [t.get_text() for t in ax.texts] == ["θ1", "θ2", "2", "4", "6"]


def test_cut_points_plot_text_styles_title_and_grid():
    with plt.rc_context({"font.size": 13, "axes.titlesize": 13, "axes.titlepad": 2, "text.color": "red"}):
        ax = plots.plot_cut_points([0.0, 1.0], labels=["a", "b", "c"])
    assert ax.get_xlim() == pytest.approx((-1.6, 2.6))  # span 1
    cut_names, class_names = ax.texts[:2], ax.texts[2:]
    for t in ax.texts:
        assert t.get_transform() is ax.get_xaxis_transform() and t.get_ha() == "center"
    assert all(t.get_fontsize() == 9 and t.get_fontweight() == "normal" for t in cut_names)
    assert all(t.get_fontsize() == 10 and t.get_fontweight() == "bold" for t in class_names)
    assert ax.title.get_fontsize() == 9
    assert ax.titleOffsetTrans.get_matrix()[1, 2] == pytest.approx(14 / 72 * ax.figure.dpi)
    assert all(line.get_visible() for line in ax.get_xgridlines())
    ax.set_yticks([0.5])  # a reader's own tick brings no horizontal grid line back
    assert not any(line.get_visible() for line in ax.get_ygridlines())
    _, given = plt.subplots()
    plots.plot_cut_points([0.0], ax=given)
    given.set_yticks([0.5])
    assert not any(line.get_visible() for line in given.get_ygridlines())


def test_cut_points_plot_accepts_decimal_cut_points():
    from decimal import Decimal

    ax = plots.plot_cut_points([Decimal("0.5"), Decimal("1.5")])
    assert ax.get_xlim() == pytest.approx((0.5 - 1.6, 1.5 + 1.6))


@pytest.mark.parametrize("model", [object(), [], [[0.0, 1.0]]])
def test_cut_points_plot_rejects_what_has_no_cut_points(model):
    with pytest.raises(
        ValueError, match="^model must be a fitted OrdinalLogisticRegression or a sequence of cut-points$"
    ):
        plots.plot_cut_points(model)


def test_cut_points_plot_counts_the_labels_it_needs():
    with pytest.raises(ValueError, match="^2 cut-points separate 3 classes, got 2 labels$"):
        plots.plot_cut_points([0.0, 1.0], labels=["a", "b"])


def test_threshold_sweep_draws_each_column_against_the_threshold():
    table = threshold_table(Y4, S4, [0.2, 0.5, 0.9])  # precision 2/3, 1, nan; recall 1, 1/2, 0
    with plt.rc_context({"lines.marker": "x", "lines.markersize": 11}):
        _, ax = plt.subplots()  # made outside the course style: matplotlib's own colour cycle
        plots.plot_threshold_sweep(table, columns=("precision", "recall", "specificity", "f1", "tp"), ax=ax)
    lines = ax.get_lines()
    assert all(list(line.get_xdata()) == [0.2, 0.5, 0.9] for line in lines)
    assert list(lines[1].get_ydata()) == pytest.approx([1.0, 0.5, 0.0])
    assert [(line.get_color(), line.get_marker()) for line in lines] == [
        ("#0072B2", "o"),
        ("#D55E00", "s"),
        ("#009E73", "^"),
        ("#CC79A7", "D"),
        ("#E69F00", "v"),  # the fifth series: orange, a colour the first four do not use
    ]
    assert {line.get_markersize() for line in lines} == {3.5}
    assert ax.get_ylim() == (-0.02, 1.02)
    assert {t.get_fontsize() for t in ax.get_legend().get_texts()} == {8}


def test_threshold_sweep_and_expected_cost_reject_what_is_not_a_table():
    with pytest.raises(
        ValueError,
        match=r"^table lacks the columns \['threshold', 'precision', 'recall'\]; build it with metrics.threshold_table$",
    ):
        plots.plot_threshold_sweep([0.2, 0.5])
    with pytest.raises(
        ValueError,
        match=r"^table lacks the columns \['threshold', 'cost'\]; build it with metrics.expected_cost_by_threshold$",
    ):
        plots.plot_expected_cost([0.2, 0.5])


def test_expected_cost_of_each_model_takes_the_next_series_style():
    import pandas as pd

    first = pd.DataFrame({"threshold": [0.2, 0.4, 0.6], "cost": [0.5, 0.3, 0.4]})
    second = pd.DataFrame({"threshold": [0.1, 0.5], "cost": [0.9, 0.7]})
    with plt.rc_context({"lines.linestyle": "--", "lines.marker": "x"}):
        ax = plots.plot_expected_cost(first, label="A")
        plots.plot_expected_cost(second, ax=ax, label="B")
    curve_a, best_a, curve_b, best_b = ax.get_lines()
    assert (list(curve_b.get_xdata()), list(curve_b.get_ydata())) == ([0.1, 0.5], [0.9, 0.7])
    second_style = plots.PALETTE["vermillion"]  # the second curve (its first call drew two lines)
    assert (curve_a.get_color(), curve_a.get_linestyle(), curve_a.get_label()) == (
        plots.PALETTE["blue"],
        "-",
        "A",
    )
    assert (curve_b.get_color(), curve_b.get_linestyle(), curve_b.get_label()) == (second_style, "--", "B")
    assert (best_b.get_color(), best_b.get_linestyle()) == (second_style, "None")
    assert ax.get_ylim()[0] == 0
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "A",
        f"{term('minimum')}: {term('threshold')} 0.40",
        "B",
        f"{term('minimum')}: {term('threshold')} 0.50",
    ]
    assert {t.get_fontsize() for t in ax.get_legend().get_texts()} == {8}


def test_expected_cost_curves_of_five_models_all_differ():
    import pandas as pd

    ax = None
    for i in range(5):
        table = pd.DataFrame({"threshold": [0.2, 0.6], "cost": [0.5 + i, 0.4 + i]})
        ax = plots.plot_expected_cost(table, ax=ax, label=f"model {i}")
    curves = ax.get_lines()[::2]
    styles = [(c.get_color(), c.get_linestyle()) for c in curves]
    assert len(set(styles)) == 5, styles
    assert styles[:4] == [("#0072B2", "-"), ("#D55E00", "--"), ("#009E73", "-."), ("#CC79A7", ":")]


def test_reliability_curves_of_a_fifth_model_take_a_fifth_colour():
    probs = {f"m{i}": S4 for i in range(5)}
    ax = plots.plot_reliability_diagram(Y4, probs, n_bins=2, show_counts=False).axes[0]
    colours = [container.lines[0].get_color() for container in ax.containers]
    assert colours == ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00"]


# --- mutation: confusion matrices, curves, galleries


def _used_axes():
    """Axes made outside the course style (default colour cycle, no grid) with one line drawn."""
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return ax


def _is_baseline(line):
    return (line.get_color(), line.get_linestyle(), line.get_linewidth()) == ("0.45", ":", 1.2)


def test_curves_name_the_wrong_argument():
    with pytest.raises(ValueError, match=r"^scores must be a non-empty dict \{model name: scores\}$"):
        plots.plot_roc([0, 1], {})
    with pytest.raises(ValueError, match=r"^scores\['m'\] must be numeric"):
        plots.plot_roc([0, 1], {"m": ["a", "b"]})
    with pytest.raises(ValueError, match="^inputs must have the same length: y_true has 3, scores has 2$"):
        plots.plot_pr([0, 1, 1], {"m": [0.2, 0.3]})
    with pytest.raises(ValueError, match="^y_true must be 1-D"):
        plots.plot_roc([[0, 1]], {"m": [0.2, 0.3]})


def test_roc_curve_points_styles_and_frame():
    from sklearn.metrics import roc_curve

    ax = plots.plot_roc(Y4, {"m": S4, "n": 1 - S4}, ax=_used_axes())
    _, baseline, m, n = ax.get_lines()
    assert (list(baseline.get_xdata()), list(baseline.get_ydata())) == ([0, 1], [0, 1])
    assert _is_baseline(baseline)
    fpr, tpr, _ = roc_curve(Y4, S4)
    assert (list(m.get_xdata()), list(m.get_ydata())) == (list(fpr), list(tpr))
    assert m.get_drawstyle() == "default"
    assert [(line.get_color(), line.get_linestyle(), line.get_markersize()) for line in (m, n)] == [
        (plots.PALETTE["blue"], "-", 3.5),
        (plots.PALETTE["vermillion"], "--", 3.5),
    ]
    assert ax.get_xlim() == (-0.02, 1.02)
    legend = ax.get_legend()
    assert legend._loc == 4  # lower right
    assert [t.get_fontsize() for t in legend.get_texts()] == [8] * 3


def test_pr_curve_steps_baseline_at_the_prevalence_and_frame():
    from sklearn.metrics import precision_recall_curve

    y, s = np.array([0, 0, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    ax = plots.plot_pr(y, {"m": s, "n": 1 - s}, ax=_used_axes())
    _, baseline, m, n = ax.get_lines()
    assert (list(baseline.get_xdata()), list(baseline.get_ydata())) == ([0, 1], [0.25, 0.25])
    assert _is_baseline(baseline)
    assert baseline.get_label() == f"{term('prevalence_line')} (0.250)"
    precision, recall, _ = precision_recall_curve(y, s)
    assert (list(m.get_xdata()), list(m.get_ydata())) == (list(recall), list(precision))
    assert m.get_drawstyle() == "steps-post"
    assert [(line.get_color(), line.get_linestyle(), line.get_markersize()) for line in (m, n)] == [
        (plots.PALETTE["blue"], "-", 3.5),
        (plots.PALETTE["vermillion"], "--", 3.5),
    ]
    assert ax.get_xlim() == (-0.02, 1.02)
    assert [t.get_fontsize() for t in ax.get_legend().get_texts()] == [8] * 3


def test_roc_pr_puts_the_two_plots_in_one_row():
    fig = plots.plot_roc_pr(Y4, {"m": S4})
    assert [ax.get_subplotspec().get_geometry() for ax in fig.axes] == [(1, 2, 0, 0), (1, 2, 1, 1)]


def test_confusion_matrix_draws_on_the_given_axes_with_the_given_names():
    ax = _used_axes()
    y_true = ["yes", "yes", "yes", "no", "no", "no"]
    y_pred = ["yes", "yes", "no", "yes", "no", "no"]
    out = plots.plot_confusion_matrix(y_true, y_pred, pos_label="yes", pos_name="ill", neg_name="well", ax=ax)
    assert out is ax
    assert [t.get_text() for t in ax.texts] == ["TP\n2", "FN\n1", "FP\n1", "TN\n2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ill", "well"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ill", "well"]


def test_matrix_cells_shading_ticks_and_frame():
    from matplotlib.colors import to_rgba

    ax = plots._draw_matrix(
        [[5, 1], [2, 7]], [["TP", "FN"], ["FP", "TN"]], ("a", "b"), ax=_used_axes(), title="t"
    )
    image = ax.images[0]
    light, dark = to_rgba("#D9ECF5"), to_rgba("#F2D3BF")
    assert [[tuple(c) for c in row] for row in image.to_rgba(image.get_array(), bytes=False)] == [
        [light, dark],
        [dark, light],
    ]
    assert (image.norm.vmin, image.norm.vmax) == (0, 1)
    cells = [(t.get_position(), t.get_ha(), t.get_va(), t.get_fontsize()) for t in ax.texts]
    assert cells == [((j, i), "center", "center", 12) for i in range(2) for j in range(2)]
    assert list(ax.get_xticks()) == [0, 1] and list(ax.get_yticks()) == [0, 1]
    assert not any(line.get_visible() for line in ax.get_xgridlines() + ax.get_ygridlines())
    assert [spine.get_visible() for spine in ax.spines.values()] == [False] * 4
    assert ax.title.get_fontsize() == 10
    assert ax.titleOffsetTrans.get_matrix()[1, 2] == pytest.approx(38 / 72 * ax.figure.dpi)


def test_confusion_layouts_use_the_given_axes_only_when_both_are_given():
    fig, (left, right) = plt.subplots(1, 2)
    assert plots.plot_confusion_layouts(left, right) is fig
    assert [t.get_text() for t in right.texts] == ["TN", "FP", "FN", "TP"]
    lone = _used_axes()
    new = plots.plot_confusion_layouts(ax_book=lone)
    assert new is not lone.figure and len(lone.texts) == 0
    assert new.get_layout_engine().__class__.__name__ == "ConstrainedLayoutEngine"
    assert [ax.get_subplotspec().get_geometry() for ax in new.axes] == [(1, 2, 0, 0), (1, 2, 1, 1)]


def test_hunt_curves_draw_each_column_against_k_in_its_style():
    curve = _hunt([1, 0, 0, 1])  # the last example is the second error: a random order finds a half
    ax = plots.plot_hunt_curves(curve, ax=_used_axes())
    _, precision, recall, random_order = ax.get_lines()
    assert list(precision.get_xdata()) == [1, 2, 3, 4] and list(recall.get_xdata()) == [1, 2, 3, 4]
    assert list(precision.get_ydata()) == [1, 0.5, 1 / 3, 0.5]
    assert list(recall.get_ydata()) == [0.5, 0.5, 0.5, 1]
    assert [(line.get_color(), line.get_linestyle()) for line in (precision, recall)] == [
        (plots.PALETTE["blue"], "-"),
        (plots.PALETTE["vermillion"], "--"),
    ]
    assert list(random_order.get_ydata()) == [0.5, 0.5] and _is_baseline(random_order)
    assert random_order.get_label() == f"{term('random_order')} (0.500)"
    assert [t.get_fontsize() for t in ax.get_legend().get_texts()] == [8] * 3
    with pytest.raises(
        ValueError,
        match=r"^curve lacks the columns \['k', 'precision', 'recall'\]; build it with metrics\.hunt_curve$",
    ):
        plots.plot_hunt_curves([1, 2])


def test_review_budget_rejects_bad_curves_and_targets():
    import pandas as pd

    message = r"^curve lacks the columns {}; build it with metrics\.hunt_curve$"
    with pytest.raises(ValueError, match=message.format(r"\['k', 'recall'\]")):
        plots.plot_review_budget([1, 2])
    with pytest.raises(ValueError, match=message.format(r"\['recall'\]")):
        plots.plot_review_budget(pd.DataFrame({"k": [1]}))
    with pytest.raises(ValueError, match="^curve is empty: there is nothing to draw$"):
        plots.plot_review_budget(pd.DataFrame({"k": [], "recall": []}))
    curve = _hunt([1, 0])
    with pytest.raises(ValueError, match=r"^target must lie in \[0, 1\], got 1\.5"):
        plots.plot_review_budget(curve, targets=1.5)
    with pytest.raises(ValueError, match=r"^target must lie in \[0, 1\], got -0\.5"):
        plots.plot_review_budget(curve, targets=-0.5)


def test_review_budget_lines_markers_and_legend():
    curve = _hunt([1, 0, 0, 1])
    ax = plots.plot_review_budget(curve, targets=(0.5, 0.5 + 1e-12), ax=_used_axes())
    _, ranked, random_order, *markers = ax.get_lines()
    assert (list(ranked.get_xdata()), list(ranked.get_ydata())) == ([1, 2, 3, 4], [0.5, 0.5, 0.5, 1])
    assert (ranked.get_color(), ranked.get_linestyle()) == (plots.PALETTE["blue"], "-")
    assert _is_baseline(random_order)
    assert [m.get_xdata()[0] for m in markers] == [1, 1]  # within 1e-12 of the target counts as reached
    assert [m.get_color() for m in markers] == [plots.series_style(i)["color"] for i in (1, 2)]
    assert all(m.get_linestyle() == "None" for m in markers)
    assert [t.get_fontsize() for t in ax.get_legend().get_texts()] == [8] * 4


def test_image_gallery_grid_titles_and_image_style():
    fig = plots.plot_image_gallery(np.zeros((7, 2, 2)), list(range(7)), list(range(7)))
    assert len(fig.axes) == 12 and tuple(fig.get_size_inches()) == pytest.approx((1.55 * 6, 1.85 * 2))
    assert not any(ax.axison for ax in fig.axes)
    image = fig.axes[0].images[0]
    assert (image.get_cmap().name, image.get_interpolation()) == ("gray_r", "nearest")
    assert fig.axes[0].title.get_fontsize() == 7.5
    one = plots.plot_image_gallery(np.zeros((1, 2, 2)), ["a"], ["b"], titles_extra=["loss 2"])
    assert len(one.axes) == 1 and tuple(one.get_size_inches()) == pytest.approx((1.55, 1.85))
    assert one.axes[0].get_title() == f"{term('given_label')}: a\n{term('predicted_label')}: b\nloss 2"
    numbers_as_objects = np.array([[[0, 1], [1, 0]]], dtype=object)
    drawn_image = plots.plot_image_gallery(numbers_as_objects, [1], [1]).axes[0].images[0]
    assert drawn_image.get_array().tolist() == [[0.0, 1.0], [1.0, 0.0]]


def test_image_gallery_rejects_shapes_that_do_not_fit():
    with pytest.raises(ValueError, match=r"^shape=\(2, 2, 1\) does not fit images of 4 pixels each$"):
        plots.plot_image_gallery(np.zeros((2, 4)), [0, 1], [0, 1], shape=(2, 2, 1))
    with pytest.raises(ValueError, match=r"^shape=\(3, 2\) does not fit images of 4 pixels each$"):
        plots.plot_image_gallery(np.zeros((2, 4)), [0, 1], [0, 1], shape=(3, 2))
    message = r"^images must be a non-empty \(n, h\*w\) or \(n, h, w\) array, got shape \({}\)$"
    with pytest.raises(ValueError, match=message.format("4,")):
        plots.plot_image_gallery(np.zeros(4), [0], [0])
    with pytest.raises(ValueError, match=message.format("0, 2, 2")):
        plots.plot_image_gallery(np.zeros((0, 2, 2)), [0], [0])
    with pytest.raises(
        ValueError, match="^inputs must have the same length: images has 2, given has 3, predicted has 2$"
    ):
        plots.plot_image_gallery(np.zeros((2, 4)), [0, 1, 2], [0, 1])
    with pytest.raises(
        ValueError, match="^inputs must have the same length: images has 2, given has 2, predicted has 3$"
    ):
        plots.plot_image_gallery(np.zeros((2, 4)), [0, 1], [0, 1, 2])


def test_ordinal_confusion_rejects_bad_input_naming_the_argument():
    for args, name in [(([[1, 2]], [1, 2], [1, 2]), "y_true"), (([1, 2], [[1, 2]], [1, 2]), "y_pred")]:
        with pytest.raises(ValueError, match=f"^{name} must be 1-D"):
            plots.plot_ordinal_confusion(*args)
    with pytest.raises(ValueError, match="^labels must be 1-D"):
        plots.plot_ordinal_confusion([1, 2], [1, 2], [[1, 2]])
    with pytest.raises(ValueError, match="^inputs must have the same length: y_true has 3, y_pred has 2$"):
        plots.plot_ordinal_confusion([1, 2, 2], [1, 2], [1, 2])
    with pytest.raises(ValueError, match=r"^labels \['a', 'b', 'c', 'd', 'e'\] are not in labels=\['z'\]$"):
        plots.plot_ordinal_confusion(list("abcdef"), list("abcdef"), ["z"])
    mixed = np.array([1, "x"], dtype=object)
    with pytest.raises(ValueError, match=r"^labels \[1, 'x'\] are not in labels=\[2\]$"):
        plots.plot_ordinal_confusion(mixed, mixed, [2])


def test_ordinal_confusion_cells_bands_and_frame():
    from matplotlib.colors import to_rgba

    with plt.rc_context({"patch.linewidth": 3.0}):
        ax = plots.plot_ordinal_confusion(
            [1] * 31 + [2, 3], [1] * 20 + [2] * 11 + [2, 3], [1, 2, 3], ax=_used_axes()
        )
    assert ax.images[0].get_array().tolist() == [[20, 11, 0], [0, 1, 0], [0, 0, 1]]
    assert ax.images[0].norm.vmin == 0
    by_cell = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert by_cell[0, 1].get_color() == "white"  # 11 is not more than 0.55 × 20
    assert all((t.get_ha(), t.get_va()) == ("center", "center") for t in ax.texts)
    assert not any(line.get_visible() for line in ax.get_xgridlines() + ax.get_ygridlines())
    assert ax.title.get_fontsize() == 9
    bands = sorted((p.get_xy(), p.get_width(), p.get_height(), p.get_linestyle()) for p in ax.patches)
    cells = [((j - 0.5, i - 0.5), 1, 1, style) for i, j, style in [(0, 1, "--"), (1, 0, "--"), (1, 2, "--")]]
    cells += [((j - 0.5, i - 0.5), 1, 1, style) for i, j, style in [(2, 1, "--"), (0, 2, ":"), (2, 0, ":")]]
    assert bands == sorted(cells)
    assert all(
        p.get_linewidth() == 1.0 and p.get_edgecolor() == to_rgba(plots.PALETTE["orange"]) for p in ax.patches
    )
    shares = plots.plot_ordinal_confusion([1, 1], [1, 2], [1, 2], normalize=True)
    assert [t.get_color() for t in shares.texts] == ["black", "black", "white", "white"]  # halves are the top


def test_ordinal_confusion_colour_scale_starts_at_zero():
    ax = plots.plot_ordinal_confusion([1, 1, 1, 2, 2], [1, 1, 2, 1, 2], [1, 2])
    assert ax.images[0].get_array().tolist() == [[2, 1], [1, 1]]
    assert ax.images[0].norm.vmin == 0


def test_expected_cost_styles_count_only_cost_curves_on_an_axes_of_the_readers():
    """On axes made outside the course style, with a line of the reader's own and another colour
    cycle, each cost curve and its minimum still take the next series style."""
    import pandas as pd
    from cycler import cycler

    with plt.rc_context({"axes.prop_cycle": cycler(color=["#123456"])}):
        _, ax = plt.subplots()
        ax.plot([0, 1], [0, 1], label="reader's line")
        for cost in (0.5, 0.7):
            table = pd.DataFrame({"threshold": [0.2, 0.6], "cost": [cost, cost - 0.1]})
            plots.plot_expected_cost(table, ax=ax)
    _, curve_a, best_a, curve_b, best_b = ax.get_lines()
    assert [curve_a.get_color(), best_a.get_color()] == ["#0072B2"] * 2
    assert [curve_b.get_color(), best_b.get_color()] == ["#D55E00"] * 2
    assert (curve_a.get_linestyle(), curve_b.get_linestyle()) == ("-", "--")


def test_course_style_restores_its_settings_but_keeps_interactive_mode_as_the_block_left_it():
    """Inside the block the course's settings, after it the reader's again; interactive mode as
    the block left it (the inline backend, loaded by the first figure, turns it on)."""
    import matplotlib as mpl

    before = plt.rcParams["axes.grid"]
    for start, inside in ((False, True), (True, False), (False, False)):
        mpl.interactive(start)
        with plots.course_style():
            assert plt.rcParams["axes.grid"] == plots.STYLE["axes.grid"]
            mpl.interactive(inside)
        assert mpl.is_interactive() is inside
        assert plt.rcParams["axes.grid"] == before
    with pytest.raises(ZeroDivisionError), plots.course_style():
        mpl.interactive(True)
        raise ZeroDivisionError
    assert mpl.is_interactive() is True
    mpl.interactive(False)


@pytest.mark.slow  # starts a kernel and executes a notebook
def test_in_a_new_kernel_a_figure_after_the_first_course_figure_still_shows():
    """The student's case: in a new Jupyter kernel the first figure is drawn in the course style;
    a figure made in a later cell, and the first cell run again, must still appear."""
    import nbformat
    from nbclient import NotebookClient

    cells = [
        "import matplotlib.pyplot as plt\nfrom beyond_accuracy import plots",
        "with plots.course_style():\n    fig, ax = plt.subplots()",
        "fig2, ax2 = plt.subplots()",
        "with plots.course_style():\n    fig, ax = plt.subplots()",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    shown = [sum("image/png" in out.get("data", {}) for out in cell.outputs) for cell in nb.cells]
    assert shown == [0, 1, 1, 1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_describe_figure_says_what_the_figure_shows_in_the_language(lang):
    """A figure's description (the alt text of a code cell's plot on the site) is made of its own
    title, axis labels and legend entries, introduced by the language's words."""
    set_language(lang)
    table = threshold_table(PATIENTS["y"], PATIENTS["score"], [0.2, 0.5, 0.8])
    ax = plots.plot_threshold_sweep(table, columns=("precision", "recall"))
    text = plots.describe_figure(ax.figure)
    assert text.startswith(term("plot_alt_chart") + ": ")
    for word in (term("precision"), term("recall"), ax.get_xlabel()):
        assert word in text, (word, text)
    assert term("plot_alt_x_axis").split("{")[0] in text and term("plot_alt_series").split("{")[0] in text
    fig, axes = plt.subplots(2, 5)
    for i, a in enumerate(axes.flat):
        a.set_title(f"digit {i}")
        a.set_axis_off()
    many = plots.describe_figure(fig)
    assert (
        many.startswith(term("plot_alt_panels").format(n=10)) and "digit 0" in many and "digit 5" not in many
    )
    assert term("plot_alt_more").format(n=8) in many
    with pytest.raises(ValueError):
        plots.describe_figure(ax)
    for panels in (-1, 0, 1, 2.5, "4", True):  # a gallery is described by its first two panels
        with pytest.raises(ValueError, match="panels must be a whole number of at least 2"):
            plots.describe_figure(fig, panels=panels)
    assert "digit 9" in plots.describe_figure(fig, panels=10)  # every panel, when asked for
