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
