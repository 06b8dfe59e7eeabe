"""The explorers' Python side: bundles, the Sphinx extension's files, the exported data, validation.

What the browser shows is tested in tests/browser/test_explorers_ch1_2.py and test_explorers_ch3_5.py (headless Chromium)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from beyond_accuracy import set_language
from beyond_accuracy.datasets import twenty_patients
from beyond_accuracy.explorers import BrowserWidget, ThresholdExplorer, esm, loader, modules
from beyond_accuracy.explorers._widget import _js, rounded_keeping_sides
from beyond_accuracy.language import _NUMBER_STYLE, LANGUAGES
from beyond_accuracy.metrics import threshold_table

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "src" / "beyond_accuracy" / "explorers" / "js"
sys.path.insert(0, str(ROOT / "tools" / "book" / "sphinx"))
import explorers as extension  # noqa: E402  (tools/book/sphinx/explorers.py)


def patients_explorer(**kwargs):
    p = twenty_patients()
    return ThresholdExplorer(p["y"], p["score"], **kwargs)


def test_every_module_file_is_a_module_and_core_has_no_imports_or_exports():
    names = modules()
    assert "threshold" in names and "core" not in names and "loader" not in names
    assert sorted(names) == sorted(p.stem for p in JS.glob("*.js") if p.stem not in ("core", "loader"))
    core = (JS / "core.js").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|export)\b", core, re.M)
    for name in names:
        text = (JS / f"{name}.js").read_text(encoding="utf-8")
        assert "export default" in text, name
        assert not re.search(r"^\s*import\b", text, re.M), f"{name}.js imports: anywidget loads one string"


def test_the_bundle_is_core_then_the_module():
    for name in modules():
        assert esm(name) == _js("core") + "\n" + _js(name)
        assert esm(name).startswith((JS / "core.js").read_text(encoding="utf-8"))
        assert esm(name).endswith((JS / f"{name}.js").read_text(encoding="utf-8"))


@pytest.mark.parametrize("bad", ["core", "loader", "nope", "../threshold", ""])
def test_esm_refuses_what_is_not_a_module(bad):
    with pytest.raises(ValueError, match="unknown explorer module"):
        esm(bad)


def test_the_static_files_are_the_bundles(tmp_path):
    from tools.book.build import EXPLORERS, install_explorers

    files = install_explorers(tmp_path)
    written = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "_static" / EXPLORERS).iterdir()}
    assert written == files == {**{f"{n}.js": esm(n) for n in modules()}, "loader.js": loader()}


def test_the_book_registers_the_extension_and_prefers_html():
    import yaml

    sphinx = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]
    assert "explorers" in sphinx["extra_extensions"]
    assert sphinx["local_extensions"]["explorers"] == "tools/book/sphinx"
    config = SimpleNamespace(nb_mime_priority_overrides=[])
    extension.on_config_inited(None, config)
    from myst_nb.core.render import get_mime_priority

    order = get_mime_priority("html", config.nb_mime_priority_overrides)
    assert order.index("text/html") < order.index("application/vnd.jupyter.widget-view+json")


def test_the_widget_is_an_anywidget_with_the_bundle_and_synced_traits():
    import anywidget

    set_language("it")
    w = patients_explorer()
    assert isinstance(w, anywidget.AnyWidget) and isinstance(w, BrowserWidget)
    assert w._esm == esm("threshold")
    assert w.lang == "it" and w.state == {}
    synced = set(w.keys)
    assert {"data", "lang", "state", "_esm"} <= synced
    assert w.data["number_style"] == _NUMBER_STYLE["it"]
    w.state = {"threshold": 0.3}  # the front end writes it; Python reads it back
    assert w.state["threshold"] == 0.3


def test_the_mimebundle_has_the_html_for_the_static_page_and_the_widget_view():
    w = patients_explorer()
    data, _ = w._repr_mimebundle_()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
    html = data["text/html"]
    assert html.startswith('<div class="ba-widget" data-module="threshold" lang="en">')
    payload = re.search(r'<script type="application/json">(.*?)</script>', html, re.S).group(1)
    assert json.loads(payload) == json.loads(json.dumps(w.export()))
    # the fallback text is the package's own numbers at the starting threshold
    assert "TP = 7, FP = 2, FN = 3, TN = 8" in data["text/plain"]
    assert data["text/plain"] in html


def test_under_ipywidgets_7_an_explorer_displays_the_same_bundle():
    """ipywidgets 7 (Colab's) gives every widget an _ipython_display_, which IPython calls instead
    of _repr_mimebundle_: the explorers then display the same bundle themselves."""
    import anywidget
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import display

    seven = callable(getattr(anywidget.AnyWidget, "_ipython_display_", None))
    assert (getattr(BrowserWidget, "_ipython_display_", None) is BrowserWidget._display_bundle) == seven

    class AsUnderSeven(ThresholdExplorer):  # the display path of ipywidgets 7
        _ipython_display_ = BrowserWidget._display_bundle

    shell = InteractiveShell.instance()
    published = []
    shell.display_pub.publish = lambda data, metadata=None, **kw: published.append(data)
    p = twenty_patients()
    w = AsUnderSeven(p["y"], p["score"])
    display(w)
    assert len(published) == 1, "one output, as under ipywidgets 8"
    data = published[0]
    assert data["text/plain"] == w.text_summary() and "object at 0x" not in data["text/plain"]
    assert data["text/html"] == w.to_html()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id


def test_the_json_cannot_close_its_script_element():
    class Echo(BrowserWidget):
        module = "threshold"

    w = Echo({"text": "</script><!-- & >"})
    html = w.to_html()
    inside = html.split('<script type="application/json">', 1)[1].split("</script>", 1)[0]
    assert "<" not in inside and ">" not in inside
    assert json.loads(inside)["data"]["text"] == "</script><!-- & >"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_export_is_json_deterministic_small_and_localised(lang):
    set_language(lang)
    a, b = patients_explorer(), patients_explorer()
    assert a.to_html() == b.to_html()  # nbval compares the stored output
    text = json.dumps(a.export(), ensure_ascii=False)
    assert len(text.encode()) < 4_000
    data = a.data
    for x in data["scores"]:
        assert round(x, 6) == x
    keys = set(re.findall(r'L\("(\w+)"\)', (JS / "threshold.js").read_text(encoding="utf-8")))
    assert keys <= set(data["labels"]), keys - set(data["labels"])
    assert data["labels"]["pos"] == {"en": "sick", "fi": "sairas"}.get(lang, data["labels"]["pos"])


def test_rounded_scores_make_the_same_decisions_at_every_slider_position():
    p = twenty_patients()
    w = ThresholdExplorer(p["y"], p["score"])
    grid = np.round(np.arange(0, 1 + 1e-9, 0.01), 2)
    raw = threshold_table(p["y"], p["score"], grid)
    exported = threshold_table(np.array(w.data["y"]), np.array(w.data["scores"]), grid)
    assert raw[["tp", "fp", "fn", "tn"]].equals(exported[["tp", "fp", "fn", "tn"]])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"y_true": [0, 1, 2], "scores": [0.1, 0.2, 0.3]}, "at most two labels"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2]}, "same length"),
        ({"y_true": [0, 0, 0], "scores": [0.1, 0.2, 0.3]}, "pos_label"),
        ({"y_true": [0, 1, 1], "scores": [0.1, np.nan, 0.3]}, "missing"),
        ({"y_true": [0, 1, 1], "scores": ["a", "b", "c"]}, "numeric"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "threshold": 1.5}, "threshold"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "low": 1, "high": 0}, "low must be below"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "step": 0}, "step"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "classes": "sick"}, "classes"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "classes": ("ill", "well")}, "unknown term"),
        ({"y_true": [0, 1, 1], "scores": [0.1, 0.2, 0.3], "lang": "de"}, "unknown language"),
    ],
)
def test_threshold_explorer_validates_its_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ThresholdExplorer(**kwargs)


def test_the_base_class_and_bad_data_are_refused():
    with pytest.raises(ValueError, match="base class"):
        BrowserWidget({})

    class Echo(BrowserWidget):
        module = "threshold"

    with pytest.raises(ValueError, match="data must be a dict"):
        Echo([1, 2])
    with pytest.raises(ValueError):
        Echo({"x": float("nan")})


def test_the_notebook_keeps_no_kernel_state_of_the_explorers():
    import nbformat

    from tools.book.notebooks import WIDGET_STATE, WIDGET_VIEW, drop_browser_widget_state

    def model(module, **state):
        return {"model_module": module, "model_name": "X", "model_module_version": "1", "state": state}

    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {
        WIDGET_STATE: {
            "state": {
                "a1": model("anywidget", layout="IPY_MODEL_l1", _esm="..."),
                "l1": model("@jupyter-widgets/base"),
                "d1": model("@jupyter-widgets/controls", layout="IPY_MODEL_l2"),
                "l2": model("@jupyter-widgets/base"),
            },
            "version_major": 2,
            "version_minor": 0,
        }
    }
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", {WIDGET_VIEW: {"model_id": "a1"}, "text/html": "<div>", "text/plain": "x"}
        ),
        nbformat.v4.new_output("display_data", {WIDGET_VIEW: {"model_id": "d1"}, "text/plain": "y"}),
    ]
    nb.cells = [cell]
    drop_browser_widget_state(nb)
    assert set(nb.metadata["widgets"][WIDGET_STATE]["state"]) == {"d1", "l2"}
    assert WIDGET_VIEW not in cell.outputs[0]["data"] and "text/html" in cell.outputs[0]["data"]
    assert cell.outputs[1]["data"][WIDGET_VIEW] == {"model_id": "d1"}
    # only explorers: the widget metadata goes entirely
    del nb.metadata["widgets"][WIDGET_STATE]["state"]["d1"]
    del nb.metadata["widgets"][WIDGET_STATE]["state"]["l2"]
    drop_browser_widget_state(nb)
    assert "widgets" not in nb.metadata


# --- the prevalence and cost explorers ----------------------------------------------------------


def test_prevalence_explorer_exports_its_sliders_and_says_the_package_numbers():
    from beyond_accuracy.explorers import PrevalenceExplorer

    set_language("es")
    w = PrevalenceExplorer(sensitivity=0.7, specificity=0.8, prevalence=0.01)
    assert w.data["sensitivity"] == {"min": 0.5, "max": 1.0, "step": 0.01, "value": 0.7}
    assert w.data["prevalence"]["value"] == 0.01 and w.data["population"] == 10_000
    values = PrevalenceExplorer.values(0.7, 0.8, 0.01)
    assert values["ppv"] == pytest.approx(70 / (70 + 1980))
    assert values["npv"] == pytest.approx(7920 / (7920 + 30))
    assert values["false_alarms_per_true_case"] == pytest.approx(1980 / 70)
    assert w.text_summary() == (
        "Sensibilidad 0,70, especificidad 0,80, prevalencia 1,0\u00a0%: PPV 0,034, NPV 0,996; "
        "28,3 falsas alarmas por cada caso real."
    )
    keys = set(re.findall(r'L\("(\w+)"\)', (JS / "prevalence.js").read_text(encoding="utf-8")))
    assert keys <= set(w.data["labels"]), keys - set(w.data["labels"])
    assert len(json.dumps(w.export(), ensure_ascii=False).encode()) < 3_000


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"sensitivity": 0.3, "specificity": 0.8, "prevalence": 0.01}, "sensitivity must lie"),
        ({"sensitivity": 0.7, "specificity": 1.2, "prevalence": 0.01}, "specificity must lie"),
        ({"sensitivity": 0.7, "specificity": 0.8, "prevalence": 0}, "prevalence must lie"),
        ({"sensitivity": "0.7", "specificity": 0.8, "prevalence": 0.01}, "finite number"),
        ({"sensitivity": 0.7, "specificity": 0.8, "prevalence": 0.01, "population": 0}, "population"),
        ({"sensitivity": 0.7, "specificity": 0.8, "prevalence": 0.01, "classes": ("x", "y")}, "unknown term"),
    ],
)
def test_prevalence_explorer_validates_its_input(kwargs, match):
    from beyond_accuracy.explorers import PrevalenceExplorer

    with pytest.raises(ValueError, match=match):
        PrevalenceExplorer(**kwargs)


def fraud_like(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.02).astype(int)
    p = np.clip(rng.beta(1, 30, n) + 0.3 * y * rng.random(n), 0, 1)
    return y, p


def test_cost_explorer_exports_the_counts_of_the_sweep():
    from beyond_accuracy.explorers import CostExplorer
    from beyond_accuracy.metrics import expected_cost_by_threshold

    y, p = fraud_like()
    grid = np.union1d(np.round(np.arange(0.001, 0.1005, 0.001), 3), np.round(np.arange(0.11, 1, 0.01), 2))
    w = CostExplorer(y, p, grid, c_fp=5, c_fn=500)
    assert w.data["thresholds"] == grid.tolist() and w.data["m"] == len(y)
    table = expected_cost_by_threshold(y, p, grid, c_fp=5, c_fn=500)
    assert w.data["fp"] == table["fp"].tolist() and w.data["fn"] == table["fn"].tolist()
    # what the browser computes from the export is the package's cost
    cost = (5 * np.array(w.data["fp"]) + 500 * np.array(w.data["fn"])) / w.data["m"]
    assert np.array_equal(cost, table["cost"].to_numpy())
    assert w.data["c_fp"] == {"min": 1.0, "max": 100.0, "step": 1.0, "value": 5.0}
    keys = set(re.findall(r'L\("(\w+)"\)', (JS / "cost.js").read_text(encoding="utf-8")))
    assert keys <= set(w.data["labels"]), keys - set(w.data["labels"])
    assert "τ* = 0.0099" in w.text_summary()
    assert len(json.dumps(w.export()).encode()) < 6_000


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"thresholds": [0.5, 0.2]}, "increasing"),
        ({"thresholds": [0.0, 0.5]}, "above 0"),
        ({"thresholds": [0.1234567]}, "6 decimals"),
        ({"thresholds": [0.1, 1.5]}, "probabilities"),
        ({"c_fp": 0}, "c_fp must lie"),
        ({"c_fn": 5000}, "c_fn must lie"),
        ({"c_fp_range": (10, 1, 1)}, "c_fp_range"),
        ({"c_fn_range": (1, 2)}, "c_fn_range"),
        ({"y_prob": [0.1, 0.2]}, "same length"),
    ],
)
def test_cost_explorer_validates_its_input(kwargs, match):
    from beyond_accuracy.explorers import CostExplorer

    y, p = fraud_like(200)
    args = {"y_true": y, "y_prob": p, "thresholds": [0.01, 0.1], "c_fp": 5, "c_fn": 500, **kwargs}
    with pytest.raises(ValueError, match=match):
        CostExplorer(**args)


# --- chapters 3-5: calibration, kappa paradox, review budget (E2) ----------------------------

from beyond_accuracy.explorers import (  # noqa: E402
    CalibrationExplorer,
    KappaParadoxExplorer,
    ReviewBudgetExplorer,
)
from beyond_accuracy.metrics import expected_calibration_error, hunt_curve  # noqa: E402

GRADING = np.array([[0.9, 0.1, 0.0], [0.1, 0.8, 0.1], [0.0, 0.1, 0.9]])  # chapter 4's error mechanism


def calibration_data(n=171, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    probs = {}
    for model, power in (("naive Bayes", 3.0), ("logistic regression", 1.0)):
        raw = p**power / (p**power + (1 - p) ** power)
        probs[(model, "none")] = raw
        probs[(model, "temperature")] = np.clip(raw * 0.9 + 0.05, 0, 1)
        probs[(model, "isotonic")] = np.round(raw * 4) / 4  # steps, some exactly on 0.5 and bin edges
    return y, probs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_calibration_export_keeps_every_probabilitys_bin_and_decision_and_localised_words(lang):
    set_language(lang)
    y, probs = calibration_data()
    w = CalibrationExplorer(y, probs)
    data = json.loads(json.dumps(w.export()))["data"]  # what the page receives
    assert data["y"] == "".join(map(str, y))
    for (model, calibrator), p in probs.items():
        exported = np.array(data["probs"][model][calibrator])
        assert np.abs(exported - p).max() <= 1e-6  # 6 decimals, or one step towards its side
        for n in range(1, 31):  # the same bin for every number of bins the slider offers
            assert np.array_equal(bin_ids(exported, n), bin_ids(p, n))
        assert np.array_equal(exported >= 0.5, p >= 0.5)  # the same decisions
    assert [data["labels"][f"name:{m}"] for m in data["models"]] == [
        term_of(k, lang) for k in ("model_naive_bayes", "model_logistic_regression")
    ]
    keys = set(re.findall(r'L\("(\w+)"\)', (JS / "calibration.js").read_text(encoding="utf-8")))
    assert keys <= set(data["labels"]), keys - set(data["labels"])
    # the fallback text is the package's numbers for the first model with its first calibrator
    s = w.summary("naive Bayes", "temperature")
    assert f"ECE {fmt_(s['ece'], 3, lang)}" in w.text_summary()
    assert w.text_summary() in w.to_html()
    assert len(w.to_html().encode()) < 60_000  # 171 examples × 6 arrays: a chapter's share of ~100 kB


def bin_ids(p, n):
    """The equal-width bin of each probability, written out independently of the package:
    [i/n, (i+1)/n) with 1.0 in the last bin."""
    edges = np.linspace(0, 1, n + 1)
    return np.array([min(sum(1 for e in edges[1:-1] if e <= x), n - 1) for x in p])


def test_rounded_export_is_the_same_when_only_the_last_bits_differ():
    """The chapter 1 biopsies' out-of-fold scores once differed in their last bits between two
    machines, and the full repr then changed the stored output; the rounded export does not."""
    rng = np.random.default_rng(3)
    scores = np.concatenate([rng.uniform(size=2000), [1 - 4e-10, 0.3, 0.5 - 2e-7, 0.5 + 2e-7, 1 / 3]])
    grid = np.round(np.arange(0, 1.005, 0.01), 12)
    noisy = scores * (1 + rng.choice([-1, 1], size=scores.size) * 2.2e-16)
    noisy[-4] = 0.3  # a score on a slider position: noise there changes the decision itself
    a, b = rounded_keeping_sides(scores, grid), rounded_keeping_sides(noisy, grid)
    assert a == b
    assert a[-5:-1] == [0.999999, 0.3, 0.499999, 0.500001]  # towards its side; a point stays
    assert a[-1] == round(1 / 3, 6)  # between 0.33 and 0.34: rounded as any value
    assert all(len(repr(x)) <= 8 for x in a[:-1])


def test_rounded_export_keeps_each_value_on_its_side_of_every_point():
    rng = np.random.default_rng(4)
    points = np.unique(np.concatenate([np.linspace(0, 1, n + 1) for n in range(1, 31)]))
    values = np.concatenate([rng.uniform(size=3000), points, points + 3e-7, points - 3e-7])
    values = values[(values >= 0) & (values <= 1)]
    out = np.array(rounded_keeping_sides(values, points))
    for side in ("left", "right"):
        assert np.array_equal(np.searchsorted(points, out, side), np.searchsorted(points, values, side))
    assert np.abs(out - values).max() <= 1e-6


@pytest.mark.parametrize("bad", [[[0.1, 0.2]], [0.1, np.nan], [np.inf]])
def test_rounded_export_refuses_what_is_not_a_list_of_finite_numbers(bad):
    with pytest.raises(ValueError, match="1-D sequence of finite numbers"):
        rounded_keeping_sides(bad, [0.5])


def term_of(key, lang):
    from beyond_accuracy import term

    return term(key, lang)


def fmt_(x, digits, lang):
    from beyond_accuracy import fmt

    return fmt(x, digits, lang=lang)


def test_calibration_summary_uses_the_chosen_bins_and_counts_ties_at_the_threshold():
    y, probs = calibration_data()
    w = CalibrationExplorer(y, probs)
    p, raw = probs[("naive Bayes", "isotonic")], probs[("naive Bayes", "none")]
    assert (p == 0.5).any()  # the rule p >= 0.5 flags a probability of exactly one half
    assert w.summary("naive Bayes", "isotonic")["decisions_changed"] == np.sum((p >= 0.5) != (raw >= 0.5))
    for bins in (1, 7, 30):
        assert w.summary("naive Bayes", "isotonic", n_bins=bins)["ece"] == expected_calibration_error(
            y, p, n_bins=bins
        )


@pytest.mark.parametrize(
    "change, match",
    [
        (
            lambda y, p: (y, {k: v for k, v in p.items() if k != ("naive Bayes", "isotonic")}),
            "every calibrator",
        ),
        (lambda y, p: (y, {k: v for k, v in p.items() if k[1] != "none"}), "uncalibrated entry"),
        (lambda y, p: (y, {"A": p[("naive Bayes", "none")]}), "string pairs"),
        (lambda y, p: (y * 2, p), "0/1 labels"),
        (lambda y, p: (y, {**p, ("naive Bayes", "none"): p[("naive Bayes", "none")] + 1}), "probabilities"),
        (lambda y, p: (y[:-1], p), "same length"),
        (lambda y, p: (y, {}), "non-empty"),
    ],
)
def test_calibration_explorer_validates(change, match):
    y, probs = change(*calibration_data())
    with pytest.raises(ValueError, match=match):
        CalibrationExplorer(y, probs)


@pytest.mark.parametrize("n_bins", [0, 31, 2.5, True])
def test_calibration_explorer_validates_its_bins(n_bins):
    with pytest.raises(ValueError, match="n_bins"):
        CalibrationExplorer(*calibration_data(), n_bins=n_bins)


def test_kappa_grid_starts_at_equal_shares_and_holds_the_chapters_populations():
    w = KappaParadoxExplorer(GRADING)
    shares = json.loads(json.dumps(w.export()))["data"]["shares"]
    assert shares[0] == 1 / 3 and shares[-1] == 0.99 and 0.9 in shares and 0.98 in shares
    assert all(b > a for a, b in zip(shares, shares[1:]))
    # the chapter's own formula (weighted_kappa of the expected matrix) agrees with scikit-learn's
    observed = np.array([0.9, 0.05, 0.05])[:, None] * GRADING
    i, j = np.indices((3, 3))
    weights = (i - j) ** 2 / 4
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    by_hand = 1 - (weights * observed).sum() / (weights * expected).sum()
    assert w.scores(0.9)["qwk"] == pytest.approx(by_hand, abs=1e-12)
    assert w.scores(0.9)["accuracy"] == pytest.approx(np.trace(observed))
    assert w.scores(0.98)["qwk"] < w.scores(0.9)["qwk"] < w.scores(1 / 3)["qwk"]


@pytest.mark.parametrize(
    "grading, match",
    [
        ([[1.0]], "square"),
        ([[0.5, 0.4], [0.2, 0.8]], "sum to 1"),
        ([[1.5, -0.5], [0, 1]], "probabilities"),
        ([1, 2, 3], "square"),
    ],
)
def test_kappa_explorer_validates(grading, match):
    with pytest.raises(ValueError, match=match):
        KappaParadoxExplorer(grading)
    with pytest.raises(ValueError, match="share"):
        KappaParadoxExplorer(GRADING, share=0.2)


def test_review_export_is_the_packages_ranking():
    rng = np.random.default_rng(3)
    is_error = rng.uniform(size=500) < 0.06
    scores = np.round(rng.gamma(1.0, size=500) + 2 * is_error, 1)  # ties, kept in data order
    w = ReviewBudgetExplorer(is_error, scores, max_k=120)
    data = json.loads(json.dumps(w.export()))["data"]
    ranked = np.array([c == "1" for c in data["ranked"]])
    curve = hunt_curve(is_error, scores)
    assert np.array_equal(np.cumsum(ranked), curve["found"].to_numpy())
    assert data["k"] == 50 and data["max_k"] == 120 and len(ranked) == 500
    row = curve.iloc[49]
    assert f"{int(row['found'])} of the {int(is_error.sum())} wrong labels" in w.text_summary()
    assert len(w.to_html().encode()) < 5_000


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"k": 0}, "k must"),
        ({"k": 30, "max_k": 20}, "k must"),
        ({"max_k": 501}, "max_k"),
        ({"max_k": 2.5}, "max_k"),
    ],
)
def test_review_explorer_validates(kwargs, match):
    is_error = np.arange(500) % 10 == 0
    with pytest.raises(ValueError, match=match):
        ReviewBudgetExplorer(is_error, np.arange(500.0), **kwargs)
    with pytest.raises(ValueError, match="no example"):
        ReviewBudgetExplorer(np.zeros(5, dtype=bool), np.arange(5.0))


NODE = __import__("shutil").which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed: the browser tests check the same numbers")
def test_the_calibration_module_bins_as_the_package_does(tmp_path):
    """js/calibration.js's ECE and Brier on probabilities on and near every bin edge, 0, ½ and 1."""
    import subprocess

    from sklearn.metrics import brier_score_loss

    rng = np.random.default_rng(0)
    cases, expected = [], []
    for trial in range(30):
        p = rng.uniform(size=200)
        p[:12] = [0, 1, 0.5, 0.3, 0.7, 0.1, 0.9, 0.6, 0.2, 1e-12, 1 - 1e-12, 0.8]
        if trial % 2:
            p = np.round(p, 1 + trial % 3)  # many probabilities exactly on an edge
        y = (rng.uniform(size=p.size) < p).astype(int)
        for bins in (1, 3, 5, 7, 10, 15, 29, 30):
            cases.append(["ece", y.tolist(), p.tolist(), bins])
            expected.append(expected_calibration_error(y, p, n_bins=bins))
        cases.append(["brier", y.tolist(), p.tolist(), 0])
        expected.append(brier_score_loss(y, p))
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = esm("calibration").replace("export default", "const _module =") + (
        "\nconst fs = require('fs');"
        f"\nconst cases = JSON.parse(fs.readFileSync({json.dumps(str(tmp_path / 'cases.json'))}, 'utf8'));"
        "\nconsole.log(JSON.stringify(cases.map(([f, y, p, b]) => f === 'ece' ? baCalEce(y, p, b) : baCalBrier(y, p))));"
    )
    (tmp_path / "run.cjs").write_text(script)
    out = json.loads(
        subprocess.run([NODE, str(tmp_path / "run.cjs")], capture_output=True, text=True, check=True).stdout
    )
    assert np.allclose(out, expected, rtol=1e-12, atol=1e-14)


def one_changed_decision(lang="en", n_bins=1):
    """Four biopsies and a "calibrator" that moves exactly one across 0.5."""
    y = np.array([0, 1, 0, 1])
    raw = np.array([0.4, 0.6, 0.3, 0.7])
    probs = {("naive Bayes", "none"): raw, ("naive Bayes", "temperature"): np.array([0.6, 0.6, 0.3, 0.7])}
    set_language(lang)
    return CalibrationExplorer(y, probs, n_bins=n_bins)


@pytest.mark.parametrize(
    "lang, one_bin, one_change",
    [
        ("en", "1 bin:", "1 decision changed at 0.50."),
        ("it", "1 intervallo:", "1 decisione cambiata alla soglia 0,50."),
        ("es", "1 intervalo:", "1 decisión cambiada con el umbral 0,50."),
        ("pt", "1 faixa:", "1 decisão alterada no limiar 0,50."),
        ("fi", "1 väli:", "1 päätös muuttui kynnysarvolla 0,50."),
    ],
)
def test_a_count_of_one_takes_the_singular_in_every_language(lang, one_bin, one_change):
    from beyond_accuracy.explorers._widget import counted

    summary = one_changed_decision(lang).text_summary()
    assert one_bin in summary and summary.endswith(one_change), summary
    plural = one_changed_decision(lang, n_bins=2).text_summary()
    assert (
        counted("cal_bins", 2, lang) + ":" in plural and counted("cal_bins", 2, lang) != "2" + one_bin[1:-1]
    )
    for key in ("cal_bins", "cal_changed", "review_examples"):
        forms = {n: counted(key, n, lang, threshold="t") for n in (0, 1, 2, 5)}
        assert forms[0].replace("0", "5") == forms[2].replace("2", "5") == forms[5], forms
        assert forms[1].replace("1", "5", 1) != forms[5], f"{key}: the same noun for 1 and for 5 in {lang}"
    with pytest.raises(ValueError, match="whole number"):
        counted("cal_bins", 1.5, lang)


@pytest.mark.skipif(NODE is None, reason="node is not installed: the browser tests check the same texts")
def test_the_modules_choose_singular_and_plural_as_the_package_does(tmp_path):
    import subprocess

    from beyond_accuracy.explorers._widget import counted

    cases, expected = [], []
    for lang in LANGUAGES:
        labels = one_changed_decision(lang).data["labels"]
        for key in ("cal_bins", "cal_changed"):
            for n in (0, 1, 2, 30):
                cases.append([labels, key, n])
                expected.append(counted(key, n, lang, threshold="T"))
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = esm("calibration").replace("export default", "const _module =") + (
        "\nconst fs = require('fs');"
        f"\nconst cases = JSON.parse(fs.readFileSync({json.dumps(str(tmp_path / 'cases.json'))}, 'utf8'));"
        "\nconsole.log(JSON.stringify(cases.map(([labels, key, n]) =>"
        " baCounted((k) => labels[k], key, n, null, { threshold: 'T' }))));"
    )
    (tmp_path / "run.cjs").write_text(script)
    out = json.loads(
        subprocess.run([NODE, str(tmp_path / "run.cjs")], capture_output=True, text=True, check=True).stdout
    )
    assert out == expected


def test_the_metric_lists_outrank_the_notebooks_own_rules_for_dl():
    """JupyterLab and the classic notebook style every <dl> of an output (".jp-OutputArea-output
    dt {float: left; width: 20%}", specificity 0,1,1), which squeezed an explorer's metric labels
    letter by letter at 1000 px. The explorers' rules for their metric list must outrank them and
    undo the float and the width."""
    css = re.search(r"const BA_CSS = (?:BA_PALETTE \+ )?`(.*?)`;", _js("core"), re.S).group(1)
    rules = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        for selector in selectors.split(","):
            rules.setdefault(" ".join(selector.split()), []).append(body)

    def specificity(selector):
        return (len(re.findall(r"#", selector)), len(re.findall(r"\.[\w-]+", selector)),
                len(re.findall(r"(?:^|[\s>+~])[a-z]+", selector)))  # fmt: skip

    for element, needed in (("dl", ["display:grid"]), ("dt", ["float:none", "width:auto"]), ("dd", ["float:none", "width:auto"])):  # fmt: skip
        mine = [s for s in rules if "ba-metrics" in s and (element == "dl" or s.endswith(element))]
        strong = [s for s in mine if specificity(s) > (0, 1, 1)]
        assert strong, f"no rule for the metric list's {element} outranks .jp-OutputArea-output {element}"
        text = "".join(b for s in strong for b in rules[s]).replace(" ", "")
        for declaration in needed:
            assert declaration in text, f"the metric list's {element} needs {declaration}"


# A DOM just large enough for an explorer's render() in node: elements with attributes, children,
# text, classes and listeners; no layout (clientWidth 0), no ResizeObserver.
FAKE_DOM = """
class Node {
  constructor(tag) { this.tagName = tag; this.attrs = {}; this.children = []; this.style = {};
    this.textContent = ""; this.className = ""; this.clientWidth = 0; this.scrollWidth = 0;
    this.classList = { add() {}, remove() {} }; this.ownerDocument = document; }
  setAttribute(k, v) { this.attrs[k] = String(v); if (k === "id" || k === "value") this[k] = String(v); }
  getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; }
  appendChild(c) { this.children.push(c); return c; }
  append(...cs) { for (const c of cs) this.children.push(c); }
  addEventListener() {}
  *walk() { yield this; for (const c of this.children) if (c instanceof Node) yield* c.walk(); }
}
const document = { head: null, createElement: (t) => new Node(t), createElementNS: (ns, t) => new Node(t),
  getElementById: () => null };
document.head = new Node("head");
"""


def rendered_pr_path(y, scores, tmp_path):
    """The PR curve's drawn path of js/threshold.js, rendered in node, in data coordinates."""
    import subprocess

    data = ThresholdExplorer(y, scores).data
    script = (
        FAKE_DOM
        + esm("threshold").replace("export default", "const _module =")
        + f"\nconst data = {json.dumps(data)};"
        + "\nconst model = { get: (k) => (k === 'data' ? data : 'en'), set() {}, save_changes() {} };"
        + "\nconst el = new Node('div'); _module.render({ model, el });"
        + "\nconst paths = [...el.walk()].filter((n) => n.tagName === 'path' && n.attrs.class === 'ba-line');"
        + "\nconsole.log(JSON.stringify(paths.map((p) => p.attrs.d)));"
    )
    (tmp_path / "run.cjs").write_text(script)
    out = subprocess.run([NODE, str(tmp_path / "run.cjs")], capture_output=True, text=True, check=True).stdout
    roc_d, pr_d = json.loads(out)  # the ROC curve's path first, then the PR curve's
    # baPlot's frame: 260 × 200 pixels, margins left 34, right 10, top 8, bottom 20, both axes [0, 1]
    pixels = np.array([[float(v) for v in pair.split(",")] for pair in re.split("[ML]", pr_d)[1:]])
    return np.column_stack(
        [(pixels[:, 0] - 34) / (260 - 34 - 10), (200 - 20 - pixels[:, 1]) / (200 - 8 - 20)]
    )


@pytest.mark.skipif(NODE is None, reason="node is not installed: the browser tests check the same numbers")
def test_the_threshold_explorer_draws_the_pr_curve_as_steps_whose_area_is_average_precision(tmp_path):
    """Every segment of the drawn precision-recall curve is horizontal or vertical (steps, as plot_pr
    and PrecisionRecallDisplay draw it), and the area under the drawing is average_precision_score,
    not the trapezoid of straight segments (0.861 against 0.868 for the twenty patients)."""
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve

    rng = np.random.default_rng(0)
    p = twenty_patients()
    tied = rng.integers(0, 8, size=60) / 8  # many tied scores: a tie moves recall and precision at once
    cases = [(p["y"].to_numpy(), p["score"].to_numpy()), ((rng.uniform(size=60) < tied).astype(int), tied)]
    for y, scores in cases:
        path = rendered_pr_path(y, scores, tmp_path)
        steps = np.diff(path, axis=0)
        assert np.all((np.abs(steps[:, 0]) < 1e-4) | (np.abs(steps[:, 1]) < 1e-4)), "a sloping segment"
        assert np.all(steps[:, 0] > -1e-4), "recall must not go back"
        drawn_area = np.sum(np.diff(path[:, 0]) * (path[1:, 1] + path[:-1, 1]) / 2)
        precision, recall, _ = precision_recall_curve(y, scores)
        assert drawn_area == pytest.approx(average_precision_score(y, scores), abs=2e-4)
        assert abs(drawn_area - auc(recall, precision)) > 1e-3  # the straight lines' area differs
