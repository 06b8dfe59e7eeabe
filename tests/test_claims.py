"""Quantitative claims of the chapters and labs that their own code does not print, proved here.

Each test names the page and the claim it checks. They use the course's own data and settings,
so a change in the data, in scikit-learn or in the text's premises makes them fail.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.special import expit, logit, softmax
from scipy.stats import norm
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, cohen_kappa_score, fbeta_score, log_loss, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils._param_validation import InvalidParameterError

from beyond_accuracy.datasets import load_biopsies, marriage_ratings, transactions, twenty_patients
from beyond_accuracy.metrics import brier_decomposition, threshold_table
from beyond_accuracy.ordinal import OrdinalLogisticRegression


def f_beta_counts(tp, fn, fp, beta):
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


# --- chapter 1 and lab 1: what F-beta's beta means ------------------------------------------------


def test_one_recovered_miss_is_worth_more_than_beta_squared_false_alarms():
    """Ch. 1: at threshold 0.5 (TP 7, FN 3, FP 2), F2 is unchanged by one more TP and six more FP."""
    assert f_beta_counts(7, 3, 2, beta=2) == pytest.approx(f_beta_counts(8, 2, 8, beta=2))
    assert f_beta_counts(8, 2, 7, beta=2) > f_beta_counts(7, 3, 2, beta=2)  # 5 extra: still a gain
    # in general the break-even is (1 + b²)/F - 1, which exceeds b² as soon as there is an error
    rng = np.random.default_rng(0)
    for tp, fn, fp in rng.integers(1, 50, size=(200, 3)):
        for beta in (0.5, 1.0, 2.0):
            f = f_beta_counts(tp, fn, fp, beta)
            x = (1 + beta**2) / f - 1
            assert f_beta_counts(tp + 1, fn - 1, fp + x, beta) == pytest.approx(f) if fn > 0 else True
            assert x > beta**2


def test_van_rijsbergen_reading_of_beta():
    """Ch. 1: dF/dR / dF/dP = beta² P²/R², so the two gains are equal at R = beta P and a point of
    recall is worth beta² points of precision at P = R."""
    beta, h = 2.0, 1e-7

    def f(p, r):
        return (1 + beta**2) * p * r / (beta**2 * p + r)

    for p, r in ((0.4, 0.8), (0.6, 0.6), (0.3, 0.9)):
        d_p = (f(p + h, r) - f(p - h, r)) / (2 * h)
        d_r = (f(p, r + h) - f(p, r - h)) / (2 * h)
        assert d_r / d_p == pytest.approx(beta**2 * p**2 / r**2, rel=1e-5)


def test_twenty_patients_scores_sit_on_the_thresholds_the_chapter_names():
    """Ch. 1: every threshold the chapter uses except 0.5 is some patient's score: 0.30 (P13), 0.40
    (P11), 0.60 (P08), 0.65 (P07), 0.70 (P06), 0.95 (P01), 0.02 (P20)."""
    patients = twenty_patients().set_index("patient")
    named = {"P13": 0.30, "P11": 0.40, "P08": 0.60, "P07": 0.65, "P06": 0.70, "P01": 0.95, "P20": 0.02}
    for patient, threshold in named.items():
        assert patients.loc[patient, "score"] == threshold
    assert not (patients["score"] == 0.5).any()


def test_with_a_strict_threshold_the_precision_dip_moves_one_score_lower():
    """Ch. 1: with `>` the precisions at 0.60, 0.65, 0.70 fall steadily (6/7, 5/6, 4/5); the dip of
    `>=` (0.750, 0.857, 0.833) appears one score lower, at 0.55, 0.60, 0.65; at 0.95 nobody is
    flagged, at 0.02 P20 is left out."""
    p = twenty_patients()
    y, s = p["y"].to_numpy(), p["score"].to_numpy()

    def precision(flagged):
        return y[flagged].sum() / flagged.sum()

    strict = [precision(s > t) for t in (0.60, 0.65, 0.70)]
    assert strict == pytest.approx([6 / 7, 5 / 6, 4 / 5]) and strict[0] > strict[1] > strict[2]
    assert [precision(s > t) for t in (0.55, 0.60, 0.65)] == [precision(s >= t) for t in (0.60, 0.65, 0.70)]
    assert precision(s >= 0.65) > precision(s >= 0.70)  # the dip under >=
    assert not (s > 0.95).any() and (s > 0.02).sum() == 19


def test_the_highest_threshold_reaching_a_recall_has_the_best_specificity_among_those_that_do():
    """Ch. 1: on the twenty patients, recall >= 0.9 first at 0.35 (specificity 0.7); recall 1 first at
    0.20, the threshold F2 chose; lower thresholds reach the target with no better specificity."""
    p = twenty_patients()
    sweep = threshold_table(p["y"], p["score"], np.unique(p["score"]), betas=(2,))
    for target, expected in ((0.9, 0.35), (1.0, 0.20)):
        meets = sweep[sweep["recall"] >= target]
        highest = meets.loc[meets["threshold"].idxmax()]
        assert highest["threshold"] == expected
        assert highest["specificity"] == meets["specificity"].max()
    assert sweep.loc[sweep["f2"].idxmax(), "threshold"] == 0.20


def test_likelihood_ratios_reproduce_the_prevalence_explorers_ppv():
    """Ch. 1: at 0.5, LR+ = 3.5 and LR- = 0.375; pre-test odds 1:99 times LR+ give the PPV the
    prevalence explorer shows at prevalence 1% (0.034)."""
    from sklearn.metrics import class_likelihood_ratios

    from beyond_accuracy.explorers import PrevalenceExplorer

    p = twenty_patients()
    lr_pos, lr_neg = class_likelihood_ratios(p["y"], (p["score"] >= 0.5).astype(int))
    assert (lr_pos, lr_neg) == pytest.approx((3.5, 0.375))
    post_odds = (0.01 / 0.99) * lr_pos
    assert post_odds / (1 + post_odds) == pytest.approx(PrevalenceExplorer.values(0.7, 0.8, 0.01)["ppv"])


@pytest.mark.slow  # many model fits: make test, not make unit
def test_a_scaler_fitted_on_all_the_biopsies_rarely_moves_test_recall_and_in_both_directions():
    """Ch. 1, last exercise: over 300 stratified 80/20 splits of the biopsies, a logistic regression
    behind a scaler fitted on all the data has the same test recall as the pipeline in 283 splits,
    a higher one in 9 and a lower one in 8."""
    from sklearn.metrics import recall_score

    X, y = load_biopsies()
    X, y = X.to_numpy(), y.to_numpy()
    scaler = StandardScaler().fit(X)  # the leak: statistics of every biopsy, test ones included
    diff = []
    for seed in range(300):
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=seed)
        honest = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
        leaky = LogisticRegression().fit(scaler.transform(X_tr), y_tr)
        diff.append(
            recall_score(y_te, leaky.predict(scaler.transform(X_te)))
            - recall_score(y_te, honest.predict(X_te))
        )
    diff = np.array(diff)
    assert ((diff == 0).sum(), (diff > 0).sum(), (diff < 0).sum()) == (283, 9, 8)


def lab1_split():
    X, y = load_biopsies()
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    X_val, X_test, y_val, y_test = train_test_split(
        X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0
    )
    return X_train, X_val, y_train, y_val


def test_lab1_f2_break_even_between_the_f1_and_f2_thresholds():
    """Lab 1: from F1's threshold, one more tumour breaks even under F2 at about 4.41 extra false
    alarms, and F2's choice costs 4: just below, hence the close contest."""
    X_train, X_val, y_train, y_val = lab1_split()
    proba = (
        make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train).predict_proba(X_val)[:, 1]
    )
    sweep = threshold_table(y_val, proba, np.round(np.linspace(0.10, 0.90, 17), 2), betas=(1, 2))
    at_f1, at_f2 = sweep.loc[sweep["f1"].idxmax()], sweep.loc[sweep["f2"].idxmax()]
    break_even = 5 / at_f1["f2"] - 1
    assert break_even == pytest.approx(4.41, abs=0.005)
    assert at_f2["tp"] - at_f1["tp"] == 1 and at_f2["fp"] - at_f1["fp"] < break_even


def test_lab1_rare_population_moves_every_column_but_specificity_the_same_way_for_both_models():
    """Lab 1, step 6: at 5% prevalence (every benign validation biopsy, a seeded draw of malignant
    ones) specificity is unchanged; accuracy, recall and balanced accuracy rise; precision, F1 and
    MCC fall; for the logistic regression and for 5-NN alike."""
    from sklearn.metrics import (
        accuracy_score,
        balanced_accuracy_score,
        f1_score,
        matthews_corrcoef,
        precision_score,
        recall_score,
    )

    X_train, X_val, y_train, y_val = lab1_split()
    y_val = y_val.to_numpy()
    rng = np.random.default_rng(0)
    benign, malignant = np.flatnonzero(y_val == 0), np.flatnonzero(y_val == 1)
    rows = np.sort(
        np.concatenate([benign, rng.choice(malignant, size=round(len(benign) * 0.05 / 0.95), replace=False)])
    )

    def columns(y, pred):
        return {
            "accuracy": accuracy_score(y, pred),
            "precision": precision_score(y, pred),
            "recall": recall_score(y, pred),
            "specificity": recall_score(y, pred, pos_label=0),
            "f1": f1_score(y, pred),
            "balanced_accuracy": balanced_accuracy_score(y, pred),
            "mcc": matthews_corrcoef(y, pred),
        }

    for model in (LogisticRegression(), KNeighborsClassifier(n_neighbors=5)):
        pred = make_pipeline(StandardScaler(), model).fit(X_train, y_train).predict(X_val)
        before, after = columns(y_val, pred), columns(y_val[rows], pred[rows])
        assert after["specificity"] == before["specificity"]
        for name in ("accuracy", "recall", "balanced_accuracy"):
            assert after[name] > before[name], name
        for name in ("precision", "f1", "mcc"):
            assert after[name] < before[name], name


