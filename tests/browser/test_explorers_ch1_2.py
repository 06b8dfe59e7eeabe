"""The explorers of chapters 1 and 2 on the built site, in headless Chromium.

For sampled slider positions (and one keyboard step) the numbers the page shows, the raw
``data-value`` and the formatted text, must equal the helper package's and scikit-learn's own
computation in Python on the chapter's data, and the explorer must render without a console error
from its scripts: each explorer in one language, the languages in turn (pages.in_turn). The
JavaScript port of ``fmt`` is compared with ``beyond_accuracy.fmt`` directly, in every language;
every explorer renders in the page's language and fits a 390 px screen in every language
(test_site.py::test_every_page_on_a_phone)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from pages import console_errors, in_turn
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from beyond_accuracy.explorers._widget import _js
from beyond_accuracy.language import _NUMBER_STYLE, LANGUAGES, fmt

ROOT = Path(__file__).resolve().parents[2]
CH1 = "{lang}/chapters/{lang}/01-confusion-matrix.html"
CH2 = "{lang}/chapters/{lang}/02-imbalance.html"
LANG_OF = in_turn(["threshold", "prevalence", "cost"])  # then test_explorers_ch3_5.py's, from the 4th
METRIC_DIGITS = {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "precision": 3, "recall": 3, "f1": 3, "f2": 3, "mcc": 3,
                 "ppv": 3, "npv": 3, "false_alarms_per_true_case": 1, "tau_star": 4, "best_threshold": 3,
                 "cost": 2}  # fmt: skip

READ = """
const root = arguments[0], metrics = {}, points = {};
for (const n of root.querySelectorAll('[data-metric]')) metrics[n.dataset.metric] = [n.dataset.value, n.textContent];
for (const c of root.querySelectorAll('[data-point]')) points[c.dataset.point] = [c.dataset.x, c.dataset.y];
return {metrics, points, summary: root.querySelector('.ba-summary').textContent};
"""
SET = """
arguments[0].value = arguments[1];
arguments[0].dispatchEvent(new Event('input', {bubbles: true}));
"""


def open_explorers(open_page, path):
    driver = open_page(path)
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script(
            "const w = [...document.querySelectorAll('.ba-widget')];"
            "return w.length > 0 && w.every(e => e.classList.contains('ba-ready') || e.classList.contains('ba-failed'))"
        )
    )
    failed = driver.find_elements(By.CSS_SELECTOR, ".ba-widget.ba-failed")
    ours = [e for e in console_errors(driver) if "/explorers/" in e]
    assert not failed and not ours, ours
    return driver


def widgets(driver, module):
    return driver.find_elements(By.CSS_SELECTOR, f'.ba-widget[data-module="{module}"]')


def payload(driver, host):
    text = driver.execute_script(
        "return arguments[0].querySelector('script[type=\"application/json\"]').textContent", host
    )
    return json.loads(text)


def read(driver, host):
    return driver.execute_script(READ, host.find_element(By.CSS_SELECTOR, ".ba-explorer"))


def control(host, name):
    return host.find_element(By.CSS_SELECTOR, f'input[data-control="{name}"]')


def check_numbers(shown, expected, lang):
    """data-value equals the Python value, and the text is fmt of it in the page's language."""
    for name, value in expected.items():
        raw, text = shown["metrics"][name]
        assert float(raw) == pytest.approx(value, rel=1e-12, abs=1e-12), (name, raw, value)
        assert text == fmt(float(raw), METRIC_DIGITS[name], lang=lang), (name, text)


# --- the Python side's own numbers ------------------------------------------------------------


def threshold_numbers(y, scores, t):
    from sklearn.metrics import matthews_corrcoef, precision_score, recall_score

    from beyond_accuracy.metrics import threshold_table

    row = threshold_table(y, scores, [t], betas=(1, 2)).iloc[0]
    pred = (scores >= t).astype(int)
    assert row["precision"] == pytest.approx(precision_score(y, pred, zero_division=0))
    assert row["recall"] == pytest.approx(recall_score(y, pred))
    out = {k: float(row[k]) for k in ("tp", "fp", "fn", "tn", "precision", "recall", "f1", "f2")}
    out["mcc"] = float(matthews_corrcoef(y, pred))
    out["fpr"] = row["fp"] / (row["fp"] + row["tn"])
    return out


@cache
def patients():
    from beyond_accuracy.datasets import twenty_patients

    p = twenty_patients()
    return p["y"].to_numpy(), p["score"].to_numpy()


