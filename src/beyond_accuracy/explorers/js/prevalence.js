// Prevalence explorer (chapter 1): sensitivity, specificity and prevalence → PPV, NPV and the
// number of false alarms per true case, with the expected counts among `population` people and
// the PPV as a function of prevalence. data: {sensitivity, specificity, prevalence (each {min, max,
// step, value}), population, labels, number_style}.
export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const n = data.population;
    const f2 = (v) => baFmt(v, 2, false, style);
    const pct = (v) => baFmt(v, 1, true, style);
    const values = { sensitivity: data.sensitivity.value, specificity: data.specificity.value,
      prevalence: data.prevalence.value };
    const sliders = [["sensitivity", L("sensitivity"), f2], ["specificity", L("specificity"), f2],
      ["prevalence", L("prevalence"), pct]].map(([key, label, format]) => baSlider({
      control: key, label, ...data[key], format,
      onInput: (v) => { values[key] = v; update(); },
    }));
    const matrix = baMatrix({ actual: L("actual_class"), predicted: L("predicted_class"), pos: L("pos"),
      neg: L("neg"), caption: baTemplate(L("ex_expected_counts"), { n: baFmt(n, 0, false, style) }) });
    const metrics = baMetricList([["ppv", L("ppv")], ["npv", L("npv")],
      ["false_alarms_per_true_case", L("false_alarms_per_true_case")]]);
    const pmin = data.prevalence.min, pmax = data.prevalence.max;
    const plot = baPlot({ xLabel: L("prevalence"), yLabel: L("ppv"), label: L("ppv"), x: [pmin, pmax],
      xLog: true, fmt: (v) => baFmt(v, v < 0.01 ? 1 : 0, true, style), yFmt: (v) => baFmt(v, 1, false, style) });
    const curve = plot.line([]);
    const point = plot.point("ppv");
    const summary = baSummary();
    root.append(
      baEl("div", { class: "ba-controls" }, sliders.map((s) => s.root)),
      baEl("div", { class: "ba-row" }, [matrix.root, metrics.root]),
      baEl("div", { class: "ba-plots" }, [plot.root]),
      summary,
    );

    // expected counts among n people: TP = n·π·sens, FN = n·π·(1−sens), FP = n·(1−π)·(1−spec), TN = n·(1−π)·spec
    function counts(sens, spec, prev) {
      return { tp: n * prev * sens, fn: n * prev * (1 - sens), fp: n * (1 - prev) * (1 - spec),
        tn: n * (1 - prev) * spec };
    }
    function update() {
      const { sensitivity: sens, specificity: spec, prevalence: prev } = values;
      const c = counts(sens, spec, prev);
      const ppv = c.tp / (c.tp + c.fp);
      const npv = c.tn + c.fn > 0 ? c.tn / (c.tn + c.fn) : 0;
      const alarms = c.fp / c.tp;
      for (const k of ["tp", "fp", "fn", "tn"]) baShow(matrix.cells[k], c[k], 0, false, style);
      baShow(metrics.cells.ppv, ppv, 3, false, style);
      baShow(metrics.cells.npv, npv, 3, false, style);
      baShow(metrics.cells.false_alarms_per_true_case, alarms, 1, false, style);
      const pts = [];
      for (let i = 0; i <= 100; i++) {  // evenly spaced on the logarithmic axis
        const q = pmin * (pmax / pmin) ** (i / 100), k = counts(sens, spec, q);
        pts.push([q, k.tp / (k.tp + k.fp)]);
      }
      curve.set(pts);
      point(prev, ppv);
      const text = { sensitivity: f2(sens), specificity: f2(spec), prevalence: pct(prev),
        ppv: baFmt(ppv, 3, false, style), npv: baFmt(npv, 3, false, style),
        false_alarms: baFmt(alarms, 1, false, style) };
      plot.svg.setAttribute("aria-label", baTemplate(L("ex_ppv_alt"), text));
      summary.textContent = baTemplate(L("ex_prevalence_summary"), text);
      model.set("state", { ...values });
      model.save_changes();
    }
    update();
  },
};