@pytest.mark.slow  # many model fits: make test, not make unit
def test_a_threshold_that_just_reaches_a_recall_target_falls_short_on_new_data_on_average():
    """Lab 1, step 7: the highest threshold whose recall on 43 positives reaches 0.95 sits on the
    score of the 41st of them, whose true recall is on average 1 - 3/44 = 0.932, below 0.95."""
    rng = np.random.default_rng(0)
    true_recall = []
    for _ in range(4000):
        positives = rng.normal(size=43)  # the positives' scores; the population is standard normal
        threshold = np.sort(positives)[::-1][int(np.ceil(0.95 * 43)) - 1]  # the 41st highest
        assert (positives >= threshold).mean() >= 0.95
        true_recall.append(norm.sf(threshold))
    assert np.mean(true_recall) == pytest.approx(1 - 3 / 44, abs=0.003)
    assert np.mean(true_recall) < 0.95


def test_lab1_knn_log_loss_is_worse_than_the_prior_baseline():
    """Lab 1: 5-NN ranks well (ROC AUC far above 0.5) but its log loss is worse than a constant's."""
    from sklearn.dummy import DummyClassifier

    X_train, X_val, y_train, y_val = lab1_split()
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)).fit(X_train, y_train)
    p_knn = knn.predict_proba(X_val)[:, 1]
    p_prior = DummyClassifier(strategy="prior").fit(X_train, y_train).predict_proba(X_val)[:, 1]
    assert roc_auc_score(y_val, p_knn) > 0.9
    assert log_loss(y_val, p_knn) > log_loss(y_val, p_prior)
    assert fbeta_score(y_val, p_knn >= 0.5, beta=2) > 0.8  # and yet its decisions are decent


def lab1_three_way():
    """The lab's 60/20/20 split: (X_train, X_val, X_test, y_train, y_val, y_test)."""
    X, y = load_biopsies()
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    X_val, X_test, y_val, y_test = train_test_split(
        X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0
    )
    return X_train, X_val, X_test, y_train, y_val, y_test


def lab1_sweep():
    return np.round(np.linspace(0.10, 0.90, 17), 2)


def counts_at(y, proba, threshold):
    y, flagged = np.asarray(y), np.asarray(proba) >= threshold
    return int((flagged & (y == 1)).sum()), int((flagged & (y == 0)).sum())


def test_lab1_real_models_beat_both_baselines_on_every_column_but_the_constants_specificity():
    """Lab 1, step 6: on the validation set the logistic regression and 5-NN beat the
    most_frequent and stratified baselines on every scoreboard column except specificity, where
    the constant, which flags nothing, scores 1."""
    from sklearn.dummy import DummyClassifier
    from sklearn.metrics import (
        accuracy_score,
        balanced_accuracy_score,
        f1_score,
        matthews_corrcoef,
        precision_score,
        recall_score,
    )

    X_train, X_val, _, y_train, y_val, _ = lab1_three_way()

    def board(pred):
        return {
            "accuracy": accuracy_score(y_val, pred),
            "precision": precision_score(y_val, pred, zero_division=0),
            "recall": recall_score(y_val, pred),
            "specificity": recall_score(y_val, pred, pos_label=0),
            "f1": f1_score(y_val, pred),
            "balanced_accuracy": balanced_accuracy_score(y_val, pred),
            "mcc": matthews_corrcoef(y_val, pred),
        }

    fit = lambda model: model.fit(X_train, y_train).predict(X_val)  # noqa: E731
    real = [fit(make_pipeline(StandardScaler(), m)) for m in (LogisticRegression(), KNeighborsClassifier(5))]
    constant = board(fit(DummyClassifier(strategy="most_frequent")))
    stratified = board(fit(DummyClassifier(strategy="stratified", random_state=0)))
    assert constant["specificity"] == 1
    for pred in real:
        scores = board(pred)
        for column, value in scores.items():
            assert value > stratified[column], column
            assert (value > constant[column]) == (column != "specificity"), column


def test_lab1_threshold_030_adds_only_false_alarms_and_070_removes_every_one():
    """Lab 1, step 7: lowering the logistic regression's threshold from 0.5 to 0.3 finds no more
    tumours and raises more false alarms (TP 39 and 39, FP 1 and 4); at 0.7 no false alarm is
    left and fewer tumours are found (37)."""
    X_train, X_val, _, y_train, y_val, _ = lab1_three_way()
    proba = (
        make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train).predict_proba(X_val)[:, 1]
    )
    (tp3, fp3), (tp5, fp5), (tp7, fp7) = (counts_at(y_val, proba, t) for t in (0.3, 0.5, 0.7))
    assert tp3 == tp5 and fp3 > fp5
    assert fp7 == 0 and tp7 < tp5
    assert (tp3, fp3, tp5, fp5, tp7, fp7) == (39, 4, 39, 1, 37, 0)


def test_lab1_logistic_regression_has_the_larger_roc_auc_and_average_precision():
    """Lab 1, step 8: the logistic regression beats 5-NN on both areas (ROC AUC 0.988 vs 0.947,
    average precision 0.984 vs 0.939), which is why it is carried to the test."""
    from sklearn.metrics import average_precision_score

    X_train, X_val, _, y_train, y_val, _ = lab1_three_way()
    lr, knn = (
        make_pipeline(StandardScaler(), m).fit(X_train, y_train).predict_proba(X_val)[:, 1]
        for m in (LogisticRegression(), KNeighborsClassifier(5))
    )
    assert roc_auc_score(y_val, lr) > roc_auc_score(y_val, knn)
    assert average_precision_score(y_val, lr) > average_precision_score(y_val, knn)


def lab1_cv_sweep():
    import pandas as pd
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    X_train, X_val, _, y_train, y_val, _ = lab1_three_way()
    X_dev, y_dev = pd.concat([X_train, X_val]), pd.concat([y_train, y_val])
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    recipe = make_pipeline(StandardScaler(), LogisticRegression())
    proba = cross_val_predict(recipe, X_dev, y_dev, cv=folds, method="predict_proba")[:, 1]
    return threshold_table(y_dev, proba, lab1_sweep(), betas=(2,))


def test_lab1_cross_validation_picks_the_validation_f2_threshold_on_a_flat_curve():
    """Lab 1, step 9: the out-of-fold F2 sweep picks 0.20, the threshold the validation set picked in
    step 7; every threshold from 0.10 to 0.40 is within 0.01 of it, and 0.20 differs from 0.25 by
    one TP and one FP."""
    X_train, X_val, _, y_train, y_val, _ = lab1_three_way()
    proba = (
        make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train).predict_proba(X_val)[:, 1]
    )
    validation = threshold_table(y_val, proba, lab1_sweep(), betas=(2,))
    cv = lab1_cv_sweep()
    best_val = validation.loc[validation["f2"].idxmax(), "threshold"]
    best = cv.loc[cv["f2"].idxmax()]
    assert best["threshold"] == best_val == 0.20
    near = cv.loc[cv["f2"] >= best["f2"] - 0.01, "threshold"]
    assert (near.min(), near.max()) == (0.10, 0.40) and len(near) == 7  # contiguous: 0.10, ..., 0.40
    neighbour = cv.loc[cv["threshold"] == 0.25].iloc[0]
    assert (best["tp"] - neighbour["tp"], best["fp"] - neighbour["fp"]) == (1, 1)


def lab1_test_decisions():
    import pandas as pd

    X_train, X_val, X_test, y_train, y_val, y_test = lab1_three_way()
    model = make_pipeline(StandardScaler(), LogisticRegression())
    proba = model.fit(pd.concat([X_train, X_val]), pd.concat([y_train, y_val])).predict_proba(X_test)[:, 1]
    return y_test.to_numpy(), (proba >= 0.5).astype(int), (proba >= 0.20).astype(int)


def test_lab1_on_the_test_set_05_wins_accuracy_precision_f1_and_the_chosen_threshold_recall_f2():
    """Lab 1, step 9: on the test set the threshold 0.5 has the higher accuracy, precision and F1;
    the chosen threshold (0.20) the higher recall and F2."""
    from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

    y, at_05, chosen = lab1_test_decisions()
    for metric in (accuracy_score, precision_score, f1_score):
        assert metric(y, at_05) > metric(y, chosen), metric.__name__
    assert recall_score(y, chosen) > recall_score(y, at_05)
    assert fbeta_score(y, chosen, beta=2) > fbeta_score(y, at_05, beta=2)


