"""The explorers of chapters 3-5 and lab 3 in headless Chromium: each renders with no console
error, and for sampled control positions the numbers the browser shows (data-value, and the text,
which must be beyond_accuracy.fmt's in the page's language) equal the package's or scikit-learn's
own computation on the data the page carries. Each explorer in one language, the languages in turn
after test_explorers_ch1_2.py's (pages.in_turn); every explorer renders in the page's language and
fits a 390 px screen in every language (test_site.py::test_every_page_on_a_phone)."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from pages import console_errors, in_turn
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from sklearn.metrics import brier_score_loss, cohen_kappa_score

from beyond_accuracy import fmt
from beyond_accuracy.metrics import expected_calibration_error, precision_at_k, recall_at_k

PAGES = {
    # (lab 3's explorer is a hide-output-student output: the site shows labs as students get them,
    # so it appears only when the student runs the cell)
    "calibration": ["chapters/{lang}/03-calibration.html"],
    "kappa": ["chapters/{lang}/04-ordinal.html"],
    "review": ["chapters/{lang}/05-error-inspection.html"],
}
LANG_OF = in_turn([(module, page) for module, pages in PAGES.items() for page in pages], start=3)
CASES = [(module, page, lang) for (module, page), lang in LANG_OF.items()]


def explorer_errors(driver) -> list[str]:
    """The console errors that come from the explorers (their scripts under _static/explorers/, or
    an error they raise, which names the explorer). The page's other errors, such as a CDN script
    the offline browser cannot reach, belong to the site's own tests."""
    return [m for m in console_errors(driver) if "explorer" in m.lower()]


def page_path(page: str, lang: str) -> str:
    return f"{lang}/" + page.format(lang=lang)


def mounted(driver, module: str):
    """The explorer's host element once loader.js has rendered it, and the data it carries."""
    selector = f'.ba-widget[data-module="{module}"]'
    for _ in range(100):
        hosts = driver.find_elements(By.CSS_SELECTOR, selector)
        if hosts and all("ba-ready" in (h.get_attribute("class") or "") for h in hosts):
            break
        time.sleep(0.1)
    hosts = driver.find_elements(By.CSS_SELECTOR, selector)
    assert hosts, f"no {module} explorer on the page"
    for host in hosts:
        classes = host.get_attribute("class")
        assert "ba-ready" in classes and "ba-failed" not in classes, f"the {module} explorer did not render"
    assert len(hosts) == 1, f"{len(hosts)} {module} explorers on one page"
    host = hosts[0]
    script = host.find_element(By.CSS_SELECTOR, 'script[type="application/json"]')
    payload = json.loads(script.get_attribute("textContent"))
    return host, payload["data"]


def set_control(driver, host, control: str, value) -> None:
    el = host.find_element(By.CSS_SELECTOR, f'[data-control="{control}"]')
    driver.execute_script(
        "arguments[0].value = arguments[1];arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
        el,
        str(value),
    )


def shown(host, metric: str) -> tuple[float, str]:
    el = host.find_element(By.CSS_SELECTOR, f'[data-metric="{metric}"]')
    return float(el.get_attribute("data-value")), el.get_attribute("textContent")


def assert_number(host, metric, expected, digits, lang, where):
    value, text = shown(host, metric)
    assert value == pytest.approx(expected, rel=1e-12, abs=1e-12), f"{where}: {metric} {value} != {expected}"
    assert text == fmt(expected, digits, lang=lang), f"{where}: {metric} shown as {text!r}"


def summary_text(host) -> str:
    return host.find_element(By.CSS_SELECTOR, '.ba-summary[aria-live="polite"]').get_attribute("textContent")


