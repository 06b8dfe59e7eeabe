// Calibration explorer (chapter 3, lab 3): a model, a calibrator and a number of equal-width bins
// → the reliability diagram (uncalibrated and calibrated), ECE, Brier score and the decisions at
// the threshold that the calibrator changed. data: {y: "0110…", models: [key…], calibrators: [key…],
// probs: {model: {calibrator: [p…]}}, n_bins, max_bins, threshold, labels (with "name:<key>", the
// shown name of each model and calibrator), number_style}.

// Equal-width bins as beyond_accuracy.metrics: edges numpy.linspace(0, 1, n + 1), i.e. i * (1/n);
// bins half-open [a, b), the last one closed (1.0 falls in it): the bin of p is the number of inner
// edges <= p (numpy.searchsorted(edges[1:-1], p, side="right")).
function baCalBins(y, p, nBins) {
  const step = 1 / nBins;
  const inner = [];
  for (let i = 1; i < nBins; i++) inner.push(i * step);
  const count = new Array(nBins).fill(0), sumY = new Array(nBins).fill(0), sumP = new Array(nBins).fill(0);
  for (let i = 0; i < p.length; i++) {
    let b = 0;
    while (b < inner.length && inner[b] <= p[i]) b++;
    count[b] += 1;
    sumY[b] += y[i];
    sumP[b] += p[i];
  }
  return { count, sumY, sumP };
}

// ECE = Σ_b (n_b / n) |observed share_b − mean predicted_b| = Σ_b |Σy − Σp| / n, non-empty bins.
function baCalEce(y, p, nBins) {
  const { count, sumY, sumP } = baCalBins(y, p, nBins);
  let total = 0;
  for (let b = 0; b < nBins; b++) if (count[b] > 0) total += Math.abs(sumY[b] - sumP[b]);
  return total / y.length;
}

function baCalBrier(y, p) {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += (y[i] - p[i]) ** 2;
  return s / p.length;
}

// Decisions (p >= t) that differ between the calibrated and the uncalibrated probabilities.
function baCalChanged(p, raw, t) {
  let n = 0;
  for (let i = 0; i < p.length; i++) if ((p[i] >= t) !== (raw[i] >= t)) n++;
  return n;
}

// The reliability diagram's points: [mean predicted, observed share] of each non-empty bin.
function baCalCurve(y, p, nBins) {
  const { count, sumY, sumP } = baCalBins(y, p, nBins);
  const pts = [];
  for (let b = 0; b < nBins; b++) if (count[b] > 0) pts.push([sumP[b] / count[b], sumY[b] / count[b]]);
  return pts;
}

export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const y = Array.from(data.y, (c) => (c === "1" ? 1 : 0));
    const f3 = (v) => baFmt(v, 3, false, style);
    const first = data.calibrators.find((c) => c !== "none") || data.calibrators[0];
    const choice = { model: data.models[0], calibrator: first, bins: data.n_bins };
    const name = (key) => L(`name:${key}`);

    const modelMenu = baSelect({ control: "model", label: L("model"), value: choice.model,
      options: data.models.map((m) => [m, name(m)]), onInput: (v) => { choice.model = v; update(); } });
    const calMenu = baSelect({ control: "calibrator", label: L("calibrator"), value: choice.calibrator,
      options: data.calibrators.map((c) => [c, name(c)]), onInput: (v) => { choice.calibrator = v; update(); } });
    const bins = baSlider({ control: "bins", label: L("cal_bins"), min: 1, max: data.max_bins, step: 1,
      value: data.n_bins, format: (v) => String(v), onInput: (v) => { choice.bins = v; update(); } });
    const thresholdText = baFmt(data.threshold, 2, false, style);
    const metrics = baMetricList([["ece", L("ece_short")], ["brier", L("brier_score")],
      ["decisions_changed", baTemplate(L("cal_decisions_changed"), { threshold: thresholdText })]]);

    const plot = baPlot({ xLabel: L("mean_predicted_axis"), yLabel: L("observed_frequency_axis"),
      label: L("reliability_diagram"), fmt: (v) => baFmt(v, 1, false, style) });
    plot.line([[0, 0], [1, 1]], "ba-ref");
    const rawLine = plot.line([], "ba-line");
    const calLine = plot.line([], "ba-line ba-alt");
    const dots = document.createElementNS(BA_SVG, "g");
    plot.svg.appendChild(dots);
    const key = (cls, text) => baEl("span", { class: "ba-caption" }, [
      baEl("span", { "aria-hidden": "true", style: `color:${cls}` }, "● "), text]);
    const legend = baEl("p", { class: "ba-caption" }, [key("var(--ba-blue)", L("cal_uncalibrated")), " · ",
      key("var(--ba-red)", L("cal_with_calibrator")), " · ", L("perfect_calibration") + " - - -"]);
    const summary = baSummary();
    root.append(
      baEl("div", { class: "ba-controls" }, [modelMenu.root, calMenu.root, bins.root]),
      baEl("div", { class: "ba-row" }, [plot.root, metrics.root]),
      legend,
      summary,
    );

    function drawDots(points, color, name) {
      for (const [px, py] of points) {
        const c = document.createElementNS(BA_SVG, "circle");
        c.setAttribute("class", "ba-point");
        c.style.fill = color;
        c.setAttribute("r", "3.5");
        c.setAttribute("cx", plot.sx(px).toFixed(2));
        c.setAttribute("cy", plot.sy(py).toFixed(2));
        c.setAttribute("data-point", name);
        c.setAttribute("data-x", String(px));
        c.setAttribute("data-y", String(py));
        dots.appendChild(c);
      }
    }

    function update() {
      const raw = data.probs[choice.model].none;
      const p = data.probs[choice.model][choice.calibrator];
      const ece = baCalEce(y, p, choice.bins), brier = baCalBrier(y, p);
      const changed = baCalChanged(p, raw, data.threshold);
      baShow(metrics.cells.ece, ece, 3, false, style);
      baShow(metrics.cells.brier, brier, 3, false, style);
      baShow(metrics.cells.decisions_changed, changed, 0, false, style);
      const rawPts = baCalCurve(y, raw, choice.bins);
      const calPts = choice.calibrator === "none" ? [] : baCalCurve(y, p, choice.bins);
      rawLine.set(rawPts);
      calLine.set(calPts);
      dots.replaceChildren();
      drawDots(rawPts, "var(--ba-blue)", "uncalibrated");
      drawDots(calPts, "var(--ba-red)", "calibrated");
      const values = { model: name(choice.model), calibrator: name(choice.calibrator),
        bins: baCounted(L, "cal_bins", choice.bins), ece: f3(ece), brier: f3(brier),
        changed: baCounted(L, "cal_changed", changed, null, { threshold: thresholdText }) };
      summary.textContent = baTemplate(L("cal_summary"), values);
      plot.svg.setAttribute("aria-label", `${L("reliability_diagram")}: ${summary.textContent}`);
      model.set("state", { model: choice.model, calibrator: choice.calibrator, bins: choice.bins });
      model.save_changes();
    }
    update();
  },
};