def test_lab1_two_recalls_on_the_same_tumours_differ_by_two_tumours_mcnemar_p_one_half():
    """Lab 1, step 9: the Wilson intervals of the two test recalls overlap widely, those of the two
    precisions a little; the thresholds disagree on 2 tumours, all found only by the lower one, and
    the exact McNemar test gives p = 0.5."""
    from scipy.stats import binomtest
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import proportion_confint

    y, at_05, chosen = lab1_test_decisions()
    tumours = y == 1

    def interval(pred, among):
        return proportion_confint(int(pred[among & (pred == y)].sum()), int(among.sum()), method="wilson")

    rec_05, rec_chosen = interval(at_05, tumours), interval(chosen, tumours)
    prec_05, prec_chosen = interval(at_05, at_05 == 1), interval(chosen, chosen == 1)
    recall_overlap = min(rec_05[1], rec_chosen[1]) - max(rec_05[0], rec_chosen[0])
    precision_overlap = min(prec_05[1], prec_chosen[1]) - max(prec_05[0], prec_chosen[0])
    assert recall_overlap > 0.05 and 0 < precision_overlap < 0.05
    only_chosen = int((chosen[tumours] & ~at_05[tumours].astype(bool)).sum())
    only_05 = int((at_05[tumours] & ~chosen[tumours].astype(bool)).sum())
    assert (only_chosen, only_05) == (2, 0)
    both = int((at_05[tumours] & chosen[tumours]).sum())
    neither = int(tumours.sum()) - both - only_chosen - only_05
    table = [[neither, only_chosen], [only_05, both]]  # rows: at 0.5, columns: at the chosen threshold
    assert mcnemar(table, exact=True).pvalue == pytest.approx(0.5)
    assert binomtest(only_chosen, only_chosen + only_05).pvalue == pytest.approx(0.5)


def test_lab1_digit_averages_barely_differ_and_weighted_f1_stays_without_the_hardest_digit():
    """Lab 1, step 10: on the digits the macro, weighted and micro F1 agree within 0.001; with 90% of
    the hardest digit's images removed, macro-F1 falls by more than 0.03, weighted-F1 moves by less
    than 0.001, and that digit's precision collapses (below half its former value)."""
    from sklearn.datasets import load_digits
    from sklearn.metrics import f1_score, precision_score

    X, y = load_digits(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    pred = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_tr, y_tr).predict(X_te)
    averages = ("macro", "weighted", "micro")
    before = {a: f1_score(y_te, pred, average=a) for a in averages}
    assert max(before.values()) - min(before.values()) < 0.001
    hardest = int(np.argmin(f1_score(y_te, pred, average=None)))
    rows = np.flatnonzero(y_te == hardest)
    dropped = np.random.default_rng(0).choice(rows, size=round(0.9 * len(rows)), replace=False)
    kept = np.setdiff1d(np.arange(len(y_te)), dropped)
    after = {a: f1_score(y_te[kept], pred[kept], average=a) for a in averages}
    assert before["macro"] - after["macro"] > 0.03
    assert abs(after["weighted"] - before["weighted"]) < 0.001
    precision = (precision_score(y_te, pred, average=None)[hardest],
                 precision_score(y_te[kept], pred[kept], average=None)[hardest])  # fmt: skip
    assert precision[1] < precision[0] / 2


# --- chapter 2: class weights, repetition, label shift ---------------------------------------------


def test_weights_and_repetition_are_the_same_fit_up_to_the_penalty_scale():
    """Ch. 2: a positive repeated c times is a positive with weight c; balanced weights are the
    weights {0: 1, 1: n0/n1} multiplied by n/(2 n0), which is the same as scaling C."""
    X, y = make_classification(
        n_samples=5000, n_features=10, n_informative=5, weights=[0.966], flip_y=0.01, random_state=0
    )
    n_pos, n_neg = int(y.sum()), int((y == 0).sum())
    copies = round(n_neg / n_pos)
    repeat = np.concatenate([np.arange(len(y)), np.repeat(np.flatnonzero(y == 1), copies - 1)])
    repeated = LogisticRegression(tol=1e-10, max_iter=10_000).fit(X[repeat], y[repeat])
    weighted = LogisticRegression(class_weight={0: 1, 1: copies}, tol=1e-10, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(repeated.coef_, weighted.coef_, rtol=1e-4, atol=1e-6)
    scale = len(y) / (2 * n_neg)  # balanced weights = scale * {0: 1, 1: n_neg / n_pos}
    balanced = LogisticRegression(class_weight="balanced", tol=1e-10, max_iter=10_000).fit(X, y)
    ratio = LogisticRegression(C=scale, class_weight={0: 1, 1: n_neg / n_pos}, tol=1e-10, max_iter=10_000)
    np.testing.assert_allclose(balanced.coef_, ratio.fit(X, y).coef_, rtol=1e-4, atol=1e-6)


def test_label_shift_correction_of_calibrated_probabilities():
    """Ch. 2: the payments of each class are the same at every prevalence; probabilities fitted at
    1% and corrected by the change in the prevalence odds are right on average at 3%."""
    X, y = transactions(n_samples=50_000, prevalence=0.01, random_state=1)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    X3, y3 = transactions(n_samples=50_000, prevalence=0.03, random_state=2)
    p = model.predict_proba(X3)[:, 1]
    odds = p / (1 - p) * (0.03 / 0.97) / (y.mean() / (1 - y.mean()))
    corrected = odds / (1 + odds)
    assert y3.mean() - p.mean() > 0.01  # uncorrected: far too low
    assert abs(corrected.mean() - y3.mean()) < 0.003


def lab2_validation():
    X, y = transactions()
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    X_val, _, y_val, _ = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0)
    return X_train, X_val, y_train, y_val.to_numpy()


def test_lab2_accuracy_is_near_099_only_for_models_that_flag_little():
    """Lab 2, step 2: the never-flag and random dummies and the logistic regression sit near 0.99;
    the class-weighted model flags 645 transactions (613 false alarms), has accuracy 0.845 and is
    still cheaper at the desk's prices (5 per file, 200 per missed fraud); flagging all scores 0.01."""
    X_train, X_val, y_train, y_val = lab2_validation()
    dummy = DummyClassifier(strategy="stratified", random_state=0).fit(X_train, y_train).predict(X_val)
    plain = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train).predict(X_val)
    weighted = (
        make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced"))
        .fit(X_train, y_train)
        .predict(X_val)
    )
    assert np.mean(dummy == y_val) == pytest.approx(0.981, abs=0.001)
    assert np.mean(plain == y_val) > 0.99
    assert (weighted.sum(), np.sum((weighted == 1) & (y_val == 0))) == (645, 613)
    assert np.mean(weighted == y_val) == pytest.approx(0.845, abs=0.001)
    assert np.mean(y_val) == pytest.approx(0.01)  # the accuracy of flagging every transaction

    def cost(pred):  # an investigation for every flag, a refund for every missed fraud
        return (5 * pred.sum() + 200 * np.sum((pred == 0) & (y_val == 1))) / len(y_val)

    assert cost(weighted) < cost(plain)


def test_lab2_screening_precision_rests_on_three_false_positives():
    """Lab 2, step 4: out of fold, 3 false alarms among 357 benign biopsies; the Wilson 95%
    interval of that rate, 0.0029 to 0.0244, puts precision at one in a thousand between 0.04 and
    0.25, a factor of about 7."""
    X, y = load_biopsies()
    y = y.to_numpy()
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    pred = cross_val_predict(make_pipeline(StandardScaler(), LogisticRegression()), X, y, cv=folds)
    fp, tn = int(np.sum((pred == 1) & (y == 0))), int(np.sum((pred == 0) & (y == 0)))
    recall = np.sum((pred == 1) & (y == 1)) / np.sum(y == 1)
    assert (fp, fp + tn) == (3, 357)
    n, z = fp + tn, 1.959963984540054
    centre, half = fp / n + z**2 / (2 * n), z * np.sqrt(fp / n * (1 - fp / n) / n + z**2 / (4 * n**2))
    low, high = (centre - half) / (1 + z**2 / n), (centre + half) / (1 + z**2 / n)  # Wilson (1927)
    assert (low, high) == pytest.approx((0.0029, 0.0244), abs=0.00005)

    def precision(fpr, prevalence=0.001):
        return recall * prevalence / (recall * prevalence + fpr * (1 - prevalence))

    assert (precision(high), precision(low)) == pytest.approx((0.04, 0.25), abs=0.005)
    assert round(precision(low) / precision(high)) == 7


def test_ch2_model_at_one_half_is_closer_to_never_flagging_than_to_the_cheapest_threshold():
    """Ch. 2, the sweep: at the habitual 0.5 the logistic regression costs 3.98 euros per payment,
    nearer to never flagging (5.00) than to the cheapest threshold of the sweep (1.61 at 0.014)."""
    X, y = transactions(n_samples=100_000)
    X_rest, _, y_rest, _ = train_test_split(X, y, test_size=0.20, stratify=y, random_state=0)
    X_train, X_val, y_train, y_val = train_test_split(
        X_rest, y_rest, test_size=0.25, stratify=y_rest, random_state=0
    )
    y_val = y_val.to_numpy()
    p = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train).predict_proba(X_val)[:, 1]

    def cost(flag):  # 5 euros per false alarm, 500 per missed fraud
        return (5 * np.sum(flag & (y_val == 0)) + 500 * np.sum(~flag & (y_val == 1))) / len(y_val)

    never, at_half = cost(np.zeros(len(y_val), dtype=bool)), cost(p >= 0.5)
    cheapest = min(cost(p >= t) for t in np.round(np.arange(0.001, 0.1005, 0.001), 3))
    assert (never, round(at_half, 3), round(cheapest, 3)) == (5.0, 3.977, 1.608)
    assert never - at_half < at_half - cheapest


