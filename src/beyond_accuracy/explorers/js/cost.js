// Cost explorer (chapter 2): the costs of a false alarm (c_fp) and of a miss (c_fn) → the expected
// cost per example at every threshold of a sweep, its cheapest threshold and τ* = c_fp/(c_fp + c_fn).
// data: {thresholds, fp, fn, m (the confusion counts of the model at each threshold, from
// threshold_table), c_fp, c_fn ({min, max, step, value}), labels, number_style}.
export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const ts = data.thresholds, fp = data.fp, fn = data.fn, m = data.m;
    const costs = { c_fp: data.c_fp.value, c_fn: data.c_fn.value };
    const money = (v) => baFmt(v, 0, false, style);
    const sliders = [["c_fp", L("cost_false_alarm")], ["c_fn", L("cost_miss")]].map(([key, label]) =>
      baSlider({ control: key, label, ...data[key], format: money,
        onInput: (v) => { costs[key] = v; update(); } }));
    const metrics = baMetricList([["tau_star", L("tau_star")], ["best_threshold", L("ex_cheapest_threshold")],
      ["cost", L("ex_cheapest_cost")]]);
    const figure = baEl("div", { class: "ba-plots" });
    const summary = baSummary();
    root.append(baEl("div", { class: "ba-controls" }, sliders.map((s) => s.root)), metrics.root, figure,
      summary);

    const xmin = ts[0], xmax = 1;
    let plot = null, plotMax = null;
    function nice(x) {
      const p = 10 ** Math.floor(Math.log10(x));
      return [1, 2, 5, 10].map((k) => k * p).find((v) => v >= x * (1 - 1e-12));
    }
    function draw(ymax) {
      const p = baPlot({ xLabel: L("threshold"), yLabel: L("expected_cost_axis"), label: L("expected_cost_axis"),
        x: [xmin, xmax], y: [0, ymax], xLog: true,
        fmt: (v) => baFmt(v, Math.max(0, -Math.floor(Math.log10(v) + 1e-9)), false, style),
        yFmt: (v) => baFmt(v, ymax < 5 ? 1 : 0, false, style) });
      p.curve = p.line([]);
      p.tau = p.vline("ba-ref", "tau_star");
      p.best = p.point("best");
      figure.replaceChildren(p.root);
      return p;
    }
    function update() {
      const { c_fp: cfp, c_fn: cfn } = costs;
      const cost = ts.map((t, i) => (cfp * fp[i] + cfn * fn[i]) / m);
      let best = 0;
      for (let i = 1; i < cost.length; i++) if (cost[i] < cost[best]) best = i;  // the first minimum
      const tau = cfp / (cfp + cfn);
      const ymax = nice(Math.max(...cost));
      if (ymax !== plotMax) { plot = draw(ymax); plotMax = ymax; }
      plot.curve.set(ts.map((t, i) => [t, cost[i]]));
      plot.tau(Math.min(Math.max(tau, xmin), xmax));
      plot.best(ts[best], cost[best]);
      baShow(metrics.cells.tau_star, tau, 4, false, style);
      baShow(metrics.cells.best_threshold, ts[best], 3, false, style);
      baShow(metrics.cells.cost, cost[best], 2, false, style);
      const text = { c_fp: money(cfp), c_fn: money(cfn), tau: baFmt(tau, 4, false, style),
        best: baFmt(ts[best], 3, false, style), cost: baFmt(cost[best], 2, false, style) };
      plot.svg.setAttribute("aria-label", baTemplate(L("ex_cost_alt"), text));
      summary.textContent = baTemplate(L("ex_cost_summary"), text);
      model.set("state", { ...costs });
      model.save_changes();
    }
    update();
  },
};
