// Beyond Accuracy explorers: the component library. Plain ES2020, no dependencies, no imports and
// no exports: each explorer's bundle is this file followed by its own module (see _widget.py), so
// the same text runs on the static page (loader.js) and in Jupyter/Colab (anywidget).
// Every name defined here starts with "ba". No natural-language strings: words come from
// data.labels (the package's terms.csv), numbers are formatted from data.number_style.

const BA_SVG = "http://www.w3.org/2000/svg";

// A port of beyond_accuracy.fmt: `digits` decimals (ties to even, as Python's format does),
// optional percent, the language's decimal mark, grouping of the whole part and minus sign.
function baFmt(x, digits = 3, percent = false, style = null) {
  const s = style || { decimal: ".", group: ",", percent: "%", min_group: 4, minus: "-" };
  if (typeof x !== "number" || !Number.isFinite(x)) throw new Error("baFmt expects a finite number");
  const value = percent ? x * 100 : x;
  const a = Math.abs(value);
  let text = a.toFixed(digits);
  // toFixed rounds an exact tie up; Python rounds it to even. A tie is exact when the full
  // decimal expansion after `digits` is 5 followed by zeros.
  const long = a.toFixed(Math.min(100, digits + 40));
  const tail = long.slice(long.indexOf(".") + 1 + digits);
  if (/^50*$/.test(tail)) {
    const cut = long.slice(0, long.indexOf(".") + 1 + digits).replace(/\.$/, "");
    const last = Number(cut.replace(".", "").slice(-1));
    text = last % 2 === 0 ? cut : text;
  }
  const negative = value < 0 && /[1-9]/.test(text);
  let [whole, frac] = text.split(".");
  if (whole.length >= s.min_group) {
    const groups = [];
    while (whole) {
      groups.unshift(whole.slice(-3));
      whole = whole.slice(0, -3);
    }
    whole = groups.join(s.group);
  }
  let out = whole + (frac ? s.decimal + frac : "");
  if (negative) out = s.minus + out;
  return out + (percent ? s.percent : "");
}

// The label `key` of the exported data (a missing label is a bug of the export: say so loudly).
function baLabel(data, key) {
  const labels = (data && data.labels) || {};
  if (!(key in labels)) throw new Error(`explorer label missing: ${key}`);
  return labels[key];
}

