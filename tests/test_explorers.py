"""The explorers' Python side: bundles, the Sphinx extension's files, the exported data, validation.

What the browser shows is tested in tests/browser/test_explorers.py (headless Chromium)."""

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
from beyond_accuracy.explorers._widget import _js
from beyond_accuracy.language import _NUMBER_STYLE, LANGUAGES
from beyond_accuracy.metrics import threshold_table

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "src" / "beyond_accuracy" / "explorers" / "js"
sys.path.insert(0, str(ROOT / "tools" / "sphinx"))
import explorers as extension  # noqa: E402  (tools/sphinx/explorers.py)


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
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    extension.on_build_finished(app, None)
    written = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "_static" / "explorers").iterdir()}
    assert written == {**{f"{n}.js": esm(n) for n in modules()}, "loader.js": loader()}
    # nothing on a failed build or for another format
    other = tmp_path / "other"
    extension.on_build_finished(SimpleNamespace(outdir=str(other), builder=app.builder), RuntimeError())
    extension.on_build_finished(
        SimpleNamespace(outdir=str(other), builder=SimpleNamespace(format="latex")), None
    )
    assert not other.exists()


def test_the_book_registers_the_extension_and_prefers_html():
    import yaml

    sphinx = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]
    assert "explorers" in sphinx["extra_extensions"]
    assert sphinx["local_extensions"]["explorers"] == "tools/sphinx"
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

    from tools.notebooks import WIDGET_STATE, WIDGET_VIEW, drop_browser_widget_state

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