@pytest.mark.slow  # many model fits: make test, not make unit
def test_lab2_smote_moves_knn_along_the_trade_off_without_changing_its_f1():
    """Lab 2, step 8: with SMOTE inside the pipeline (after the scaler) the nearest-neighbour model's
    cross-validated F1 barely moves (0.300 against 0.295), but its recall rises from 0.175 to 0.575
    and its precision falls: a move along the trade-off, paid for with false alarms."""
    from imblearn.over_sampling import SMOTE
    from imblearn.pipeline import make_pipeline as make_imb_pipeline
    from sklearn.model_selection import cross_validate

    X, y = transactions()
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    scores = {}
    for name, model in (
        (
            "smote",
            make_imb_pipeline(StandardScaler(), SMOTE(random_state=0), KNeighborsClassifier(n_neighbors=5)),
        ),
        ("plain", make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))),
    ):
        found = cross_validate(model, X_train, y_train, cv=folds, scoring=("f1", "recall", "precision"))
        scores[name] = {key: found[f"test_{key}"].mean() for key in ("f1", "recall", "precision")}
    assert abs(scores["smote"]["f1"] - scores["plain"]["f1"]) < 0.01
    assert (scores["plain"]["recall"], scores["smote"]["recall"]) == pytest.approx((0.175, 0.575), abs=0.0005)
    assert scores["smote"]["precision"] < scores["plain"]["precision"] / 2


# --- chapter 3 and lab 3: calibration ---------------------------------------------------------------


def test_cv_prefit_is_gone_from_this_scikit_learn():
    """Ch. 3 and lab 3: cv="prefit" was removed; scikit-learn 1.9 rejects it."""
    X, y = make_classification(random_state=0)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(InvalidParameterError, match="cv"):
        CalibratedClassifierCV(model, cv="prefit").fit(X, y)
    CalibratedClassifierCV(FrozenEstimator(model)).fit(X, y)  # the replacement works


def test_temperature_keeps_two_class_rankings_but_not_k_class_ones():
    """Ch. 3: with two classes sigma(z/T) is monotone in z; with three classes a temperature can
    reorder one class's probability across cases, while each case keeps its predicted class."""
    z = np.random.default_rng(0).normal(size=200)
    y = (np.random.default_rng(1).random(200) < expit(z)).astype(int)
    assert roc_auc_score(y, expit(z)) == roc_auc_score(y, expit(z / 3))
    logits = np.array([[1.0, 0.0, 0.0], [2.0, 1.9, -10.0]])  # two cases, three classes
    cold, hot = softmax(logits, axis=1), softmax(logits / 3, axis=1)
    assert cold[0, 0] > cold[1, 0] and hot[0, 0] < hot[1, 0]  # class 0: the order of the cases flips
    assert (cold.argmax(axis=1) == hot.argmax(axis=1)).all()  # no decision changes


def lab3_split():
    X, y = load_biopsies(features="mean")
    y = y.to_numpy()
    X_rest, X_eval, y_rest, y_eval = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    X_fit, X_cal, y_fit, y_cal = train_test_split(
        X_rest, y_rest, test_size=1 / 3, stratify=y_rest, random_state=0
    )
    return X_fit, X_cal, X_eval, y_fit, y_cal, y_eval


def test_binned_resolution_moves_under_a_temperature():
    """Lab 3: resolution is not the ranking: temperature keeps naive Bayes' ranking exactly and
    moves its binned resolution from 0.162 to 0.168."""
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    nb = GaussianNB().fit(X_fit, y_fit)
    scaled = CalibratedClassifierCV(FrozenEstimator(nb), method="temperature").fit(X_cal, y_cal)
    raw, softened = nb.predict_proba(X_eval)[:, 1], scaled.predict_proba(X_eval)[:, 1]
    assert roc_auc_score(y_eval, raw) == roc_auc_score(y_eval, softened)
    before, after = (
        brier_decomposition(y_eval, raw).resolution,
        brier_decomposition(y_eval, softened).resolution,
    )
    assert before == pytest.approx(0.162, abs=0.0005) and after == pytest.approx(0.168, abs=0.0005)


def test_lab3_isotonic_tie_at_one_half():
    """Lab 3: the isotonic map puts 17 evaluation biopsies at exactly 0.5; the rule p >= 0.5 flips
    all 17 (accuracy 0.842), predict() flips none."""
    X, y = load_biopsies(features="mean")
    y = y.to_numpy()
    X_rest, X_eval, y_rest, y_eval = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    X_fit, X_cal, y_fit, y_cal = train_test_split(
        X_rest, y_rest, test_size=1 / 3, stratify=y_rest, random_state=0
    )
    nb = GaussianNB().fit(X_fit, y_fit)
    iso = CalibratedClassifierCV(FrozenEstimator(nb), method="isotonic").fit(X_cal, y_cal)
    p, raw = iso.predict_proba(X_eval)[:, 1], nb.predict_proba(X_eval)[:, 1]
    assert int(np.sum(p == 0.5)) == 17
    assert int(np.sum((p >= 0.5) != (raw >= 0.5))) == 17
    assert int(np.sum((p > 0.5) != (raw >= 0.5))) == 0
    assert int(np.sum(iso.predict(X_eval) != nb.predict(X_eval))) == 0
    assert np.mean((p >= 0.5) == y_eval) == pytest.approx(0.842, abs=0.0005)


def test_brier_tie_of_the_two_forecasters_is_made_up_by_uncertainty():
    """Ch. 3, exercise "A better forecaster?": both Brier scores are 0.196; reliability improves by
    0.0100, resolution falls by only 0.0045, uncertainty rises by 0.0055 (232 vs 212 rainy days)."""

    def murphy(rainy):
        days, rainy, forecast = np.array([100, 200, 100]), np.array(rainy), np.array([0.2, 0.5, 0.8])
        share, base, weight = rainy / days, rainy.sum() / days.sum(), days / days.sum()
        brier = np.sum(rainy * (1 - forecast) ** 2 + (days - rainy) * forecast**2) / days.sum()
        rel, res = np.sum(weight * (forecast - share) ** 2), np.sum(weight * (share - base) ** 2)
        return brier, rel, res, base * (1 - base)

    (b1, rel1, res1, unc1), (b2, rel2, res2, unc2) = murphy([18, 130, 84]), murphy([18, 110, 84])
    assert b1 == pytest.approx(0.196) and b2 == pytest.approx(0.196)
    assert (rel1 - rel2, res1 - res2, unc2 - unc1) == pytest.approx((0.0100, 0.0045, 0.0055), abs=1e-6)
    assert rel1 - rel2 > 2 * (res1 - res2)  # not a trade of reliability for resolution


def test_two_errors_in_five_answers_are_compatible_with_the_promise():
    """Ch. 3, one-line check: with confidences 0.9, 0.8, 0.95, 0.7, 0.9, two or more errors happen
    with probability 0.158 if the promise holds (about one time in 6); the normal tail at z = 1.6
    says 0.05."""
    confidence = np.array([0.9, 0.8, 0.95, 0.7, 0.9])
    tail = 0.0
    for wrong in itertools.product([0, 1], repeat=5):  # every pattern of right and wrong answers
        if sum(wrong) >= 2:
            tail += np.prod(np.where(np.array(wrong) == 1, 1 - confidence, confidence))
    z = (2 - (1 - confidence).sum()) / np.sqrt((confidence * (1 - confidence)).sum())
    assert tail == pytest.approx(0.158, abs=0.0005) and round(1 / tail) == 6
    assert z == pytest.approx(1.6, abs=0.05) and norm.sf(z) == pytest.approx(0.05, abs=0.005)


def test_normal_approximation_is_accurate_for_thousands_of_answers():
    """Ch. 3, agent router: for the 2,000 evaluation answers the normal curve's distribution of
    the number of errors is within 0.025 of the exact Poisson-binomial one everywhere."""
    rng = np.random.default_rng(1)
    said = expit(rng.normal(4, 2.5, 4000))[2000:]  # the declared confidences of the evaluation half
    exact = np.array([1.0])
    for c in said:
        exact = np.convolve(exact, [c, 1 - c])
    errors = np.arange(len(exact))
    normal = norm.cdf((errors - (1 - said).sum()) / np.sqrt((said * (1 - said)).sum()))
    assert np.abs(np.cumsum(exact) - normal).max() < 0.025


def test_classwise_calibration_does_not_imply_confidence_calibration():
    """Ch. 3, exercise "Every class calibrated, the confidence not": half the cases get A, half B;
    every class probability is calibrated, yet confidence 0.4 comes with accuracy 0.5."""
    predicted = np.array([[0.4, 0.3, 0.2, 0.1], [0.4, 0.45, 0.05, 0.1]])  # A, B
    truth = np.array([[0.5, 0.3, 0.2, 0.0], [0.3, 0.45, 0.05, 0.2]])  # class shares among A, B
    for k in range(4):  # class-wise: among the cases given each value of p_k, the share of class k
        for value in np.unique(predicted[:, k]):
            given = predicted[:, k] == value
            assert truth[given, k].mean() == pytest.approx(value)
    top = predicted.argmax(axis=1)
    accuracy = truth[np.arange(2), top]
    assert predicted.max(axis=1)[0] == 0.4 and accuracy[0] == 0.5  # confidence 0.4, right half the time
    assert not np.allclose(predicted, truth)  # not fully calibrated either


def test_top_label_ece_of_the_exercise_is_eleven_times_the_confidence_ece():
    """Ch. 3, exercise with three classes: confidence ECE (one bin) 0.025, top-label ECE with one
    bin per predicted class 0.275."""
    proba = np.array([[0.9, 0.05, 0.05], [0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]])
    truth = np.array([0, 1, 1, 2])
    predicted, confidence = proba.argmax(axis=1), proba.max(axis=1)
    right = predicted == truth
    confidence_ece = abs(right.mean() - confidence.mean())
    top_label_ece = sum(
        np.mean(predicted == k) * abs(right[predicted == k].mean() - confidence[predicted == k].mean())
        for k in np.unique(predicted)
    )
    assert confidence_ece == pytest.approx(0.025) and top_label_ece == pytest.approx(0.275)