// "{name} is {value}" templates of the labels table.
function baTemplate(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

// A count with its noun: the label `<key>_one` when n is 1, else `<key>_other` ("1 decision
// changed", "2 decisions changed"); {n} is `shown` (the formatted number), the rest from `values`.
// _widget.py's counted() chooses the same way.
function baCounted(L, key, n, shown, values = {}) {
  return baTemplate(L(`${key}_${n === 1 ? "one" : "other"}`), { ...values, n: shown ?? String(n) });
}

// .ba-metrics is a <dl>: JupyterLab and the classic notebook style every dl/dt/dd of an output
// (".jp-OutputArea-output dt {float: left; width: 20%}"), which squeezed the labels letter by letter;
// the doubled class outranks those rules.
// The widgets carry their own colours (text, background, the plots' marks) in both colour modes, so
// that no page or notebook theme paints them unreadable (WCAG AA: 4.5:1 for text, 3:1 for the
// marks; tests/browser/test_widget_colours.py measures every text node). Light unless the page says
// dark: pydata-sphinx-theme's html[data-theme=dark]; JupyterLab's and VS Code's dark themes (their
// --jp-*/--vscode-* variables and body classes; anywidget passes no theme of its own); where no page
// theme says either, the system's prefers-color-scheme (Colab's and classic Jupyter's dark modes).
const BA_PALETTE = `
.ba-explorer,.ba-quiz{--ba-fg:#1d2127;--ba-bg:#ffffff;--ba-muted:#5c6470;--ba-border:#8a929c;
 --ba-blue:#1f6fb4;--ba-red:#b8452e;--ba-right:#1a7f4b;--ba-wrong:#b3361f;--ba-code:rgba(110,118,129,0.14);
 color:var(--ba-fg);background:var(--ba-bg)}
@media (prefers-color-scheme:dark){
 html:not([data-theme=light]) body:not([data-jp-theme-light=true]):not(.vscode-light) :is(.ba-explorer,.ba-quiz){
 --ba-fg:#e3e7ec;--ba-bg:#1c2026;--ba-muted:#a9b1bb;--ba-border:#7d8590;--ba-blue:#6cb2f0;--ba-red:#f08c74;
 --ba-right:#4fcf8a;--ba-wrong:#ff8a70;--ba-code:rgba(160,170,182,0.18)}}
html[data-theme=dark] :is(.ba-explorer,.ba-quiz),body[data-jp-theme-light=false] :is(.ba-explorer,.ba-quiz),
body.vscode-dark :is(.ba-explorer,.ba-quiz),body.vscode-high-contrast:not(.vscode-high-contrast-light) :is(.ba-explorer,.ba-quiz){
 --ba-fg:#e3e7ec;--ba-bg:#1c2026;--ba-muted:#a9b1bb;--ba-border:#7d8590;--ba-blue:#6cb2f0;--ba-red:#f08c74;
 --ba-right:#4fcf8a;--ba-wrong:#ff8a70;--ba-code:rgba(160,170,182,0.18)}
.ba-explorer code,.ba-quiz code{color:inherit;background:var(--ba-code);border:0;padding:0.05em 0.25em;border-radius:3px}
`;

const BA_CSS = BA_PALETTE + `
.ba-explorer{font-size:0.95rem;line-height:1.4;margin:1rem 0;padding:0.75rem;border:1px solid var(--ba-border);
 border-radius:6px;max-width:100%;box-sizing:border-box;overflow-wrap:break-word;hyphens:auto}
.ba-explorer *{box-sizing:border-box}
.ba-controls{display:flex;flex-wrap:wrap;gap:0.5rem 1.25rem;margin-bottom:0.5rem}
.ba-control{display:flex;flex-direction:column;flex:1 1 14rem;min-width:0}
.ba-control label{font-weight:600}
.ba-control output{font-variant-numeric:tabular-nums}
.ba-control input[type=range]{width:100%;min-height:44px;margin:0;touch-action:manipulation}
.ba-control select{min-height:44px;max-width:100%}
.ba-row{display:flex;flex-wrap:wrap;gap:0.75rem;align-items:flex-start}
.ba-row>*{flex:1 1 15rem;min-width:0}
.ba-matrix-wrap{max-width:100%;overflow-x:auto}
.ba-matrix{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.25rem 0}
.ba-matrix th,.ba-matrix td{border:1px solid var(--ba-border);padding:0.25rem 0.5rem;text-align:center}
.ba-matrix th{font-weight:600;background:rgba(128,128,128,0.08)}
.ba-matrix td.ba-ok{background:rgba(0,120,80,0.12)}
.ba-matrix td.ba-bad{background:rgba(200,60,40,0.12)}
.ba-metrics.ba-metrics{display:grid;grid-template-columns:minmax(min-content,auto) auto;gap:0.1rem 0.75rem;
 margin:0.25rem 0;padding:0;width:auto;overflow:visible}
.ba-metrics.ba-metrics>dt,.ba-metrics.ba-metrics>dd{display:block;float:none;width:auto;margin:0;padding:0}
.ba-metrics.ba-metrics>dt{font-weight:400}
.ba-metrics.ba-metrics>dd{text-align:right;font-variant-numeric:tabular-nums;font-weight:600}
.ba-plots{display:flex;flex-wrap:wrap;gap:0.75rem}
.ba-plot{flex:1 1 14rem;min-width:0;max-width:22rem}
.ba-plot svg{width:100%;height:auto;display:block;overflow:visible}
.ba-plot .ba-axis{stroke:currentColor;stroke-width:1;fill:none}
.ba-plot .ba-grid{stroke:rgba(128,128,128,0.25);stroke-width:1}
.ba-plot .ba-line{fill:none;stroke:var(--ba-blue);stroke-width:2}
.ba-plot .ba-line.ba-alt{stroke:var(--ba-red)}
.ba-plot .ba-ref{fill:none;stroke:var(--ba-muted);stroke-width:1;stroke-dasharray:4 3}
.ba-plot .ba-point{fill:var(--ba-red);stroke:var(--ba-bg);stroke-width:1.5}
.ba-plot text{fill:currentColor;font-size:11px}
.ba-plot .ba-axis-label{font-size:0.85rem;line-height:1.25;margin:0}
.ba-plot .ba-axis-label.ba-x{text-align:center}
.ba-summary{margin:0.5rem 0 0;font-size:0.9rem}
@media (max-width:480px){.ba-explorer{padding:0.5rem}
 .ba-matrix th,.ba-matrix td{padding:0.2rem 0.3rem}}
.ba-matrix.ba-tight{font-size:0.68rem}.ba-matrix.ba-tight th,.ba-matrix.ba-tight td{padding:0.1rem 0.15rem}
.ba-matrix.ba-break th{overflow-wrap:anywhere}
.ba-caption{font-size:0.85rem;margin:0.1rem 0}
`;

// Inject the explorers' styles once per document (works on the static page and in Jupyter).
function baStyles(doc = document) {
  if (doc.getElementById("ba-styles")) return;
  const style = doc.createElement("style");
  style.id = "ba-styles";
  style.textContent = BA_CSS;
  doc.head.appendChild(style);
}

// A DOM element: baEl("div", {class: "x", "data-metric": "tp"}, [child, "text"]).
function baEl(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of [].concat(children)) node.append(c);
  return node;
}