def check_calibration(driver, host, data, lang, where):
    y = np.array([int(c) for c in data["y"]])
    models, calibrators = data["models"], data["calibrators"]
    t = data["threshold"]
    rng = np.random.default_rng(0)
    positions = [(models[0], calibrators[-1], 10), (models[-1], "none", 1), (models[0], "none", 30)]
    positions += [(rng.choice(models), rng.choice(calibrators), int(rng.integers(1, 31))) for _ in range(4)]
    for model, calibrator, bins in positions:
        set_control(driver, host, "model", model)
        set_control(driver, host, "calibrator", calibrator)
        set_control(driver, host, "bins", bins)
        p = np.array(data["probs"][model][calibrator])
        raw = np.array(data["probs"][model]["none"])
        at = f"{where} at {model}/{calibrator}/{bins} bins"
        assert_number(host, "ece", expected_calibration_error(y, p, n_bins=bins), 3, lang, at)
        assert_number(host, "brier", brier_score_loss(y, p), 3, lang, at)
        assert_number(host, "decisions_changed", int(np.sum((p >= t) != (raw >= t))), 0, lang, at)
        assert fmt(expected_calibration_error(y, p, n_bins=bins), 3, lang=lang) in summary_text(host)
        dots = host.find_elements(By.CSS_SELECTOR, 'circle[data-point="uncalibrated"]')
        assert 1 <= len(dots) <= bins
    set_control(driver, host, "bins", 10)
    host.find_element(By.CSS_SELECTOR, '[data-control="bins"]').send_keys(Keys.ARROW_LEFT)  # one key step
    model, calibrator = positions[-1][:2]
    p = np.array(data["probs"][model][calibrator])
    assert_number(host, "ece", expected_calibration_error(y, p, n_bins=9), 3, lang, f"{where}, key")


def check_kappa(driver, host, data, lang, where):
    grading = np.array(data["grading"])
    shares = data["shares"]
    k = len(grading)
    for index in sorted({0, len(shares) - 1, shares.index(0.9), shares.index(0.98), 7, 40}):
        set_control(driver, host, "share", index)
        s = shares[index]
        observed = np.array([s] + [(1 - s) / (k - 1)] * (k - 1))[:, None] * grading
        i, j = np.indices(observed.shape)
        keep = observed.ravel() > 0
        qwk = cohen_kappa_score(i.ravel()[keep], j.ravel()[keep], weights="quadratic",
                                sample_weight=observed.ravel()[keep])  # fmt: skip
        at = f"{where} at share {s}"
        assert_number(host, "accuracy", np.trace(observed), 3, lang, at)
        assert_number(host, "qwk", qwk, 3, lang, at)
        assert_number(host, "o_1_2", observed[0, 1], 3, lang, at)
        assert fmt(s, 0, percent=True, lang=lang) in summary_text(host)
    set_control(driver, host, "share", 40)
    host.find_element(By.CSS_SELECTOR, '[data-control="share"]').send_keys(Keys.ARROW_RIGHT)
    assert shown(host, "share")[0] == shares[41]


def check_review(driver, host, data, lang, where):
    ranked = np.array([int(c) for c in data["ranked"]], dtype=bool)
    order = -np.arange(len(ranked), dtype=float)  # the page's order: its ranking, most suspicious first
    for k in sorted({1, 10, data["k"], 137, data["max_k"]}):
        set_control(driver, host, "k", k)
        at = f"{where} at k = {k}"
        assert_number(host, "found", int(ranked[:k].sum()), 0, lang, at)
        assert_number(host, "precision_at_k", precision_at_k(ranked, order, k), 3, lang, at)
        assert_number(host, "recall_at_k", recall_at_k(ranked, order, k), 3, lang, at)
    slider = host.find_element(By.CSS_SELECTOR, '[data-control="k"]')
    slider.send_keys(Keys.ARROW_LEFT)
    k = data["max_k"] - 1
    assert_number(host, "precision_at_k", precision_at_k(ranked, order, k), 3, lang, f"{where}, key")


CHECKS = {"calibration": check_calibration, "kappa": check_kappa, "review": check_review}


@pytest.mark.parametrize(
    ("module", "page", "lang"), CASES, ids=[f"{lang}-{m}-{p.split('/')[0]}" for m, p, lang in CASES]
)
def test_the_explorer_computes_what_python_computes(open_page, module, page, lang):
    driver = open_page(page_path(page, lang))
    host, data = mounted(driver, module)
    root = host.find_element(By.CSS_SELECTOR, ".ba-explorer")
    assert root.get_attribute("lang") == lang
    assert not host.find_element(By.CSS_SELECTOR, ".ba-fallback").is_displayed()
    for svg in host.find_elements(By.CSS_SELECTOR, "svg"):
        assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-label")
    for control in host.find_elements(By.CSS_SELECTOR, "[data-control]"):
        label = host.find_elements(By.CSS_SELECTOR, f'label[for="{control.get_attribute("id")}"]')
        assert label and label[0].text.strip(), f"a control without a visible label on {page}"
    CHECKS[module](driver, host, data, lang, page_path(page, lang))
    assert not explorer_errors(driver), f"{page_path(page, lang)}: console errors"