def test_brier_1950_sums_over_both_categories():
    """Ch. 3: Brier's original score sums the squared differences over rain and no rain, so it
    runs from 0 to 2 and is twice the binary form; scikit-learn halves it for two classes."""
    y, p = np.array([1, 0, 1, 0]), np.array([0.0, 1.0, 0.7, 0.2])
    original = np.mean((p - y) ** 2 + ((1 - p) - (1 - y)) ** 2)
    assert original == pytest.approx(2 * np.mean((p - y) ** 2))
    assert np.mean(((p - y) ** 2 + ((1 - p) - (1 - y)) ** 2)[:2]) == 2  # two sure mistakes: the maximum
    assert brier_score_loss(y, p) == pytest.approx(original / 2)
    two_columns = np.c_[1 - p, p]
    assert brier_score_loss(y, two_columns, scale_by_half=False) == pytest.approx(original)


def test_calibrated_classifier_cv_uses_decision_function_else_predict_proba():
    """Ch. 3 and lab 3: the sigmoid is fitted on decision_function when the model has one
    (logistic regression) and on predict_proba otherwise (GaussianNB); temperature takes the
    logarithms of the probabilities, so for two classes it divides logit(p) by T."""
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    nb = GaussianNB().fit(X_fit, y_fit)
    assert not hasattr(nb, "decision_function")
    p = nb.predict_proba(X_eval)[:, 1]
    sig = CalibratedClassifierCV(FrozenEstimator(nb), method="sigmoid").fit(X_cal, y_cal)
    out = logit(sig.predict_proba(X_eval)[:, 1])
    slope, intercept = np.polyfit(p, out, 1)
    np.testing.assert_allclose(out, slope * p + intercept, atol=1e-9)  # linear in p itself
    tem = CalibratedClassifierCV(FrozenEstimator(nb), method="temperature").fit(X_cal, y_cal)
    moderate = (p > 0.01) & (p < 0.99)
    ratio = logit(tem.predict_proba(X_eval)[moderate, 1]) / logit(p[moderate])
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-6)  # logit(p) / T
    lr = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_fit, y_fit)
    f = lr.decision_function(X_eval)
    out = logit(
        CalibratedClassifierCV(FrozenEstimator(lr), method="sigmoid")
        .fit(X_cal, y_cal)
        .predict_proba(X_eval)[:, 1]
    )
    slope, intercept = np.polyfit(f, out, 1)
    np.testing.assert_allclose(out, slope * f + intercept, atol=1e-9)  # linear in the log-odds


def test_sigmoid_on_naive_bayes_probability_is_bounded():
    """Ch. 3 Experiment B and lab 3 step 9: fitted on p, sigma(a p + b) has a = 5.12, b = -2.45 and
    stays between 0.080 and 0.936; the 101 evaluation biopsies with p < 0.1 (5.0% malignant) all
    get at least 0.080."""
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    nb = GaussianNB().fit(X_fit, y_fit)
    p = nb.predict_proba(X_eval)[:, 1]
    repaired = (
        CalibratedClassifierCV(FrozenEstimator(nb), method="sigmoid")
        .fit(X_cal, y_cal)
        .predict_proba(X_eval)[:, 1]
    )
    a, b = np.polyfit(p, logit(repaired), 1)
    assert (a, b) == pytest.approx((5.12, -2.45), abs=0.005)
    assert (expit(b), expit(a + b)) == pytest.approx((0.080, 0.936), abs=0.0005)
    low = p < 0.1
    assert low.sum() == 101 and y_eval[low].mean() == pytest.approx(0.050, abs=0.0005)
    assert repaired[low].min() == pytest.approx(0.080, abs=0.0005)


@pytest.mark.slow  # many model fits: make test, not make unit
def test_platt_on_naive_bayes_log_odds_beats_the_sigmoid_on_probabilities():
    """Ch. 3 Experiment B: over 30 splits, Platt's map on naive Bayes' log-odds (Brier 0.0605)
    beats scikit-learn's sigmoid on p (0.0749) in 29 splits and is close to temperature (0.0593)."""
    X, y = load_biopsies(features="mean")
    y = y.to_numpy()
    scores = []
    for seed in range(30):
        X_rest, X_eval, y_rest, y_eval = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
        X_fit, X_cal, y_fit, y_cal = train_test_split(
            X_rest, y_rest, test_size=1 / 3, stratify=y_rest, random_state=seed
        )
        nb = GaussianNB().fit(X_fit, y_fit)
        joint_cal, joint_eval = nb.predict_joint_log_proba(X_cal), nb.predict_joint_log_proba(X_eval)
        z_cal, z_eval = joint_cal[:, 1] - joint_cal[:, 0], joint_eval[:, 1] - joint_eval[:, 0]
        platt = (
            LogisticRegression(C=np.inf, solver="newton-cholesky")
            .fit(z_cal[:, None], y_cal)
            .predict_proba(z_eval[:, None])[:, 1]
        )
        row = [np.mean((platt - y_eval) ** 2)]
        for method in ("sigmoid", "temperature"):
            cal = CalibratedClassifierCV(FrozenEstimator(nb), method=method).fit(X_cal, y_cal)
            row.append(np.mean((cal.predict_proba(X_eval)[:, 1] - y_eval) ** 2))
        scores.append(row)
    platt, sigmoid, temperature = np.array(scores).T
    assert np.sum(platt < sigmoid) == 29
    assert (platt.mean(), sigmoid.mean(), temperature.mean()) == pytest.approx(
        (0.0605, 0.0749, 0.0593), abs=0.0003
    )


def experiment_a():
    X, y = make_classification(
        n_samples=30_000, n_features=10, n_informative=5, weights=[0.966], flip_y=0.01, random_state=0
    )
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.5, random_state=0)
    X_cal, X_test, y_cal, y_test = train_test_split(X_rest, y_rest, test_size=0.5, random_state=0)
    model = LogisticRegression(class_weight="balanced").fit(X_train, y_train)
    return model, X_cal, X_test, y_cal, y_test


def test_temperature_changes_decisions_away_from_one_half():
    """Ch. 3 Experiment A: temperature changes no decision at 0.5, but 323 at chapter 2's
    tau* = 1/101, 716 at 0.1 and 488 at 0.2."""
    model, X_cal, X_test, y_cal, y_test = experiment_a()
    raw = model.predict_proba(X_test)[:, 1]
    scaled = CalibratedClassifierCV(FrozenEstimator(model), method="temperature").fit(X_cal, y_cal)
    after = scaled.predict_proba(X_test)[:, 1]
    changed = [int(np.sum((raw >= t) != (after >= t))) for t in (0.5, 1 / 101, 0.1, 0.2)]
    assert changed == [0, 323, 716, 488]


@pytest.mark.slow  # many model fits: make test, not make unit
def test_isotonic_needs_thousands_of_calibration_cases_at_four_percent_positives():
    """Ch. 3, small calibration sets: with 1,000 cases (41 positives) isotonic regression's test log
    loss is 0.156 against Platt's 0.111, with 2,500 (102 positives) 0.117 against 0.110; only with all
    7,500 (305 positives) is it ahead."""
    model, X_cal, X_test, y_cal, y_test = experiment_a()
    found = {}
    for size in (1000, 2500, len(y_cal)):
        losses = {"sigmoid": [], "isotonic": []}
        for rep in range(5 if size < len(y_cal) else 1):
            if size < len(y_cal):
                X_s, _, y_s, _ = train_test_split(
                    X_cal, y_cal, train_size=size, stratify=y_cal, random_state=rep
                )
            else:
                X_s, y_s = X_cal, y_cal
            positives = int(y_s.sum())
            for method in losses:
                p = (
                    CalibratedClassifierCV(FrozenEstimator(model), method=method)
                    .fit(X_s, y_s)
                    .predict_proba(X_test)[:, 1]
                )
                losses[method].append(log_loss(y_test, p))
        found[size] = (positives, np.mean(losses["isotonic"]), np.mean(losses["sigmoid"]))
    assert [found[s][0] for s in found] == [41, 102, 305]
    assert found[1000][1:] == pytest.approx((0.156, 0.111), abs=0.0005)
    assert found[2500][1:] == pytest.approx((0.117, 0.110), abs=0.0005)
    assert found[len(y_cal)][1] < found[len(y_cal)][2]


def test_isotonic_regression_interpolates_between_blocks():
    """Ch. 3 and lab 3: IsotonicRegression is flat on each block and linear between blocks: a new
    score of 0.65 between the block ending at 0.6 (1/3) and the case at 0.7 (1) gets 2/3; in lab 3,
    10 evaluation biopsies get values that no block has."""
    tiny = IsotonicRegression(out_of_bounds="clip").fit([0.1, 0.3, 0.4, 0.6, 0.7, 0.9], [0, 1, 0, 0, 1, 1])
    assert tiny.predict([0.65])[0] == pytest.approx(2 / 3)
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    nb = GaussianNB().fit(X_fit, y_fit)
    p_cal, p_eval = nb.predict_proba(X_cal)[:, 1], nb.predict_proba(X_eval)[:, 1]
    iso = IsotonicRegression(out_of_bounds="clip").fit(p_cal, y_cal)
    blocks = np.unique(iso.predict(p_cal))  # the values the fit gives the calibration cases
    assert int(np.sum(~np.isin(iso.predict(p_eval), blocks))) == 10