let baCounter = 0;
function baId(prefix) {
  baCounter += 1;
  return `ba-${prefix}-${baCounter}-${Math.random().toString(36).slice(2, 7)}`;
}

// The root of an explorer: class ba-explorer, the page language, a heading-less region.
function baRoot(el, model, kind = "ba-explorer") {
  baStyles(el.ownerDocument || document);
  const root = baEl("div", { class: kind, lang: model.get("lang") || "en" });
  el.appendChild(root);
  return root;
}

// What every explorer starts from: its exported data, the page's number style, its labels and its
// root element.
function baStart(el, model, kind = "ba-explorer") {
  const data = model.get("data");
  return { data, style: data.number_style, L: (key) => baLabel(data, key), root: baRoot(el, model, kind) };
}

// A labelled range slider; onInput(value) runs on every input event (drag, keys, touch).
function baSlider({ control, label, min, max, step, value, format, onInput }) {
  const id = baId(control);
  const input = baEl("input", { type: "range", id, min, max, step, value, "data-control": control });
  const out = baEl("output", { for: id });
  const show = () => {
    const v = Number(input.value);
    out.textContent = format ? format(v) : String(v);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  input.addEventListener("input", () => {
    show();
    onInput(Number(input.value));
  });
  show();
  const head = baEl("div", {}, [baEl("label", { for: id }, label), " ", out]);
  const root = baEl("div", { class: "ba-control" }, [head, input]);
  return { root, input, output: out, set: (v) => { input.value = v; show(); } };
}

// A labelled <select>; options are [value, text] pairs.
function baSelect({ control, label, options, value, onInput }) {
  const id = baId(control);
  const select = baEl("select", { id, "data-control": control },
    options.map(([v, t]) => baEl("option", { value: v, selected: v === value }, t)));
  select.addEventListener("input", () => onInput(select.value));
  const root = baEl("div", { class: "ba-control" }, [baEl("label", { for: id }, label), select]);
  return { root, select };
}

// An element showing one number: data-metric, data-value (raw) and the formatted text.
function baNumber(name, tag = "span") {
  return baEl(tag, { "data-metric": name, "data-value": "" });
}
function baShow(node, value, digits, percent, style) {
  node.setAttribute("data-value", String(value));
  node.textContent = baFmt(value, digits, percent, style);
}

// A list of metrics: rows [name, label]; returns {root, cells: {name: dd}}.
function baMetricList(rows) {
  const cells = {};
  const root = baEl("dl", { class: "ba-metrics" });
  for (const [name, label] of rows) {
    cells[name] = baNumber(name, "dd");
    root.append(baEl("dt", {}, label), cells[name]);
  }
  return { root, cells };
}

// The 2×2 confusion matrix in the book's orientation: rows actual (positive first), columns
// predicted. texts: {actual, predicted, pos, neg, caption}. Returns {root, cells: {tp, fp, fn, tn}}.
function baMatrix(texts) {
  const cells = { tp: baNumber("tp", "td"), fn: baNumber("fn", "td"), fp: baNumber("fp", "td"),
    tn: baNumber("tn", "td") };
  cells.tp.className = "ba-ok";
  cells.tn.className = "ba-ok";
  cells.fp.className = "ba-bad";
  cells.fn.className = "ba-bad";
  const th = (t, attrs = {}) => baEl("th", attrs, t);
  const table = baEl("table", { class: "ba-matrix" }, [
    texts.caption ? baEl("caption", { class: "ba-caption" }, texts.caption) : "",
    baEl("thead", {}, [
      baEl("tr", {}, [baEl("td", { "aria-hidden": "true" }), th(texts.predicted, { colspan: 2, scope: "colgroup" })]),
      baEl("tr", {}, [th(texts.actual, { scope: "col" }), th(texts.pos, { scope: "col" }), th(texts.neg, { scope: "col" })]),
    ]),
    baEl("tbody", {}, [
      baEl("tr", {}, [th(texts.pos, { scope: "row" }), cells.tp, cells.fn]),
      baEl("tr", {}, [th(texts.neg, { scope: "row" }), cells.fp, cells.tn]),
    ]),
  ]);
  const wrap = baEl("div", { class: "ba-matrix-wrap" }, [table]);
  // long class names (Finnish) on a phone: a smaller font rather than a scrolling table
  const fit = () => {
    table.classList.remove("ba-tight", "ba-break");
    for (const cls of ["ba-tight", "ba-break"]) {
      if (wrap.clientWidth && table.scrollWidth > wrap.clientWidth + 1) table.classList.add(cls);
    }
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(fit).observe(wrap);
  return { root: wrap, table, cells };
}

// The screen-reader summary, rewritten on every change.
function baSummary() {
  return baEl("p", { class: "ba-summary", "aria-live": "polite" });
}

// A small SVG plot on [x0, x1] × [y0, y1]. opts: {xLabel, yLabel, label (aria-label), x, y,
// ticks, fmt, xLog (a logarithmic x axis, ticks at the powers of ten), yFmt}.
// Returns {root, svg, line(points, cls), point(name), vline(cls), sx, sy}.
function baPlot(opts) {
  const W = 260, H = 200, L = 34, R = 10, T = 8, B = 20;
  const [x0, x1] = opts.x || [0, 1];
  const [y0, y1] = opts.y || [0, 1];
  const lx = opts.xLog ? Math.log10 : (x) => x;
  const sx = (x) => L + ((lx(x) - lx(x0)) / (lx(x1) - lx(x0))) * (W - L - R);
  const sy = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  const svg = document.createElementNS(BA_SVG, "svg");
  const s = (tag, attrs, parent = svg) => {
    const n = document.createElementNS(BA_SVG, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    parent.appendChild(n);
    return n;
  };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", opts.label);
  const ticks = opts.ticks || 5;
  const f = opts.fmt || ((v) => String(v));
  const fy = opts.yFmt || f;
  const xticks = [];
  if (opts.xLog) {
    for (let e = Math.ceil(Math.log10(x0) - 1e-9); e <= Math.log10(x1) + 1e-9; e++) xticks.push(10 ** e);
  } else {
    for (let i = 0; i <= ticks; i++) xticks.push(x0 + ((x1 - x0) * i) / ticks);
  }
  for (const xv of xticks) {
    s("line", { class: "ba-grid", x1: sx(xv), x2: sx(xv), y1: sy(y0), y2: sy(y1) });
    s("text", { x: sx(xv), y: sy(y0) + 13, "text-anchor": "middle" }).textContent = f(xv);
  }
  for (let i = 0; i <= ticks; i++) {
    const yv = y0 + ((y1 - y0) * i) / ticks;
    s("line", { class: "ba-grid", x1: sx(x0), x2: sx(x1), y1: sy(yv), y2: sy(yv) });
    s("text", { x: sx(x0) - 4, y: sy(yv) + 4, "text-anchor": "end" }).textContent = fy(yv);
  }
  s("path", { class: "ba-axis", d: `M${sx(x0)},${sy(y1)}V${sy(y0)}H${sx(x1)}` });
  const layer = s("g", {});
  const top = s("g", {});
  const line = (points, cls = "ba-line", attrs = {}) => {
    const path = s("path", { class: cls, ...attrs }, layer);
    const set = (pts) => {
      path.setAttribute("d", pts.length
        ? "M" + pts.map(([x, y]) => `${sx(x).toFixed(2)},${sy(y).toFixed(2)}`).join("L") : "");
    };
    set(points);
    return { path, set };
  };
  const point = (name) => {
    const c = s("circle", { class: "ba-point", r: 5, "data-point": name, cx: sx(x0), cy: sy(y0) }, top);
    return (x, y) => {
      c.setAttribute("cx", sx(x).toFixed(2));
      c.setAttribute("cy", sy(y).toFixed(2));
      c.setAttribute("data-x", String(x));
      c.setAttribute("data-y", String(y));
    };
  };
  // a vertical line at x (e.g. a threshold); returns its setter
  const vline = (cls = "ba-ref", name = null) => {
    const l = s("line", { class: cls, x1: sx(x0), x2: sx(x0), y1: sy(y0), y2: sy(y1) }, layer);
    if (name) l.setAttribute("data-line", name);
    return (x) => {
      l.setAttribute("x1", sx(x).toFixed(2));
      l.setAttribute("x2", sx(x).toFixed(2));
      l.setAttribute("data-x", String(x));
    };
  };
  // axis labels as text around the drawing, so that long (Finnish) labels wrap on a phone
  const root = baEl("figure", { class: "ba-plot" }, [
    baEl("p", { class: "ba-axis-label ba-y", "aria-hidden": "true" }, "↑ " + opts.yLabel), svg,
    baEl("p", { class: "ba-axis-label ba-x", "aria-hidden": "true" }, opts.xLabel + " →")]);
  root.style.margin = "0";
  return { root, svg, line, point, vline, sx, sy };
}

// --- computations shared by explorers (counts at a threshold, metrics from counts) ------------

// Counts when flagging score >= t (the convention of sklearn's roc_curve and the book).
function baCounts(y, scores, t) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (let i = 0; i < y.length; i++) {
    const flagged = scores[i] >= t;
    if (y[i] === 1) flagged ? tp++ : fn++;
    else flagged ? fp++ : tn++;
  }
  return { tp, fp, fn, tn };
}

// Precision, recall, F-beta, MCC… from counts; undefined ratios are 0 (sklearn's zero_division=0,
// and MCC 0 when a margin is empty, as sklearn's matthews_corrcoef).
function baRates({ tp, fp, fn, tn }) {
  const div = (a, b) => (b > 0 ? a / b : 0);
  const fbeta = (b) => div((1 + b * b) * tp, (1 + b * b) * tp + b * b * fn + fp);
  const den = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  const m = tp + fp + fn + tn;
  return {
    precision: div(tp, tp + fp),
    recall: div(tp, tp + fn),
    tpr: div(tp, tp + fn),
    fpr: div(fp, fp + tn),
    specificity: div(tn, tn + fp),
    npv: div(tn, tn + fn),
    accuracy: div(tp + tn, m),
    f1: fbeta(1),
    f2: fbeta(2),
    mcc: den > 0 ? (tp * tn - fp * fn) / den : 0,
  };
}

// The ROC and PR curves of scores: one point per distinct score (flag score >= s), from the
// strictest (nothing flagged) to the most lenient (everything flagged).
function baCurves(y, scores) {
  const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a]);
  const P = y.reduce((a, v) => a + (v === 1 ? 1 : 0), 0), N = y.length - P;
  const roc = [[0, 0]], pr = [];
  let tp = 0, fp = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (y[i] === 1) tp++; else fp++;
    if (k + 1 < order.length && scores[order[k + 1]] === scores[i]) continue;
    roc.push([N ? fp / N : 0, P ? tp / P : 0]);
    pr.push([P ? tp / P : 0, tp / (tp + fp)]);
  }
  if (pr.length) pr.unshift([0, pr[0][1]]);
  return { roc, pr, P, N };
}
