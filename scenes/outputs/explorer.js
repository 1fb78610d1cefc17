// The lecture page's explorable: drag a token's 2-D embedding and watch attention respond.
//
// Everything is computed here, in the same order of operations as attention_core
// (Q = X W_q + b_q, RoPE turns Q and K by position, scores = Q Kᵀ, ÷ √d_k, mask → −∞, stable
// softmax, output = weights V),
// from the data the page embeds (#explorer-data, written by scenes/outputs/lecture_page.py).
// No network, no eval, no innerHTML: labels only ever reach the page as text.
//
// API (for tests and for embedding the page); a bad argument throws an Error whose message
// names the call and the fix, and leaves the state as it was:
//   window.attnExplorer.set({embeddings})  new embeddings (n rows of 2 numbers, |x| ≤ the limit)
//   window.attnExplorer.state()            {embeddings, scores, weights, output, query}
//   window.attnExplorer.toml()             the example with the current embeddings, as TOML
//   window.attnExplorer.choose(i)          build token i's output tip to tail (0 ≤ i < n, whole)
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var SIZE = 360; // the plane's side in SVG units
  var MARGIN = 30;
  var source = document.getElementById("explorer-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var root = document.getElementById("explorer");
  var words = data.words;
  var n = data.tokens.length;
  var now = { embeddings: copy(data.embeddings), query: data.query, view: null };

  // -- numbers ------------------------------------------------------------------------------
  function copy(m) {
    return m.map(function (row) { return row.slice(); });
  }

  function matmul(A, W, b) { // rows of A times W, plus the bias b (or nothing)
    return A.map(function (row) {
      return W[0].map(function (_, c) {
        var s = 0;
        for (var r = 0; r < row.length; r++) s += row[r] * W[r][c];
        return b ? s + b[c] : s;
      });
    });
  }

  function dot(a, b) {
    var s = 0;
    for (var c = 0; c < a.length; c++) s += a[c] * b[c];
    return s;
  }

  function softmax(row) { // −Infinity (blocked) gets exactly 0; the largest entry becomes e^0
    var peak = Math.max.apply(null, row);
    var e = row.map(function (x) { return Math.exp(x - peak); });
    var total = e.reduce(function (s, x) { return s + x; }, 0);
    return e.map(function (x) { return x / total; });
  }

  // RoPE (attention_core/rotary.py): pair c of a row is dimensions (c, c + d/2), turned by
  // position × ω_c, ω_c = base^(−2c/d); x·cos + rotate_half(x)·sin, rotate_half(x) = (−x₂, x₁)
  function rotate(M) {
    if (data.rotary_base === null) return M;
    var half = M[0].length / 2;
    return M.map(function (row, r) {
      var out = row.slice();
      for (var c = 0; c < half; c++) {
        var angle = data.positions[r] * Math.pow(data.rotary_base, -(2 * c) / (2 * half));
        var cos = Math.cos(angle), sin = Math.sin(angle);
        out[c] = row[c] * cos + -row[c + half] * sin;
        out[c + half] = row[c + half] * cos + row[c] * sin;
      }
      return out;
    });
  }

  function compute(E) {
    var X = data.pe ? E.map(function (row, i) {
      return row.map(function (x, c) { return x + data.pe[i][c]; });
    }) : E;
    var Q = rotate(matmul(X, data.W_q, data.b_q));
    var K = rotate(matmul(X, data.W_k, data.b_k));
    var V = matmul(X, data.W_v, data.b_v);
    var dk = Q[0].length;
    var factor = data.scale ? 1 / Math.sqrt(dk) : 1;
    var scores = Q.map(function (q) { return K.map(function (k) { return dot(q, k); }); });
    var masked = scores.map(function (row, i) {
      return row.map(function (s, j) {
        return data.mask && !data.mask[i][j] ? -Infinity : s * factor;
      });
    });
    var weights = masked.map(softmax);
    var output = weights.map(function (w) {
      return V[0].map(function (_, c) {
        var s = 0;
        for (var j = 0; j < V.length; j++) s += w[j] * V[j][c];
        return s;
      });
    });
    return { X: X, Q: Q, K: K, V: V, dk: dk, factor: factor, scores: scores,
             weights: weights, output: output };
  }

  // one number for people, as scenes/mobjects/numfmt.py writes it
  function fmt(x, digits) {
    if (digits === undefined) digits = 3;
    if (x === Infinity) return "∞";
    if (x === -Infinity) return "−∞";
    if (x === 0) x = 0; // no "-0.000"
    if (Math.abs(x) >= 1e5) {
      var parts = x.toExponential(digits).split("e");
      var exp = parseInt(parts[1], 10);
      var sign = exp < 0 ? "-" : "+";
      var mag = String(Math.abs(exp));
      return parts[0] + "e" + sign + (mag.length < 2 ? "0" + mag : mag);
    }
    var s = x.toFixed(digits);
    return /^-0\.0*$/.test(s) ? s.slice(1) : s;
  }

  function vec(v) {
    return "(" + v.map(function (x) { return fmt(x); }).join(", ") + ")";
  }

  // -- colours (the videos' light theme and their scales) ------------------------------------
  function ramp(stops, t) {
    t = Math.min(1, Math.max(0, t));
    var x = t * (stops.length - 1);
    var k = Math.min(Math.floor(x), stops.length - 2);
    var rgb = stops[k].map(function (c, m) { return c + (stops[k + 1][m] - c) * (x - k); });
    return "rgb(" + rgb.map(function (c) { return Math.round(c * 255); }).join(",") + ")";
  }

  function luminance(rgbText) {
    var rgb = rgbText.match(/\d+/g).map(function (c) {
      c = c / 255;
      return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  }

  function textOn(fill) { // black or white, whichever contrasts more (theme.text_on)
    var l = luminance(fill);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff";
  }

  var heat = function (w) { return ramp(data.colors.heat, w); };
  var token = function (i) { return data.colors.tokens[i % data.colors.tokens.length]; };

  function scoreLimit(values) { // theme.score_limit: 1, 2 or 5 × 10^k above the largest |score|
    var top = 0;
    values.forEach(function (row) { row.forEach(function (v) { top = Math.max(top, Math.abs(v)); }); });
    if (!(top > 0) || !isFinite(top)) return 1;
    var power = Math.pow(10, Math.floor(Math.log10(top)));
    var steps = [1, 2, 5, 10];
    for (var k = 0; k < steps.length; k++) {
      if (steps[k] * power >= top - 1e-12 * top) return steps[k] * power;
    }
    return 10 * power;
  }

  // -- DOM helpers ---------------------------------------------------------------------------
  function el(tag, attrs, text) {
    var node = tag.indexOf("svg:") === 0 ?
      document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function named(letter, label, color) { // e.g. k(早): the letter set as math, the label as text
    var span = el("span", color ? { style: "color:" + color } : {});
    span.appendChild(el("i", { "class": "m" }, letter));
    if (label !== undefined) span.appendChild(document.createTextNode("(" + label + ")"));
    return span;
  }

  function cell(tag, child, attrs) {
    var node = el(tag, attrs || {});
    node.appendChild(child);
    return node;
  }

  function num(value, role, digits) { // a number on screen, tagged with where it comes from
    return el("span", { "class": "num", "data-role": role }, fmt(value, digits));
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // -- the plane ------------------------------------------------------------------------------
  function niceStep(span) {
    var raw = span / 5;
    var power = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = [1, 2, 5, 10].find(function (f) { return f * power >= raw; });
    return m * power;
  }

  function fitView(points) {
    var lo = [0, 0], hi = [0, 0];
    points.forEach(function (p) {
      for (var c = 0; c < 2; c++) {
        lo[c] = Math.min(lo[c], p[c]);
        hi[c] = Math.max(hi[c], p[c]);
      }
    });
    var span = Math.max(hi[0] - lo[0], hi[1] - lo[1], 1e-9) * 1.25;
    var step = niceStep(span);
    var centre = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2];
    var half = Math.ceil(span / 2 / step) * step;
    return {
      x0: Math.floor((centre[0] - half) / step) * step,
      y0: Math.floor((centre[1] - half) / step) * step,
      span: 2 * half + step,
      step: step,
    };
  }

  function toPlane(p) {
    var v = now.view, scale = (SIZE - 2 * MARGIN) / v.span;
    return [MARGIN + (p[0] - v.x0) * scale, SIZE - MARGIN - (p[1] - v.y0) * scale];
  }

  function fromPlane(x, y) {
    var v = now.view, scale = (SIZE - 2 * MARGIN) / v.span;
    return [(x - MARGIN) / scale + v.x0, (SIZE - MARGIN - y) / scale + v.y0];
  }

  function inView(p) {
    var v = now.view;
    return p[0] >= v.x0 && p[0] <= v.x0 + v.span && p[1] >= v.y0 && p[1] <= v.y0 + v.span;
  }

  function arrow(group, from, to, color, width, dashed) {
    var a = toPlane(from), b = toPlane(to);
    var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy);
    if (len < 1e-6) return;
    var head = Math.min(12, len * 0.4), ux = dx / len, uy = dy / len;
    var base = [b[0] - ux * head, b[1] - uy * head];
    var line = { x1: a[0], y1: a[1], x2: base[0], y2: base[1], stroke: color,
                 "stroke-width": width, "stroke-linecap": "round" };
    if (dashed) line["stroke-dasharray"] = "5 4";
    group.appendChild(el("svg:line", line));
    var w = head * 0.45;
    var tip = [b, [base[0] - uy * w, base[1] + ux * w], [base[0] + uy * w, base[1] - ux * w]];
    group.appendChild(el("svg:polygon", {
      points: tip.map(function (p) { return p[0] + "," + p[1]; }).join(" "), fill: color,
    }));
  }

  function beyond(p, px) { // a point px further out than p, along its direction
    var a = toPlane([0, 0]), b = toPlane(p), len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len < 1e-6) return [b[0], b[1] - px];
    return [b[0] + (b[0] - a[0]) / len * px, b[1] + (b[1] - a[1]) / len * px];
  }

  function takenSpots() { // where the handles and the token labels are
    var out = [];
    now.embeddings.forEach(function (e) { out.push(toPlane(e), beyond(e, 20)); });
    return out;
  }

  function clearSpot(p, px, taken) { // of 12 spots around p, the one farthest from the others
    var b = toPlane(p), best = null, room = -1;
    for (var k = 0; k < 12; k++) {
      var t = 2 * Math.PI * k / 12;
      var spot = [b[0] + 1.4 * px * Math.cos(t), b[1] + px * Math.sin(t)];
      var near = Math.min.apply(null, taken.map(function (q) {
        return Math.hypot(q[0] - spot[0], q[1] - spot[1]);
      }).concat([1e9]));
      if (near > room + 1e-9) { best = spot; room = near; }
    }
    return best;
  }

  function drawGrid(svg) {
    var v = now.view, g = el("svg:g", { "class": "grid" });
    var first = Math.ceil(v.x0 / v.step), last = Math.floor((v.x0 + v.span) / v.step);
    for (var k = first; k <= last; k++) {
      var x = toPlane([k * v.step, v.y0])[0];
      g.appendChild(el("svg:line", { x1: x, y1: MARGIN, x2: x, y2: SIZE - MARGIN,
                                     "class": k === 0 ? "axis" : "line" }));
      g.appendChild(el("svg:text", { x: x, y: SIZE - MARGIN + 16, "class": "tick",
                                     "text-anchor": "middle" }, fmt(k * v.step, tickDigits())));
    }
    first = Math.ceil(v.y0 / v.step);
    last = Math.floor((v.y0 + v.span) / v.step);
    for (k = first; k <= last; k++) {
      var y = toPlane([v.x0, k * v.step])[1];
      g.appendChild(el("svg:line", { x1: MARGIN, y1: y, x2: SIZE - MARGIN, y2: y,
                                     "class": k === 0 ? "axis" : "line" }));
      g.appendChild(el("svg:text", { x: MARGIN - 4, y: y + 4, "class": "tick",
                                     "text-anchor": "end" }, fmt(k * v.step, tickDigits())));
    }
    svg.appendChild(g);
  }

  function tickDigits() {
    var s = now.view.step;
    return s >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(s)));
  }

  function drawChain(svg, r) {
    if (r.V[0].length !== 2) return; // the output lives in the plane only when d_v = 2
    var i = now.query, g = el("svg:g", { "class": "chain" });
    var start = [0, 0];
    r.V.forEach(function (v, j) {
      var part = [r.weights[i][j] * v[0], r.weights[i][j] * v[1]];
      var end = [start[0] + part[0], start[1] + part[1]];
      arrow(g, start, end, token(j), 2.5, true);
      start = end;
    });
    arrow(g, [0, 0], r.output[i], data.colors.output, 3.5, false);
    var at = clearSpot(r.output[i], 28, takenSpots());
    g.appendChild(el("svg:text", { x: at[0], y: at[1] + 5, "class": "vlabel",
                                   "text-anchor": "middle", fill: data.colors.output },
                     "o(" + data.tokens[i] + ")"));
    svg.appendChild(g);
  }

  function drawTokens(svg) {
    now.embeddings.forEach(function (e, i) {
      var g = el("svg:g", { "class": "token" });
      arrow(g, [0, 0], e, token(i), 3, false);
      var p = toPlane(e);
      var handle = el("svg:g", {
        "class": "handle", tabindex: "0", role: "slider", "data-token": String(i),
        "aria-label": data.tokens[i] + " " + vec(e) + ": " + words.keys_hint,
      });
      handle.appendChild(el("svg:circle", { cx: p[0], cy: p[1], r: hitRadius(svg),
                                            fill: "transparent", "class": "hit" }));
      handle.appendChild(el("svg:circle", { cx: p[0], cy: p[1], r: 9, fill: token(i),
                                            "class": "dot" }));
      handle.addEventListener("pointerdown", startDrag);
      handle.addEventListener("keydown", keyMove);
      handle.addEventListener("focus", function () { choose(i); });
      g.appendChild(handle);
      var at = beyond(e, 20);
      g.appendChild(el("svg:text", { x: at[0], y: at[1] + 5, "class": "vlabel",
                                     "text-anchor": "middle", fill: token(i) }, data.tokens[i]));
      svg.appendChild(g);
    });
  }

  function hitRadius(svg) { // a pointer target ≥ 26 px across however wide the plane is drawn
    var px = svg.getBoundingClientRect().width;
    return px > 0 ? Math.max(14, 13 * SIZE / px) : 14;
  }

  function drawPlane(r) {
    var svg = clear(document.getElementById("ex-plane"));
    drawGrid(svg);
    drawChain(svg, r);
    drawTokens(svg);
  }

  // -- the panels ----------------------------------------------------------------------------
  function vectorsTable(r) {
    var table = el("table", { "class": "ex-vectors" });
    var head = el("tr");
    head.appendChild(el("th"));
    ["x", "q", "k", "v"].forEach(function (h) { head.appendChild(cell("th", named(h))); });
    table.appendChild(head);
    var rows = { x: now.embeddings, q: r.Q, k: r.K, v: r.V };
    data.tokens.forEach(function (t, i) {
      var tr = el("tr");
      tr.appendChild(el("th", { style: "color:" + token(i) }, t));
      ["x", "q", "k", "v"].forEach(function (name) {
        var td = el("td");
        td.appendChild(document.createTextNode("("));
        rows[name][i].forEach(function (value, c) {
          if (c) td.appendChild(document.createTextNode(", "));
          td.appendChild(num(value, name + "." + i + "." + c));
        });
        td.appendChild(document.createTextNode(")"));
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    return table;
  }

  function matrixTable(r, kind, values) {
    var table = el("table", { "class": "ex-matrix ex-" + kind });
    var head = el("tr");
    head.appendChild(el("th"));
    data.tokens.forEach(function (t, j) { head.appendChild(cell("th", named("k", t, token(j)))); });
    table.appendChild(head);
    var limit = scoreLimit(r.scores);
    values.forEach(function (row, i) {
      var tr = el("tr", { "class": i === now.query ? "chosen" : "" });
      tr.appendChild(cell("th", named("q", data.tokens[i], token(i))));
      row.forEach(function (value, j) {
        var blocked = data.mask && !data.mask[i][j];
        var fill = kind === "weights" ? heat(value) : ramp(data.colors.diverging,
                                                           0.5 + 0.5 * value / limit);
        var td = el("td", { "class": blocked ? "blocked" : "",
                            style: blocked ? "" : "background:" + fill + ";color:" + textOn(fill) });
        td.appendChild(num(value, kind + "." + i + "." + j));
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    return table;
  }

  function bars(r) {
    var i = now.query, box = el("div", { "class": "ex-bars" });
    box.appendChild(el("p", { "class": "ex-label" },
                       words.shares.replace("{q}", data.tokens[i])));
    r.weights[i].forEach(function (w, j) {
      var row = el("div", { "class": "bar-row" });
      row.appendChild(el("span", { "class": "bar-name", style: "color:" + token(j) },
                         data.tokens[j]));
      var track = el("span", { "class": "bar-track" });
      track.appendChild(el("span", { "class": "bar", style: "width:" + (100 * w) + "%;" +
                                     "background:" + heat(w) }));
      row.appendChild(track);
      row.appendChild(num(w, "bar." + i + "." + j));
      box.appendChild(row);
    });
    var scale = el("div", { "class": "heat-scale" });
    scale.appendChild(el("span", {}, "0"));
    scale.appendChild(el("span", { "class": "heat-bar", style: "background:linear-gradient(" +
      "to right," + data.colors.heat.map(function (_, k, all) {
        return ramp(data.colors.heat, k / (all.length - 1));
      }).join(",") + ")" }));
    scale.appendChild(el("span", {}, "1"));
    box.appendChild(scale);
    return box;
  }

  function outputLine(r) {
    var i = now.query, p = el("p", { "class": "ex-output" });
    p.appendChild(named("o", data.tokens[i]));
    p.appendChild(document.createTextNode(" = "));
    r.weights[i].forEach(function (w, j) {
      if (j) p.appendChild(document.createTextNode(" + "));
      p.appendChild(num(w, "chain." + i + "." + j));
      p.appendChild(document.createTextNode(" "));
      p.appendChild(named("v", data.tokens[j], token(j)));
    });
    p.appendChild(document.createTextNode(" = ("));
    r.output[i].forEach(function (value, c) {
      if (c) p.appendChild(document.createTextNode(", "));
      p.appendChild(num(value, "output." + i + "." + c));
    });
    p.appendChild(document.createTextNode(")"));
    return p;
  }

  function drawPanels(r) {
    var side = clear(document.getElementById("ex-side"));
    side.appendChild(el("h3", {}, data.rotary_base === null ? words.vectors :
                                  words.vectors_rotary));
    side.appendChild(vectorsTable(r));
    side.appendChild(el("h3", {}, words.scores.replace("{f}", data.scale ?
      fmt(Math.sqrt(r.dk), 3) : "1")));
    side.appendChild(matrixTable(r, "scores", r.scores));
    side.appendChild(el("h3", {}, words.weights));
    side.appendChild(matrixTable(r, "weights", r.weights));
    side.appendChild(bars(r));
    side.appendChild(el("h3", {}, words.output));
    side.appendChild(outputLine(r));
  }

  // -- updating ------------------------------------------------------------------------------
  var last = null;

  function render(refit) {
    last = compute(now.embeddings);
    var points = now.embeddings.slice();
    if (last.V[0].length === 2) points = points.concat(last.output, chainPoints(last));
    if (refit || !now.view || !points.every(inView) || tooSmall(points)) {
      now.view = fitView(points);
    }
    var focused = document.activeElement && document.activeElement.dataset ?
      document.activeElement.dataset.token : undefined;
    drawPlane(last);
    drawPanels(last);
    if (focused !== undefined) { // keep the keyboard where it was
      var again = root.querySelector('.handle[data-token="' + focused + '"]');
      if (again) again.focus({ preventScroll: true });
    }
  }

  function chainPoints(r) {
    var i = now.query, start = [0, 0], out = [];
    r.V.forEach(function (v, j) {
      start = [start[0] + r.weights[i][j] * v[0], start[1] + r.weights[i][j] * v[1]];
      out.push(start);
    });
    return out;
  }

  function tooSmall(points) {
    var top = 0;
    points.forEach(function (p) {
      top = Math.max(top, Math.abs(p[0] - now.view.x0), Math.abs(p[1] - now.view.y0));
    });
    return top < now.view.span * 0.25;
  }

  function clamp(x) {
    return Math.max(-data.limit, Math.min(data.limit, x));
  }

  function moveTo(i, p, refit) {
    now.embeddings[i] = [clamp(p[0]), clamp(p[1])];
    render(refit);
  }

  function choose(i) {
    if (!Number.isInteger(i) || i < 0 || i >= n) {
      throw new Error("choose: " + shown(i) + " is not a token; give a whole number from 0 to " +
                      (n - 1));
    }
    if (i === now.query) return;
    now.query = i;
    render(false);
  }

  // -- pointer and keyboard ------------------------------------------------------------------
  function startDrag(event) {
    var handle = event.currentTarget, i = parseInt(handle.dataset.token, 10);
    var svg = document.getElementById("ex-plane");
    event.preventDefault();
    handle.focus({ preventScroll: true });
    choose(i);
    svg.setPointerCapture(event.pointerId);
    function move(e) {
      var m = svg.getScreenCTM().inverse();
      var pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m);
      moveTo(i, fromPlane(pt.x, pt.y), false);
    }
    function end(e) {
      move(e);
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", end);
      svg.removeEventListener("pointercancel", end);
      render(false);
    }
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }

  var KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

  function keyMove(event) {
    var dir = KEYS[event.key];
    if (!dir) return;
    event.preventDefault();
    var i = parseInt(event.currentTarget.dataset.token, 10);
    var step = now.view.step / (event.shiftKey ? 1 : 10);
    var e = now.embeddings[i];
    moveTo(i, [stepped(e[0] + dir[0] * step, e[0], step),
               stepped(e[1] + dir[1] * step, e[1], step)], false);
  }

  function decimals(x) { // the digits after the point in x's shortest text (1e-7: 7)
    var m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
    return m ? Math.max(0, (m[1] ? m[1].length : 0) - (m[2] ? parseInt(m[2], 10) : 0)) : 15;
  }

  // x = from ± step, written as a person would: 0.8 + 0.05 is 0.85, not 0.8500000000000001
  function stepped(x, from, step) {
    var places = Math.max(decimals(from), Math.ceil(-Math.log10(step) - 1e-9), 0);
    return places > 15 ? x : Number(x.toFixed(places));
  }

  // -- the example as TOML -------------------------------------------------------------------
  function tomlNumber(x) {
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return x.toFixed(1);
    return String(x); // the shortest text that reads back as the same double
  }

  function toml() {
    var rows = now.embeddings.map(function (row, i) {
      return "    [" + row.map(tomlNumber).join(", ") + "],  # " + data.token_comments[i];
    });
    return data.toml_head + "embeddings = [\n" + rows.join("\n") + "\n]\n" + data.toml_tail;
  }

  function copyAsExample() {
    var text = toml(), status = document.getElementById("ex-status");
    var area = document.getElementById("ex-toml");
    area.value = text;
    area.hidden = false;
    function done(ok) { status.textContent = ok ? words.copied : words.copy_failed; }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () {
        area.select();
        done(document.execCommand("copy"));
      });
    } else {
      area.select();
      done(document.execCommand("copy"));
    }
  }

  // -- the API -------------------------------------------------------------------------------
  function shown(x) { // an argument, in a message
    try {
      return typeof x === "string" ? JSON.stringify(x) : String(x);
    } catch (e) { // a symbol, or an object whose toString throws
      return typeof x;
    }
  }

  function noArguments(name, args) {
    if (args.length) throw new Error(name + ": takes no arguments; call " + name + "()");
  }

  function set(state) {
    if (arguments.length !== 1 || !state || typeof state !== "object" ||
        Object.keys(state).join() !== "embeddings") {
      throw new Error("set: expected one argument, {embeddings: [[x, y], …]} with " + n + " rows");
    }
    var E = state.embeddings;
    if (!Array.isArray(E) || E.length !== n || !E.every(function (row) {
      return Array.isArray(row) && row.length === 2 && row.every(function (x) {
        return typeof x === "number" && isFinite(x);
      });
    })) {
      throw new Error("embeddings: expected " + n + " rows of 2 finite numbers");
    }
    now.embeddings = E.map(function (row) { return row.map(clamp); });
    render(true);
    return api.state();
  }

  var api = {
    set: set,
    state: function () {
      noArguments("state", arguments);
      return { embeddings: copy(now.embeddings), scores: copy(last.scores),
               weights: copy(last.weights), output: copy(last.output), query: now.query };
    },
    toml: function () { noArguments("toml", arguments); return toml(); },
    choose: function (i) {
      if (arguments.length !== 1) {
        throw new Error("choose: expected one token index, e.g. choose(0)");
      }
      choose(i);
      return api.state();
    },
  };
  window.attnExplorer = api;

  document.getElementById("ex-reset").addEventListener("click", function () {
    now.embeddings = copy(data.embeddings);
    now.query = data.query;
    document.getElementById("ex-status").textContent = "";
    render(true);
  });
  document.getElementById("ex-copy").addEventListener("click", copyAsExample);
  window.addEventListener("resize", function () { render(false); }); // the handles' size
  render(true);
})();