@cache
def biopsies_out_of_fold():
    """The chapter's out-of-fold probabilities of the development set (chapter 1's own code)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from beyond_accuracy.datasets import load_biopsies

    X_bio, y_bio = load_biopsies()
    X_dev, _, y_dev, _ = train_test_split(X_bio, y_bio, test_size=0.20, stratify=y_bio, random_state=0)
    pipeline = make_pipeline(StandardScaler(), LogisticRegression())
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    oof = cross_val_predict(pipeline, X_dev, y_dev, cv=folds, method="predict_proba")[:, 1]
    return y_dev.to_numpy(), oof


@cache
def fraud_validation():
    """Chapter 2's validation labels and the logistic regression's probabilities (its own code)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from beyond_accuracy.datasets import transactions

    X, y = transactions(n_samples=100_000)
    X_rest, _, y_rest, _ = train_test_split(X, y, test_size=0.20, stratify=y, random_state=0)
    X_train, X_val, y_train, y_val = train_test_split(
        X_rest, y_rest, test_size=0.25, stratify=y_rest, random_state=0
    )
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    return y_val.to_numpy(), model.predict_proba(X_val)[:, 1]


def glued(lang, chapter, name):
    """The raw value the chapter glued under ``name`` (stored in the executed notebook)."""
    import nbformat

    nb = nbformat.read(ROOT / "chapters" / lang / f"{chapter}.ipynb", as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {})
            if meta.get("scrapbook", {}).get("name") == name:
                return meta["beyond_accuracy"]["raw"]
    raise KeyError(name)


# --- the tests ---------------------------------------------------------------------------------


def test_the_javascript_fmt_is_beyond_accuracy_fmt(browser):
    values = [0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 0.0005, 0.0015, 0.045, 0.735, 1.005, 2.675, 1 / 3, 2 / 3,
              0.1 + 0.2, 99.995, 999.9996, 1234.5678, -1234.5, 12345.678, 123456.5, 1e6, -0.0004, -0.7368,
              7.000000000000001, 0.009900990099009901, 28.285714285714285]  # fmt: skip
    cases = [
        (x, d, p, lang) for lang in LANGUAGES for x in values for d in (0, 1, 2, 3, 4) for p in (False, True)
    ]
    browser.get("data:text/html,<meta charset='utf-8'><title>fmt</title>")
    shown = browser.execute_script(
        _js("core") + "\nreturn arguments[0].map(([x, d, p, l]) => baFmt(x, d, p, arguments[1][l]));",
        cases,
        _NUMBER_STYLE,
    )
    expected = [fmt(x, d, percent=p, lang=lang) for x, d, p, lang in cases]
    wrong = [(c, s, e) for c, s, e in zip(cases, shown, expected, strict=True) if s != e]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("lang", [LANG_OF["threshold"]])
def test_threshold_explorers_compute_what_python_computes(lang, open_page):
    driver = open_explorers(open_page, CH1.format(lang=lang))
    hosts = widgets(driver, "threshold")
    assert len(hosts) == 2
    for host, (y, scores), positions in (
        (hosts[0], patients(), [0.0, 0.3, 0.4, 0.5, 0.65, 0.7, 0.93, 1.0]),
        (hosts[1], biopsies_out_of_fold(), [0.02, 0.1, 0.5, 0.87, 0.99]),
    ):
        data = payload(driver, host)["data"]
        assert data["y"] == y.tolist()
        # the chapter's own scores to 6 decimals (one step towards their side of a slider position)
        assert np.allclose(data["scores"], scores, rtol=0, atol=1e-6)
        slider = control(host, "threshold")
        for t in positions:
            driver.execute_script(SET, slider, str(t))
            shown = read(driver, host)
            expected = threshold_numbers(y, scores, t)
            check_numbers(shown, {k: v for k, v in expected.items() if k != "fpr"}, lang)
            fpr, tpr = (float(v) for v in shown["points"]["roc"])
            assert (fpr, tpr) == pytest.approx((expected["fpr"], expected["recall"]), abs=1e-12)
            recall, precision = (float(v) for v in shown["points"]["pr"])
            assert (recall, precision) == pytest.approx(
                (expected["recall"], expected["precision"]), abs=1e-12
            )
            assert fmt(t, 2, lang=lang) in shown["summary"]
        # one keyboard step from 0.5: 0.51
        driver.execute_script(SET, slider, "0.5")
        slider.send_keys(Keys.ARROW_RIGHT)
        assert float(slider.get_attribute("value")) == pytest.approx(0.51)
        check_numbers(
            read(driver, host),
            {k: v for k, v in threshold_numbers(y, scores, 0.51).items() if k != "fpr"},
            lang,
        )


def prevalence_numbers(sens, spec, prev, n=10_000):
    """PPV, NPV and false alarms per true case from a population with those counts, by the package."""
    from beyond_accuracy.metrics import binary_scores, confusion_counts

    tp, fn = round(n * prev * sens), round(n * prev * (1 - sens))
    fp, tn = round(n * (1 - prev) * (1 - spec)), round(n * (1 - prev) * spec)
    y = np.r_[np.ones(tp + fn, int), np.zeros(fp + tn, int)]
    pred = np.r_[np.ones(tp, int), np.zeros(fn, int), np.ones(fp, int), np.zeros(tn, int)]
    scores = binary_scores(y, pred)
    counts = confusion_counts(y, pred)
    assert (counts.tp, counts.fp, counts.fn, counts.tn) == (tp, fp, fn, tn)
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "ppv": scores["precision"], "npv": scores["npv"],
            "false_alarms_per_true_case": fp / tp}  # fmt: skip


