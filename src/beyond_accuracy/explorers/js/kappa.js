// Kappa paradox explorer (chapter 4): one model, fixed by its matrix P(answer j | actual class i),
// on populations where class 1 has the share s and the other classes split the rest equally.
// The slider picks s among data.shares; the module computes the expected confusion matrix
// O_ij = π_i P_ij, the accuracy (its trace) and the quadratic weighted kappa
// 1 − Σ w O / Σ w E with w_ij = (i − j)² / (K − 1)² and E the product of O's margins.
// data: {grading: K×K, shares: [s…], share, labels, number_style}.

function baKappaPopulation(k, s) {
  return [s].concat(new Array(k - 1).fill((1 - s) / (k - 1)));
}

function baKappaScores(grading, s) {
  const k = grading.length;
  const pi = baKappaPopulation(k, s);
  const O = grading.map((row, i) => row.map((g) => pi[i] * g));
  const rows = O.map((r) => r.reduce((a, b) => a + b, 0));
  const cols = O[0].map((_, j) => O.reduce((a, r) => a + r[j], 0));
  const total = rows.reduce((a, b) => a + b, 0);
  let wo = 0, we = 0, accuracy = 0;
  for (let i = 0; i < k; i++) {
    accuracy += O[i][i];
    for (let j = 0; j < k; j++) {
      const w = (i - j) ** 2 / (k - 1) ** 2;
      wo += w * O[i][j];
      we += (w * rows[i] * cols[j]) / total;
    }
  }
  return { observed: O, accuracy, qwk: 1 - wo / we };
}

export default {
  render({ model, el }) {
    const { data, style, L, root } = baStart(el, model);
    const shares = data.shares, grading = data.grading, k = grading.length;
    const pct = (v) => baFmt(v, 0, true, style);
    const start = Math.max(0, shares.indexOf(data.share));

    const slider = baSlider({ control: "share", label: L("class_one_share"), min: 0, max: shares.length - 1,
      step: 1, value: start, format: (i) => pct(shares[i]), onInput: (i) => update(i) });
    const shareCell = baNumber("share");
    shareCell.hidden = true;
    const metrics = baMetricList([["accuracy", L("accuracy")], ["qwk", L("weighted_kappa")]]);

    const cells = [];
    const th = (t, attrs = {}) => baEl("th", attrs, t);
    const body = [];
    for (let i = 0; i < k; i++) {
      cells.push([]);
      const row = [th(String(i + 1), { scope: "row" })];
      for (let j = 0; j < k; j++) {
        const td = baNumber(`o_${i + 1}_${j + 1}`, "td");
        if (i === j) td.className = "ba-ok";
        cells[i].push(td);
        row.push(td);
      }
      body.push(baEl("tr", {}, row));
    }
    const table = baEl("table", { class: "ba-matrix" }, [
      baEl("caption", { class: "ba-caption" }, L("kappa_expected_matrix")),
      baEl("thead", {}, [
        baEl("tr", {}, [baEl("td", { "aria-hidden": "true" }), th(L("predicted_class"), { colspan: k, scope: "colgroup" })]),
        baEl("tr", {}, [th(L("actual_class"), { scope: "col" })].concat(
          Array.from({ length: k }, (_, j) => th(String(j + 1), { scope: "col" })))),
      ]),
      baEl("tbody", {}, body),
    ]);

    const path = shares.map((s) => [s, baKappaScores(grading, s)]);
    const plot = baPlot({ xLabel: L("ord_edge_share"), yLabel: L("metric_value"), label: L("ord_paradox_title"),
      x: [0, 1], y: [0, 1], fmt: (v) => baFmt(v, 1, false, style) });
    plot.line(path.map(([s, r]) => [s, r.accuracy]), "ba-line");
    plot.line(path.map(([s, r]) => [s, r.qwk]), "ba-line ba-alt");
    const accPoint = plot.point("accuracy"), qwkPoint = plot.point("qwk");
    plot.svg.querySelector('[data-point="accuracy"]').style.fill = "var(--ba-blue)";
    const legend = baEl("p", { class: "ba-caption" }, [
      baEl("span", { "aria-hidden": "true", style: "color:var(--ba-blue)" }, "— "), L("accuracy"), " · ",
      baEl("span", { "aria-hidden": "true", style: "color:var(--ba-red)" }, "— "), L("weighted_kappa")]);
    const summary = baSummary();
    root.append(
      baEl("div", { class: "ba-controls" }, [slider.root, shareCell]),
      baEl("div", { class: "ba-row" }, [table, metrics.root]),
      baEl("div", { class: "ba-plots" }, [plot.root]),
      legend,
      summary,
    );

    function update(i) {
      const s = shares[i];
      const r = baKappaScores(grading, s);
      shareCell.setAttribute("data-value", String(s));
      shareCell.textContent = pct(s);
      baShow(metrics.cells.accuracy, r.accuracy, 3, false, style);
      baShow(metrics.cells.qwk, r.qwk, 3, false, style);
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) baShow(cells[a][b], r.observed[a][b], 3, false, style);
      accPoint(s, r.accuracy);
      qwkPoint(s, r.qwk);
      summary.textContent = baTemplate(L("kappa_summary"),
        { share: pct(s), accuracy: baFmt(r.accuracy, 3, false, style), qwk: baFmt(r.qwk, 3, false, style) });
      plot.svg.setAttribute("aria-label", `${L("ord_paradox_title")}: ${summary.textContent}`);
      model.set("state", { share: s });
      model.save_changes();
    }
    update(start);
  },
};