def test_ten_forecasts_at_94_percent_let_a_share_of_80_percent_through():
    """Ch. 3, opening: if 10 transactions are each a fraud with probability 0.94, 8 or fewer frauds
    happen with probability 0.12 (no evidence), 7 or fewer with 0.019 and 6 or fewer with 0.002; the
    central 95% range is 8 to 10."""
    from scipy.stats import binom

    assert binom.interval(0.95, 10, 0.94) == (8, 10)
    assert binom.cdf(8, 10, 0.94) == pytest.approx(0.12, abs=0.005)  # 80% observed: compatible
    assert binom.cdf(7, 10, 0.94) == pytest.approx(0.019, abs=0.0005) and binom.cdf(7, 10, 0.94) < 0.025
    assert binom.cdf(6, 10, 0.94) == pytest.approx(0.002, abs=0.0005)


def test_experiment_a_platt_slope_stretches_back_the_coefficients_the_weights_shrank():
    """Ch. 3 Experiment A: Platt's map is logit p = 1.30 f - 3.26; at f = 0 it removes almost exactly
    log(N-/N+) = 3.28, and the weighted fit's coefficient vector is 0.80 times as long as the
    unweighted one's, which a slope of about 1/0.80 undoes; at the mean test score the correction is
    not b."""
    model, X_cal, X_test, y_cal, y_test = experiment_a()
    X, y = make_classification(
        n_samples=30_000, n_features=10, n_informative=5, weights=[0.966], flip_y=0.01, random_state=0
    )
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.5, random_state=0)
    unweighted = LogisticRegression().fit(X_train, y_train)
    shrink = np.linalg.norm(model.coef_) / np.linalg.norm(unweighted.coef_)
    f = model.decision_function(X_test)
    platt = CalibratedClassifierCV(FrozenEstimator(model), method="sigmoid").fit(X_cal, y_cal)
    a, b = np.polyfit(f, logit(platt.predict_proba(X_test)[:, 1]), 1)
    shift = np.log((y_train == 0).sum() / (y_train == 1).sum())
    assert (a, b, shrink) == pytest.approx((1.30, -3.26, 0.80), abs=0.005)
    assert abs(b + shift) < 0.05  # the intercept: the expected shift, at f = 0
    assert a * shrink == pytest.approx(1, abs=0.1)  # the slope undoes the shrinking
    assert abs((a - 1) * f.mean() + b + shift) > 0.3  # elsewhere the correction is not the shift


@pytest.mark.slow  # many model fits: make test, not make unit
def test_isotonic_is_level_with_platt_on_brier_from_2500_cases_and_its_log_loss_gap_is_clipped_zeros():
    """Ch. 3, small calibration sets: by the Brier score isotonic regression is 0.0291 against
    Platt's 0.0290 with 1,000 cases and level (0.0287) with 2,500; its log-loss gap at 125 cases is
    70% made of positives given exactly 0, each charged -log(eps) = 36 by log_loss's clipping."""
    model, X_cal, X_test, y_cal, y_test = experiment_a()
    charge = -np.log(np.finfo(float).eps)
    assert log_loss([1], [[1.0, 0.0]], labels=[0, 1]) == pytest.approx(charge)  # clipped, not infinite
    found = {}
    for size in (125, 1000, 2500):
        rows = []
        for rep in range(5):
            X_s, _, y_s, _ = train_test_split(X_cal, y_cal, train_size=size, stratify=y_cal, random_state=rep)
            row = []
            for method in ("sigmoid", "isotonic"):
                p = (
                    CalibratedClassifierCV(FrozenEstimator(model), method=method)
                    .fit(X_s, y_s)
                    .predict_proba(X_test)
                )
                row += [
                    brier_score_loss(y_test, p[:, 1]),
                    log_loss(y_test, p),
                    np.sum((p[:, 1] == 0) & (y_test == 1)),
                ]
            rows.append(row)
        found[size] = np.mean(rows, axis=0)  # Brier, log loss, zeros: Platt, then isotonic
    assert (found[1000][0], found[1000][3]) == pytest.approx((0.0290, 0.0291), abs=0.00005)
    assert round(found[2500][0], 4) == round(found[2500][3], 4) == 0.0287
    zeros_part = found[125][5] * charge / len(y_test)
    assert zeros_part / (found[125][4] - found[125][1]) == pytest.approx(0.70, abs=0.005)


@pytest.mark.slow  # many model fits: make test, not make unit
def test_lab3_logistic_regression_ece_is_beyond_the_95th_percentile_of_perfect_forecasts():
    """Lab 3, step 5: drawing outcomes from the logistic regression's own probabilities, 1,000
    times, the perfect forecasts' ECE (10 bins) reaches the model's 0.064 in under 5% of the draws."""
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    p = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_fit, y_fit).predict_proba(X_eval)[:, 1]

    def ece(y, q):  # ten equal-width bins, [a, b), the last one closed
        bins = np.minimum((q * 10).astype(int), 9)
        return sum(
            np.mean(bins == k) * abs(y[bins == k].mean() - q[bins == k].mean()) for k in np.unique(bins)
        )

    observed = ece(y_eval, p)
    rng = np.random.default_rng(0)
    perfect = np.array([ece(rng.binomial(1, p), p) for _ in range(1000)])
    assert observed == pytest.approx(0.064, abs=0.0005)
    assert np.quantile(perfect, 0.95) < observed and 0.02 < np.mean(perfect >= observed) < 0.05


def test_lab3_naive_bayes_reliability_term_comes_mostly_from_five_lone_biopsies():
    """Lab 3, step 6: naive Bayes' binned reliability term is 0.0162; its top bin adds 0.0053 and
    the five biopsies in the middle bins (one or two per bin) 60% of it."""
    X_fit, X_cal, X_eval, y_fit, y_cal, y_eval = lab3_split()
    p = GaussianNB().fit(X_fit, y_fit).predict_proba(X_eval)[:, 1]
    bins = np.minimum((p * 10).astype(int), 9)
    used = np.unique(bins)
    part = {k: np.mean(bins == k) * (p[bins == k].mean() - y_eval[bins == k].mean()) ** 2 for k in used}
    total = sum(part.values())
    middle = [k for k in used if 0 < k < 9]
    assert total == pytest.approx(brier_decomposition(y_eval, p).reliability)
    assert total == pytest.approx(0.0162, abs=0.00005) and part[9] == pytest.approx(0.0053, abs=0.00005)
    assert sum(np.sum(bins == k) for k in middle) == 5 and max(np.sum(bins == k) for k in middle) <= 2
    assert sum(part[k] for k in middle) / total == pytest.approx(0.60, abs=0.005)


# --- chapter 4 and lab 4: ordinal and regression metrics --------------------------------------------


def test_qwk_weights_by_position_so_labels_must_be_passed():
    """Ch. 4: with grades 3 and 4 absent, QWK is 0.526 without labels= and 0.673 with them."""
    truth, graded = [1, 2, 2, 5, 5, 5], [2, 2, 1, 5, 5, 2]
    assert cohen_kappa_score(truth, graded, weights="quadratic") == pytest.approx(0.526, abs=0.0005)
    with_labels = cohen_kappa_score(truth, graded, weights="quadratic", labels=[1, 2, 3, 4, 5])
    assert with_labels == pytest.approx(0.673, abs=0.0005)


def test_kappa_is_zero_when_the_test_set_holds_one_true_class():
    """Ch. 4: a test set of 100 from the 98/1/1 population is all class 1 with probability
    0.98**100, about 13%; then the observed agreement equals chance agreement and kappa is 0."""
    assert pytest.approx(0.133, abs=0.001) == 0.98**100
    assert cohen_kappa_score([1] * 100, [1] * 95 + [2] * 5, weights="quadratic") == 0


def marriage_qwk(random_state):
    X, y = marriage_ratings()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=random_state
    )
    scores = {}
    for name, model in (
        ("multinomial", LogisticRegression(max_iter=1000)),
        ("ordinal", OrdinalLogisticRegression()),
    ):
        pred = make_pipeline(StandardScaler(), model).fit(X_train, y_train).predict(X_test)
        scores[name] = cohen_kappa_score(y_test, pred, weights="quadratic")
    above = np.column_stack(
        [
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            .fit(X_train, (y_train > k).astype(int))
            .predict_proba(X_test)[:, 1]
            for k in (1, 2, 3, 4)
        ]
    )
    fh_proba = np.column_stack([1 - above[:, 0], above[:, :-1] - above[:, 1:], above[:, -1]])
    scores["frank_hall"] = cohen_kappa_score(y_test, fh_proba.argmax(axis=1) + 1, weights="quadratic")
    return scores


@pytest.mark.slow  # many model fits: make test, not make unit
def test_the_qwk_winner_on_the_marriage_ratings_is_noise():
    """Ch. 4: the ordinal model leads by 0.0024 with random_state=0, the multinomial one leads with
    random_state=1, and Frank and Hall's method beats both."""
    first, second = marriage_qwk(0), marriage_qwk(1)
    assert first["ordinal"] - first["multinomial"] == pytest.approx(0.0024, abs=0.0001)
    assert second["ordinal"] < second["multinomial"]
    assert first["frank_hall"] > max(first["ordinal"], first["multinomial"])


def test_best_constants_of_mae_and_mse():
    """Ch. 4: the constant that minimises MAE is the median, the one that minimises MSE the mean."""
    y = np.random.default_rng(0).exponential(size=301)
    grid = np.linspace(y.min(), y.max(), 20_001)
    mae = np.abs(y[:, None] - grid[None, :]).mean(axis=0)
    mse = ((y[:, None] - grid[None, :]) ** 2).mean(axis=0)
    step = grid[1] - grid[0]
    assert abs(grid[mae.argmin()] - np.median(y)) <= step
    assert abs(grid[mse.argmin()] - y.mean()) <= step


def marriage_split():
    X, y = marriage_ratings()
    return train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)