@pytest.mark.parametrize("lang", [LANG_OF["prevalence"]])
def test_the_prevalence_explorer_computes_what_python_computes(lang, open_page):
    from beyond_accuracy.explorers import PrevalenceExplorer

    driver = open_explorers(open_page, CH1.format(lang=lang))
    (host,) = widgets(driver, "prevalence")
    data = payload(driver, host)["data"]
    assert (data["sensitivity"]["value"], data["specificity"]["value"]) == (0.7, 0.8)  # the model at 0.5
    # positions whose expected counts among 10,000 people are whole, so that a population exists
    for sens, spec, prev in [(0.7, 0.8, 0.01), (0.9, 0.95, 0.05), (0.6, 0.99, 0.1), (0.8, 0.5, 0.5)]:
        for name, value in (("sensitivity", sens), ("specificity", spec), ("prevalence", prev)):
            driver.execute_script(SET, control(host, name), str(value))
        shown = read(driver, host)
        expected = prevalence_numbers(sens, spec, prev)
        for name in ("tp", "fp", "fn", "tn"):  # n·π·sens in floating point: whole up to rounding
            raw, text = shown["metrics"][name]
            assert float(raw) == pytest.approx(expected[name], abs=1e-9) and text == fmt(
                float(raw), 0, lang=lang
            )
        check_numbers(shown, {k: expected[k] for k in ("ppv", "npv", "false_alarms_per_true_case")}, lang)
        assert float(shown["points"]["ppv"][1]) == pytest.approx(expected["ppv"], rel=1e-12)
    # one keyboard step of the prevalence: 0.5 → 0.499 (Bayes' rule in Python)
    slider = control(host, "prevalence")
    slider.send_keys(Keys.ARROW_LEFT)
    assert float(slider.get_attribute("value")) == pytest.approx(0.499)
    check_numbers(read(driver, host), PrevalenceExplorer.values(0.8, 0.5, 0.499), lang)


@pytest.mark.parametrize("lang", [LANG_OF["cost"]])
def test_the_cost_explorer_computes_what_python_computes_and_matches_tau(lang, open_page):
    from beyond_accuracy.metrics import cost_threshold, expected_cost_by_threshold, threshold_table

    driver = open_explorers(open_page, CH2.format(lang=lang))
    (host,) = widgets(driver, "cost")
    data = payload(driver, host)["data"]
    y_val, p_val = fraud_validation()
    thresholds = np.array(data["thresholds"])
    table = threshold_table(y_val, p_val, thresholds, betas=())
    assert data["fp"] == table["fp"].tolist() and data["fn"] == table["fn"].tolist()  # the chapter's model
    shown = read(driver, host)
    # at the chapter's costs: τ* and the cheapest threshold of the chapter's sweep
    assert float(shown["metrics"]["tau_star"][0]) == pytest.approx(
        glued(lang, "02-imbalance", "tau"), rel=1e-4
    )
    assert float(shown["metrics"]["best_threshold"][0]) == glued(lang, "02-imbalance", "best_t")
    for c_fp, c_fn in [(5, 500), (20, 400), (1, 1000), (100, 10), (50, 100)]:
        driver.execute_script(SET, control(host, "c_fp"), str(c_fp))
        driver.execute_script(SET, control(host, "c_fn"), str(c_fn))
        shown = read(driver, host)
        costs = expected_cost_by_threshold(y_val, p_val, thresholds, c_fp=c_fp, c_fn=c_fn)
        best = costs.loc[costs["cost"].idxmin()]
        expected = {"tau_star": cost_threshold(c_fp=c_fp, c_fn=c_fn), "best_threshold": best["threshold"],
                    "cost": best["cost"]}  # fmt: skip
        check_numbers(shown, expected, lang)
        x, yv = (float(v) for v in shown["points"]["best"])
        assert (x, yv) == pytest.approx((best["threshold"], best["cost"]), rel=1e-12)
    # one keyboard step: c_fn 100 → 110
    slider = control(host, "c_fn")
    slider.send_keys(Keys.ARROW_RIGHT)
    assert float(slider.get_attribute("value")) == 110
    costs = expected_cost_by_threshold(y_val, p_val, thresholds, c_fp=50, c_fn=110)
    best = costs.loc[costs["cost"].idxmin()]
    check_numbers(read(driver, host), {"tau_star": cost_threshold(c_fp=50, c_fn=110), "cost": best["cost"],
                                       "best_threshold": best["threshold"]}, lang)  # fmt: skip
