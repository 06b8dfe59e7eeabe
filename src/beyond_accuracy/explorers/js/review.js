// Review budget explorer (chapter 5): the examples are reviewed in the order of the ranking
// (most suspicious first); the slider sets how many, k. The module counts the known wrong labels
// among the first k, precision@k = found / k and recall@k = found / all wrong labels, and draws
// both against k. data: {ranked: "0110…" (1 = wrong label, in review order), k, max_k, labels,
// number_style}.

function baReviewCurve(ranked) {
  const found = new Array(ranked.length);
  let n = 0;
  for (let i = 0; i < ranked.length; i++) {
    n += ranked[i];
    found[i] = n;
  }
  return { found, total: n };
}

export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const ranked = Array.from(data.ranked, (c) => (c === "1" ? 1 : 0));
    const { found, total } = baReviewCurve(ranked);
    const maxK = data.max_k;

    const slider = baSlider({ control: "k", label: L("examples_reviewed"), min: 1, max: maxK, step: 1,
      value: data.k, format: (v) => baFmt(v, 0, false, style), onInput: (v) => update(v) });
    const metrics = baMetricList([["found", L("review_found")], ["precision_at_k", L("precision_at_k")],
      ["recall_at_k", L("recall_at_k")]]);
    const plot = baPlot({ xLabel: L("examples_reviewed"), yLabel: L("metric_value"), label: L("review_plot"),
      x: [0, maxK], y: [0, 1], ticks: 4,
      fmt: (v) => (v > 1 || v === 0 ? baFmt(v, 0, false, style) : baFmt(v, 2, false, style)) });
    const ks = Array.from({ length: maxK }, (_, i) => i + 1);
    plot.line([[0, total / ranked.length], [maxK, total / ranked.length]], "ba-ref");
    plot.line(ks.map((k) => [k, found[k - 1] / k]), "ba-line");
    plot.line(ks.map((k) => [k, found[k - 1] / total]), "ba-line ba-alt");
    const precisionPoint = plot.point("precision_at_k"), recallPoint = plot.point("recall_at_k");
    plot.svg.querySelector('[data-point="precision_at_k"]').style.fill = "var(--ba-blue)";
    const legend = baEl("p", { class: "ba-caption" }, [
      baEl("span", { "aria-hidden": "true", style: "color:var(--ba-blue)" }, "— "), L("precision_at_k"), " · ",
      baEl("span", { "aria-hidden": "true", style: "color:var(--ba-red)" }, "— "), L("recall_at_k"), " · ",
      "- - - ", L("random_order")]);
    const summary = baSummary();
    root.append(
      baEl("div", { class: "ba-controls" }, [slider.root]),
      baEl("div", { class: "ba-row" }, [metrics.root, plot.root]),
      legend,
      summary,
    );

    function update(k) {
      const f = found[k - 1], precision = f / k, recall = f / total;
      baShow(metrics.cells.found, f, 0, false, style);
      baShow(metrics.cells.precision_at_k, precision, 3, false, style);
      baShow(metrics.cells.recall_at_k, recall, 3, false, style);
      precisionPoint(k, precision);
      recallPoint(k, recall);
      const reviewed = baCounted(L, "review_examples", k, baFmt(k, 0, false, style));
      summary.textContent = baTemplate(L("review_summary"), { reviewed, found: f, total,
        precision: baFmt(precision, 3, false, style), recall: baFmt(recall, 3, false, style) });
      plot.svg.setAttribute("aria-label", `${L("review_plot")}: ${summary.textContent}`);
      model.set("state", { k });
      model.save_changes();
    }
    update(data.k);
  },
};