@pytest.mark.slow  # many model fits: make test, not make unit
def test_predict_answers_the_mode_and_the_interval_of_the_latent_score_is_the_median():
    """Ch. 4: on the marriage test set the interval of x·β and predict() agree for 52.6% of the
    women; the interval of x·β is the median rule (ε is symmetric), checked with statsmodels."""
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    X_train, X_test, y_train, y_test = marriage_split()
    scaler = StandardScaler().fit(X_train)
    Z_train, Z_test = scaler.transform(X_train), scaler.transform(X_test)
    om = OrderedModel(y_train.to_numpy(), Z_train, distr="logit")
    params = om.fit(method="bfgs", maxiter=5000, disp=False).params
    beta, cuts = params[: X_train.shape[1]], om.transform_threshold_params(params)[1:-1]
    eta = Z_test @ beta
    cumulative = expit(np.concatenate([[-np.inf], cuts, [np.inf]])[None, :] - eta[:, None])
    proba = np.diff(cumulative, axis=1)
    mode = proba.argmax(axis=1) + 1
    interval = np.searchsorted(cuts, eta) + 1
    median = (np.cumsum(proba, axis=1) >= 0.5).argmax(axis=1) + 1
    assert np.mean(interval == mode) == pytest.approx(0.526, abs=0.0005)
    assert np.array_equal(interval, median)
    ours = OrdinalLogisticRegression().fit(Z_train, y_train)
    assert np.mean(ours.predict(Z_test) == mode) > 0.999
    assert np.mean(ours.predict(Z_test, decision="median") == interval) > 0.999


def test_a_middle_class_never_gets_more_than_two_sigma_of_half_its_width():
    """Ch. 4: P(y = k | x) for a middle class with cut-points δ apart is at most 2σ(δ/2) − 1,
    reached when x·β sits in the middle; δ = 0.55 gives 0.137."""
    for delta in (0.3, 0.55, 1.0, 3.0):
        eta = np.linspace(-10, 10, 200_001)
        p_middle = expit(delta / 2 - eta) - expit(-delta / 2 - eta)
        assert p_middle.max() == pytest.approx(2 * expit(delta / 2) - 1, abs=1e-9)
        assert abs(eta[p_middle.argmax()]) < 1e-3
    assert 2 * expit(0.55 / 2) - 1 == pytest.approx(0.137, abs=0.0005)


