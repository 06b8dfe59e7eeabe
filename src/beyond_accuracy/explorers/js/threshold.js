// Threshold explorer (chapter 1): a slider moves the threshold t; scores >= t are flagged. Shows
// the confusion matrix, precision, recall, F1, F2 and MCC, and the point of t on the ROC and
// precision-recall curves of the same scores. data: {y, scores, threshold: {min, max, step, value},
// threshold_digits, labels, number_style}.

// The precision-recall curve as steps (points in increasing recall): precision jumps first, then
// recall moves, so each recall interval carries the precision at its upper end and the area under
// the drawing is the average precision. This is how plot_pr and scikit-learn's
// PrecisionRecallDisplay draw it (drawstyle="steps-post" on recall falling); straight segments
// between the points would draw the trapezoid, precisions that no threshold achieves.
function baPrSteps(points) {
  const out = points.slice(0, 1);
  for (let k = 1; k < points.length; k++) out.push([points[k - 1][0], points[k][1]], points[k]);
  return out;
}

export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const y = data.y, scores = data.scores;
    const td = data.threshold_digits;
    const curves = baCurves(y, scores);
    const f1 = (v) => baFmt(v, 1, false, style);

    const slider = baSlider({
      control: "threshold", label: L("threshold"), ...data.threshold,
      format: (v) => baFmt(v, td, false, style), onInput: (v) => update(v),
    });
    const matrix = baMatrix({ actual: L("actual_class"), predicted: L("predicted_class"),
      pos: L("pos"), neg: L("neg") });
    const metrics = baMetricList([["precision", L("precision")], ["recall", L("recall")],
      ["f1", L("f1")], ["f2", L("f2_score")], ["mcc", L("mcc")]]);
    const roc = baPlot({ xLabel: L("fpr_axis"), yLabel: L("tpr_axis"), label: L("roc_curve"), fmt: f1 });
    roc.line([[0, 0], [1, 1]], "ba-ref");
    roc.line(curves.roc);
    const rocPoint = roc.point("roc");
    const pr = baPlot({ xLabel: L("recall_axis"), yLabel: L("precision_axis"), label: L("pr_curve"), fmt: f1 });
    const prevalence = curves.P / y.length;
    pr.line([[0, prevalence], [1, prevalence]], "ba-ref");
    pr.line(baPrSteps(curves.pr));
    const prPoint = pr.point("pr");
    const summary = baSummary();
    root.append(
      baEl("div", { class: "ba-controls" }, [slider.root]),
      baEl("div", { class: "ba-row" }, [matrix.root, metrics.root]),
      baEl("div", { class: "ba-plots" }, [roc.root, pr.root]),
      summary,
    );

    function update(t) {
      const c = baCounts(y, scores, t);
      const r = baRates(c);
      for (const k of ["tp", "fp", "fn", "tn"]) baShow(matrix.cells[k], c[k], 0, false, style);
      for (const k of ["precision", "recall", "f1", "f2", "mcc"]) baShow(metrics.cells[k], r[k], 3, false, style);
      rocPoint(r.fpr, r.tpr);
      prPoint(r.recall, r.precision);
      const v = (x) => baFmt(x, 3, false, style);
      const n = (x) => baFmt(x, 0, false, style);
      const values = { threshold: baFmt(t, td, false, style), tp: n(c.tp), fp: n(c.fp), fn: n(c.fn), tn: n(c.tn),
        precision: v(r.precision), recall: v(r.recall), f1: v(r.f1), f2: v(r.f2), mcc: v(r.mcc),
        fpr: v(r.fpr), tpr: v(r.tpr) };
      roc.svg.setAttribute("aria-label", baTemplate(L("ex_roc_alt"), values));
      pr.svg.setAttribute("aria-label", baTemplate(L("ex_pr_alt"), values));
      summary.textContent = baTemplate(L("ex_threshold_summary"), values);
      model.set("state", { threshold: t });
      model.save_changes();
    }
    update(Number(slider.input.value));
  },
};