def test_with_unequal_stages_the_mode_rule_never_predicts_the_narrow_stages():
    """Ch. 4: cross-validated, the ordinal model predicts [176, 0, 0, 220, 46] against the true
    [147, 36, 36, 158, 65]; the median rule does predict stages 2 and 3."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from beyond_accuracy.datasets import diabetes_stages

    X, stage = diabetes_stages(edges=(100, 120, 140, 250))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    mode = cross_val_predict(make_pipeline(StandardScaler(), OrdinalLogisticRegression()), X, stage, cv=folds)
    median = cross_val_predict(
        make_pipeline(StandardScaler(), OrdinalLogisticRegression(decision="median")), X, stage, cv=folds
    )
    assert np.bincount(mode, minlength=6)[1:].tolist() == [176, 0, 0, 220, 46]
    assert np.bincount(stage, minlength=6)[1:].tolist() == [147, 36, 36, 158, 65]
    assert (np.bincount(median, minlength=6)[[2, 3]] > 0).all()


def test_qwk_rises_before_it_falls_along_the_kappa_slider():
    """Ch. 4: from equal shares, chance disagreement grows (0.333 -> 0.344, peak near a class-1
    share of 0.44) and QWK rises (0.900 -> 0.908, peak near 0.51), back to 0.900 at 2/3."""
    move = np.array([[0.9, 0.1, 0.0], [0.1, 0.8, 0.1], [0.0, 0.1, 0.9]])
    i, j = np.indices((3, 3))
    w = (i - j) ** 2 / 4
    shares = np.linspace(1 / 3, 0.99, 65_701)
    populations = np.stack([shares, (1 - shares) / 2, (1 - shares) / 2], axis=1)
    observed = populations[:, :, None] * move[None, :, :]
    expected = observed.sum(axis=2)[:, :, None] * observed.sum(axis=1)[:, None, :]
    chance = (w * expected).sum(axis=(1, 2))
    qwk = 1 - (w * observed).sum(axis=(1, 2)) / chance
    assert chance[0] == pytest.approx(1 / 3) and chance.max() == pytest.approx(0.344, abs=0.0005)
    assert shares[chance.argmax()] == pytest.approx(0.44, abs=0.005)
    assert qwk[0] == pytest.approx(0.9) and qwk.max() == pytest.approx(0.908, abs=0.0005)
    assert shares[qwk.argmax()] == pytest.approx(0.51, abs=0.005)
    back = shares[(shares > shares[qwk.argmax()]) & (qwk <= 0.9 + 1e-12)][0]
    assert back == pytest.approx(2 / 3, abs=0.001)
    assert np.all(np.diff(qwk[shares > back]) < 0)  # after that, QWK only falls


def test_same_truth_and_accuracy_different_kappa_the_bias_paradox():
    """Ch. 4: truth 60 sick / 40 healthy, both models right 60 times; answering 'sick' 70 times
    gives kappa 0.130, 30 times 0.259; PABAK is 0.200 for both, Gwet's AC1 ranks them the other
    way (0.266 against 0.208)."""
    truth = np.repeat([1, 1, 0, 0], [45, 15, 25, 15])
    model_a = np.repeat([1, 0, 1, 0], [45, 15, 25, 15])
    truth_b = np.repeat([1, 1, 0, 0], [25, 35, 5, 35])
    model_b = np.repeat([1, 0, 1, 0], [25, 35, 5, 35])
    assert truth.sum() == truth_b.sum() == 60 and model_a.sum() == 70 and model_b.sum() == 30
    assert np.mean(truth == model_a) == np.mean(truth_b == model_b) == 0.6
    assert cohen_kappa_score(truth, model_a) == pytest.approx(0.130, abs=0.0005)
    assert cohen_kappa_score(truth_b, model_b) == pytest.approx(0.259, abs=0.0005)

    def ac1(t, p):
        pi = (t.mean() + p.mean()) / 2
        chance = 2 * pi * (1 - pi)
        return (np.mean(t == p) - chance) / (1 - chance)

    assert ac1(truth, model_a) == pytest.approx(0.266, abs=0.0005)
    assert ac1(truth_b, model_b) == pytest.approx(0.208, abs=0.0005)


def test_the_worst_percentage_error_is_about_a_dozen_median_patients():
    """Ch. 4: on the diabetes progression the worst percentage error (316%) is 12.5 times the
    median patient's (25.4%): "about a dozen", not "dozens"."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression

    X, y = load_diabetes(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
    pred = make_pipeline(StandardScaler(), LinearRegression()).fit(X_train, y_train).predict(X_test)
    pct = np.abs(pred - y_test) / y_test
    assert pct.max() == pytest.approx(3.16, abs=0.005)
    assert np.median(pct) == pytest.approx(0.254, abs=0.0005)
    assert 10 < pct.max() / np.median(pct) < 15


def test_r2_on_a_test_set_is_the_share_of_the_test_means_squared_error_removed():
    """Ch. 4: r2_score = 1 − MSE(model) / MSE(always the test mean), negative when the model is
    worse than that constant."""
    from sklearn.metrics import mean_squared_error, r2_score

    rng = np.random.default_rng(0)
    y = rng.normal(size=50)
    for pred in (y + rng.normal(scale=0.5, size=50), -y):
        share = 1 - mean_squared_error(y, pred) / mean_squared_error(y, np.full(50, y.mean()))
        assert r2_score(y, pred) == pytest.approx(share)
    assert r2_score(y, -y) < 0


def test_the_effect_of_affairs_grows_across_the_cut_points():
    """Ch. 4, Frank and Hall exercise: separate fits of "rating > k" give affairs coefficients
    -0.18, -0.27, -0.44, -0.51 (standard errors 0.04 to 0.07) against -0.36 shared: the
    proportional-odds assumption does not hold for it."""
    import pandas as pd
    import statsmodels.api as sm

    X_train, _, y_train, _ = marriage_split()
    Z = pd.DataFrame(StandardScaler().fit_transform(X_train), columns=X_train.columns, index=X_train.index)
    fits = [sm.Logit((y_train > k).astype(int), sm.add_constant(Z)).fit(disp=0) for k in (1, 2, 3, 4)]
    coef = np.array([f.params["affairs"] for f in fits])
    se = np.array([f.bse["affairs"] for f in fits])
    assert coef == pytest.approx([-0.176, -0.271, -0.445, -0.507], abs=0.002)
    assert se.min() > 0.04 and se.max() < 0.07
    assert coef[0] - coef[-1] > 3 * se.max()
    shared = OrdinalLogisticRegression().fit(Z, y_train).coef_[list(Z.columns).index("affairs")]
    assert shared == pytest.approx(-0.364, abs=0.001)


def test_macro_averaged_mae_and_ranked_probability_score_on_the_marriage_test_set():
    """Ch. 4: macro-averaged MAE 2.000 for the majority baseline, 1.395 for regression + rounding,
    1.418 for the ordinal median, 1.648 for its mode, 1.707 for the multinomial model; ranked
    probability score 0.500 for the training shares, 0.473 multinomial, 0.477 ordinal."""
    from imblearn.metrics import macro_averaged_mean_absolute_error
    from sklearn.linear_model import LinearRegression

    X_train, X_test, y_train, y_test = marriage_split()
    y_true = y_test.to_numpy()

    def macro_mae(pred):
        return np.mean([np.abs(pred[y_true == k] - k).mean() for k in range(1, 6)])

    nominal = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    ordinal = make_pipeline(StandardScaler(), OrdinalLogisticRegression()).fit(X_train, y_train)
    regression = make_pipeline(StandardScaler(), LinearRegression()).fit(X_train, y_train)
    preds = {
        "majority": np.full(len(y_true), 5),
        "regression": np.clip(np.rint(regression.predict(X_test)), 1, 5).astype(int),
        "median": ordinal.predict(X_test, decision="median"),
        "mode": ordinal.predict(X_test),
        "nominal": nominal.predict(X_test),
    }
    expected = {"majority": 2.0, "regression": 1.395, "median": 1.418, "mode": 1.648, "nominal": 1.707}
    for name, pred in preds.items():
        assert macro_mae(pred) == pytest.approx(expected[name], abs=0.0005)
        assert macro_averaged_mean_absolute_error(y_true, pred) == pytest.approx(macro_mae(pred))

    def rps(proba):
        observed = y_true[:, None] <= np.arange(1, 5)[None, :]
        return np.mean(np.sum((np.cumsum(proba, axis=1)[:, :-1] - observed) ** 2, axis=1))

    prior = np.bincount(y_train, minlength=6)[1:] / len(y_train)
    assert rps(np.tile(prior, (len(y_true), 1))) == pytest.approx(0.500, abs=0.0005)
    assert rps(nominal.predict_proba(X_test)) == pytest.approx(0.473, abs=0.0005)
    assert rps(ordinal.predict_proba(X_test)) == pytest.approx(0.477, abs=0.0005)


def test_the_constant_middle_rating_beats_every_model_on_macro_averaged_mae():
    """Ch. 4: on a five-point scale, always answering 3 scores a macro-averaged MAE of
    (2 + 1 + 0 + 1 + 2)/5 = 1.2 whatever the data, the best constant; on the marriage test set no
    model of the chapter reaches it (the best, regression + rounding, 1.395), and always 4 (1.4)
    beats the ordinal model read by its median (1.418)."""
    from sklearn.linear_model import LinearRegression

    X_train, X_test, y_train, y_test = marriage_split()
    y_true = y_test.to_numpy()

    def macro_mae(pred):
        return np.mean([np.abs(pred[y_true == k] - k).mean() for k in range(1, 6)])

    constants = {c: macro_mae(np.full(len(y_true), c)) for c in range(1, 6)}
    assert min(constants, key=constants.get) == 3
    assert constants[3] == pytest.approx(1.2) and constants[4] == pytest.approx(1.4)
    ordinal = make_pipeline(StandardScaler(), OrdinalLogisticRegression()).fit(X_train, y_train)
    regression = make_pipeline(StandardScaler(), LinearRegression()).fit(X_train, y_train)
    nominal = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    models = {
        "regression": np.clip(np.rint(regression.predict(X_test)), 1, 5).astype(int),
        "median": ordinal.predict(X_test, decision="median"),
        "mode": ordinal.predict(X_test),
        "nominal": nominal.predict(X_test),
    }
    scores = {name: macro_mae(pred) for name, pred in models.items()}
    assert min(scores.values()) > constants[3] + 0.15
    assert constants[4] < scores["median"]
    assert np.mean(models["regression"] == 4) > 0.95  # it answers 4 to almost everybody


def class_probabilities(cuts, eta):
    cumulative = expit(np.concatenate([[-np.inf], cuts, [np.inf]])[None, :] - eta[:, None])
    return np.diff(cumulative, axis=1)


def test_whether_a_middle_class_can_be_the_mode_depends_on_its_neighbours():
    """Ch. 4: with three classes the middle one is the most probable for some x·β only if its
    cut-points are more than 2 ln 2 = 1.39 apart; with five classes 1.0 apart (narrower than that),
    the centre class is sometimes the mode and its two neighbours never; on the diabetes stages,
    stages 2 and 3 are never the mode, wherever x·β lies."""
    from beyond_accuracy.datasets import diabetes_stages

    eta = np.linspace(-12, 12, 240_001)
    assert 2 * np.log(2) == pytest.approx(1.39, abs=0.005)
    for delta, can in ((2 * np.log(2) - 0.01, False), (2 * np.log(2) + 0.01, True)):
        modes = class_probabilities(np.array([-delta / 2, delta / 2]), eta).argmax(axis=1)
        assert (modes == 1).any() == can
    modes = class_probabilities(np.array([-1.5, -0.5, 0.5, 1.5]), eta).argmax(axis=1)
    assert (modes == 2).any() and not np.isin(modes, [1, 3]).any()
    X, stage = diabetes_stages(edges=(100, 120, 140, 250))
    cuts = make_pipeline(StandardScaler(), OrdinalLogisticRegression()).fit(X, stage)[-1].cut_points_
    assert np.diff(cuts)[:2] == pytest.approx([0.55, 0.54], abs=0.005)
    assert not np.isin(class_probabilities(cuts, eta).argmax(axis=1), [1, 2]).any()


def test_at_equal_accuracy_kappa_rewards_answers_leaning_against_the_truth():
    """Ch. 4: truth 60 sick / 40 healthy, every model right for 60 patients. Answering "sick" 90
    times (unlike the truth) gives kappa 0.048, 60 times (like the truth) 0.167, 30 times 0.259:
    kappa rewards leaning the other way, not merely differing."""
    kappas = {}
    for sick_answers in (90, 70, 60, 50, 30):
        tp = (20 + sick_answers) // 2  # tp + tn = 60 right answers, tp + fp = sick_answers
        fp, fn = sick_answers - tp, 60 - tp
        tn = 40 - fp
        truth = np.repeat([1, 1, 0, 0], [tp, fn, fp, tn])
        answers = np.repeat([1, 0, 1, 0], [tp, fn, fp, tn])
        assert np.mean(truth == answers) == 0.6 and answers.sum() == sick_answers
        kappas[sick_answers] = cohen_kappa_score(truth, answers)
    assert kappas[90] == pytest.approx(0.048, abs=0.0005)
    assert kappas[60] == pytest.approx(0.167, abs=0.0005)
    assert kappas[30] == pytest.approx(0.259, abs=0.0005)
    assert kappas[90] < kappas[70] < kappas[60] < kappas[50] < kappas[30]


# --- chapter 5 and lab 5: error inspection -----------------------------------------------------------


def test_a_wilson_interval_on_three_examples_covers_the_truth_857_times_in_1000():
    """Ch. 5: at n = 3 the four Wilson intervals are (0, 0.561), (0.061, 0.792), (0.208, 0.939),
    (0.439, 1); at a true rate of 5% only the first holds it, so coverage is 0.95**3 = 85.7% and
    about 28.5 of 200 groups miss; an exact interval allowing for 40 groups holds 0.031."""
    from scipy.stats import binom
    from statsmodels.stats.proportion import proportion_confint

    intervals = [proportion_confint(x, 3, alpha=0.05, method="wilson") for x in range(4)]
    assert np.round(intervals, 3).tolist() == [[0.0, 0.561], [0.061, 0.792], [0.208, 0.939], [0.439, 1.0]]
    coverage = sum(binom.pmf(x, 3, 0.05) for x, (lo, hi) in enumerate(intervals) if lo <= 0.05 <= hi)
    assert coverage == pytest.approx(0.95**3) and 200 * (1 - coverage) == pytest.approx(28.5, abs=0.05)
    low, high = proportion_confint(2, 3, alpha=0.05 / 40, method="beta")
    assert low < 0.031 < high
    assert proportion_confint(2, 3, alpha=0.05 / 40, method="wilson")[0] > 0.031  # Wilson would not


def confident_learning(labels, proba):
    """Flags of the confident joint's off-diagonal (Northcutt et al. 2021), written independently."""
    k = proba.shape[1]
    t = np.array([proba[labels == j, j].mean() for j in range(k)])
    flags = np.zeros(len(labels), dtype=bool)
    for n, (label, p) in enumerate(zip(labels, proba)):
        above = np.flatnonzero(p >= t)
        if len(above):
            flags[n] = above[np.argmax(p[above])] != label
    return flags


@pytest.mark.slow  # many model fits: make test, not make unit
@pytest.mark.parametrize("seed", range(4))
def test_confident_learning_wins_on_systematic_noise_and_the_ranking_on_uniform_noise(seed):
    """Ch. 5: at confident learning's own count of flags, its precision beats the top of the loss
    ranking when 30% of the 1s are labelled 7, and loses to it on uniform 5% noise."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from beyond_accuracy.datasets import corrupt_labels

    X, y = load_digits(return_X_y=True)
    ones = np.flatnonzero(y == 1)
    systematic = y.copy()
    systematic[np.random.default_rng(seed).choice(ones, size=round(0.3 * len(ones)), replace=False)] = 7
    uniform = corrupt_labels(y, 0.05, random_state=seed)[0]
    precision = {}
    for name, given in (("systematic", systematic), ("uniform", uniform)):
        proba = cross_val_predict(
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            X,
            given,
            cv=StratifiedKFold(n_splits=5, shuffle=True, random_state=seed),
            method="predict_proba",
        )
        wrong = given != y
        flags = confident_learning(given, proba)
        loss = -np.log(np.clip(proba[np.arange(len(given)), given], 1e-15, 1))
        top = np.argsort(-loss, kind="stable")[: flags.sum()]
        precision[name] = (wrong[flags].mean(), wrong[top].mean())
    assert precision["systematic"][0] > precision["systematic"][1] + 0.2
    assert precision["uniform"][0] < precision["uniform"][1]
