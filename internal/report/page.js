"use strict";
(function () {
  var startedAt = performance.now();
  var D = JSON.parse(document.getElementById("kokua-data").textContent);
  // The matrix: the HTML holds it for readers without scripts (in
  // <noscript>); with scripts, the page draws only the rows in view in
  // its scrolling box, and a few more on either side, between two
  // spacer rows as high as the rows not drawn, so that the scrollbars and
  // the sticky headers behave as if every row were there. What a cell
  // shows comes from the data and the simulator's state (the model);
  // the drawn rows are redrawn on scrolling, resizing, filtering and each
  // change of state.
  var table = document.getElementById("m");
  table.hidden = false;
  var body = table.tBodies[0];
  var scroller = document.getElementById("matrix-scroll");
  var sheet = document.styleSheets[0];
  var state = { loaded: {}, unattended: false };
  var marks = {};
  D.marks.forEach(function (m) { marks[m[0] + "," + m[1]] = m[2]; });
  var MARGIN = 6, CMARGIN = 4;

  // answer is the answer number for row r, column j in the simulator's
  // state: the toolset's own load, then the first loaded toolset (in the
  // agent's available order) whose build gates the tool.
  function answer(r, j, loaded, unattended) {
    var c = D.cells[D.rows[r].cells[j]];
    var u = unattended ? 1 : 0;
    var own = D.columns[j];
    if (c[2] >= 0) {
      if (!loaded[own]) return c[u];
    }
    var a = c[2] >= 0 ? c[2 + u] : c[u];
    for (var k = 4; k < c.length; k += 3) {
      if (loaded[c[k]]) return c[k + 1 + u];
    }
    return a;
  }

  // lookup answers for names, for tests and the decision tester: agent,
  // tool as toolset.tool, loaded toolset names, unattended.
  function lookup(agent, tool, loadedNames, unattended) {
    var r = -1, j = -1, i;
    for (i = 0; i < D.rows.length; i++) if (D.rows[i].agent === agent) r = i;
    for (i = 0; i < D.tools.length; i++) if (D.toolsets[D.columns[i]] + "." + D.tools[i] === tool) j = i;
    if (r < 0 || j < 0) return null;
    var loaded = {};
    loadedNames.forEach(function (n) { var t = D.toolsets.indexOf(n); if (t >= 0) loaded[t] = true; });
    var a = D.answers[answer(r, j, loaded, unattended)];
    return { decision: D.decisions[a[0]], reason: D.reasons[a[1]] };
  }

  function decision(r, j) { return D.answers[answer(r, j, state.loaded, state.unattended)][0]; }

  // cellLook is a cell's class and text in the simulator's state.
  function cellLook(r, j) {
    var d = decision(r, j);
    var cls = D.classes[d], text = D.letters[d];
    var mk = marks[r + "," + j];
    if (mk === 1) { cls = (cls + " w").trim(); text += "+"; }
    if (mk === -1) { cls = (cls + " n").trim(); text += "\u2212"; }
    return [cls, text];
  }

  // The view: the rows the filters show, in order (view[p] is a row of
  // the data, at[r] its place in the view or -1), the hidden columns,
  // and the columns shown, in order (cols[k] is a column of the data,
  // colAt[j] its place or -1).
  var view = [], at = [], hide = {}, cols = [], colAt = [];
  // The drawn rows: drawn[r] is row r's element; they are the view's
  // places from to to (not included). Each drawn row holds its header,
  // a spacer cell spanning the columns before cfrom, the cells of the
  // places cfrom to cto of cols, and a spacer spanning the rest.
  var drawn = {}, from = 0, to = 0, cfrom = 0, cto = 0;
  // The cell in the tab order and the cell whose reason is open.
  var focusR = -1, focusJ = -1, selR = -1, selJ = -1;

  function pad() {
    var tr = document.createElement("tr"), td = document.createElement("td");
    tr.className = "pad";
    tr.setAttribute("aria-hidden", "true");
    tr.appendChild(td);
    body.appendChild(tr);
    return tr;
  }
  function gap(span) {
    var td = document.createElement("td");
    td.className = "gap";
    td.setAttribute("aria-hidden", "true");
    td.hidden = span <= 0;
    td.colSpan = Math.max(span, 1);
    return td;
  }
  var padTop = pad(), padBottom = pad();
  function setPad(tr, h) {
    tr.hidden = h <= 0;
    tr.cells[0].style.height = h + "px";
  }

  function lookInto(td, r, j) {
    var look = cellLook(r, j), cls = look[0];
    if (r === selR && j === selJ) cls += " sel";
    td.className = cls.trim();
    if (td.textContent !== look[1]) td.textContent = look[1];
    td.tabIndex = r === focusR && j === focusJ ? 0 : -1;
    td.setAttribute("aria-colindex", colAt[j] + 2);
  }

  function buildRow(r, p) {
    var tr = document.createElement("tr"), th = document.createElement("th"), name = document.createElement("span");
    tr.id = "a-" + r;
    tr.setAttribute("data-row", r);
    tr.setAttribute("aria-rowindex", p + 3);
    th.scope = "row";
    name.textContent = D.rows[r].shown;
    th.appendChild(name);
    if (D.rows[r].marks) {
      var small = document.createElement("small");
      small.textContent = "(" + D.rows[r].marks + ")";
      th.appendChild(document.createTextNode(" "));
      th.appendChild(small);
    }
    tr.appendChild(th);
    tr.appendChild(gap(cfrom));
    for (var k = cfrom; k < cto; k++) {
      var td = document.createElement("td");
      lookInto(td, r, cols[k]);
      tr.appendChild(td);
    }
    tr.appendChild(gap(cols.length - cto));
    drawn[r] = tr;
    return tr;
  }

  function rowsOf(a, b) {
    var frag = document.createDocumentFragment();
    for (var p = a; p < b; p++) frag.appendChild(buildRow(view[p], p));
    return frag;
  }

  // The page's script asks for no layout before the first frame (a
  // layout of the whole page is its largest cost): rows are as high as
  // the style sheet makes them (ROW pixels), columns COL pixels wide, and
  // the first drawing assumes the box at its top. Once laid out, the page
  // checks a drawn row's height, once, and follows it; and it finds the
  // columns in view where the page's layout puts them, since columns are
  // as wide as their widest cell or group header (a toolset of one tool
  // under a long name), at every window width and zoom.
  var ROW = 24, rowH = ROW, COL = 26, checked = false, laidOut = false;
  var heads = table.tHead.rows[1].cells;
  function measure() {
    if (checked || from >= to) return;
    checked = true;
    var h = drawn[view[from]].getBoundingClientRect().height;
    if (h > 0 && Math.abs(h - rowH) > 0.5) rowH = h;
  }
  // colLeft and colRight are where the k-th shown column begins and ends,
  // in the table's pixels: its header's, which the table's layout gives
  // every cell of the column.
  function colLeft(k) { return heads[cols[k] + 1].offsetLeft; }
  function colRight(k) { var th = heads[cols[k] + 1]; return th.offsetLeft + th.offsetWidth; }
  // colsIn is the places of cols whose columns meet the table's pixels
  // lo to hi, as [first, end): found by bisection, so that a scroll reads
  // the layout of a few headers, not of every column.
  function colsIn(lo, hi) {
    var a = 0, b = cols.length, m;
    while (a < b) { m = (a + b) >> 1; if (colRight(m) > lo) b = m; else a = m + 1; }
    var first = a;
    b = cols.length;
    while (a < b) { m = (a + b) >> 1; if (colLeft(m) >= hi) b = m; else a = m + 1; }
    return [first, a];
  }
  // colRange is the places of the columns to draw: those in view (right of
  // the sticky agents' column, within the box) and CMARGIN on either
  // side; before the first layout, as if every column were COL wide.
  function colRange() {
    var a, b;
    if (!laidOut) {
      var w = window.innerWidth || 1280;
      a = 0; b = Math.ceil(w / COL);
    } else {
      var side = heads[0].offsetWidth;
      var x = table.getBoundingClientRect().left - scroller.getBoundingClientRect().left - scroller.clientLeft + scroller.scrollLeft;
      var lo = scroller.scrollLeft + side - x, hi = scroller.scrollLeft + scroller.clientWidth - x;
      var ab = colsIn(lo, hi);
      a = ab[0]; b = ab[1];
    }
    return [Math.max(0, Math.min(cols.length, a - CMARGIN)), Math.max(0, Math.min(cols.length, b + CMARGIN))];
  }

  // render draws the rows and columns in view and a margin on either
  // side; with all, it draws them anew (the view changed), else it keeps
  // those drawn. Once laid out, it checks its drawing against the layout
  // it makes (drawn cells can widen their columns, and so move the
  // others) and draws again until the columns in view are drawn.
  function render(all) {
    for (var pass = 0; pass < 4; pass++) {
      var cr = colRange();
      draw(all, cr[0], Math.max(cr[0], cr[1]));
      if (!laidOut) return;
      var now = colRange();
      if (now[0] >= cfrom && now[1] <= cto) return;
      all = false;
    }
  }

  function draw(all, ca, cb) {
    var head = 0, top = 0, h = (window.innerHeight || 800) * 0.75;
    if (laidOut) {
      measure();
      // The box is as high as what it holds, up to its maximum (a part
      // of the window's height): while it holds few rows, the window's.
      head = table.tHead.offsetHeight;
      top = scroller.scrollTop - head;
      h = Math.max(scroller.clientHeight, window.innerHeight || 800);
    }
    var rh = rowH;
    var a = Math.max(0, Math.min(view.length, Math.floor(top / rh) - MARGIN));
    var b = Math.max(a, Math.min(view.length, Math.ceil((top + h) / rh) + MARGIN));
    var had = focusedCell();
    var p, r;
    if (ca !== cfrom || cb !== cto) { cfrom = ca; cto = cb; all = true; }
    // New rows go in before old ones go out, and the spacers are set
    // first: the table never gets shorter on the way, which would pull
    // the box's scroll position up (removing the focused cell can make
    // the browser lay the page out).
    var gone = [];
    if (all || b <= from || a >= to) {
      for (r in drawn) gone.push(drawn[r]);
      drawn = {};
      setPad(padTop, a * rh);
      setPad(padBottom, (view.length - b) * rh);
      body.insertBefore(rowsOf(a, b), padBottom);
    } else {
      for (p = from; p < Math.min(a, to); p++) { gone.push(drawn[view[p]]); delete drawn[view[p]]; }
      for (p = Math.max(b, from); p < to; p++) { gone.push(drawn[view[p]]); delete drawn[view[p]]; }
      var first = drawn[view[Math.max(a, from)]];
      if (a < from) body.insertBefore(rowsOf(a, from), first && first.parentNode ? first : padBottom);
      if (b > to) body.insertBefore(rowsOf(to, b), padBottom);
      setPad(padTop, a * rh);
      setPad(padBottom, (view.length - b) * rh);
    }
    from = a; to = b;
    gone.forEach(function (tr) { body.removeChild(tr); });
    keepFocus(had);
  }

  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; laidOut = true; render(false); });
  }
  scroller.addEventListener("scroll", later, { passive: true });
  window.addEventListener("resize", later);

  function focusedCell() {
    var e = document.activeElement;
    return e && e.tagName === "TD" && body.contains(e) ? e : null;
  }

  // keepFocus keeps one drawn cell in the tab order: when the row of the
  // one in it is not drawn (scrolled away or filtered out), the cell of
  // the same column in the first row drawn takes its place, and takes the
  // keyboard's focus if the old one had it.
  function keepFocus(had) {
    if (!td(focusR, focusJ)) {
      if (from >= to || cfrom >= cto) { focusR = -1; return; }
      var k = colAt[focusJ];
      setFocus(view[from], k >= cfrom && k < cto ? focusJ : cols[cfrom], false);
    }
    if (had && !body.contains(had)) td(focusR, focusJ).focus({ preventScroll: true });
  }

  // td is the drawn cell of row r, column j, or null.
  function td(r, j) {
    var k = j >= 0 ? colAt[j] : -1;
    return drawn[r] && k >= cfrom && k < cto ? drawn[r].cells[2 + k - cfrom] : null;
  }

  function setFocus(r, j, move) {
    var old = td(focusR, focusJ);
    if (old) old.tabIndex = -1;
    focusR = r; focusJ = j;
    var cell = td(r, j);
    if (!cell) return;
    cell.tabIndex = 0;
    if (move) cell.focus({ preventScroll: true });
  }

  // reveal scrolls the scrolling box so that row r and column j show
  // whole, below and beside the sticky headers, and draws them.
  function reveal(r, j) {
    var p = at[r], k = colAt[j];
    if (p < 0 || k < 0) return false;
    laidOut = true;
    var head = table.tHead.offsetHeight, side = heads[0].offsetWidth;
    // The column's place and width are its header's (colLeft), from the
    // first column's.
    var y = p * rowH, x = colLeft(k) - colLeft(0), cw = colRight(k) - colLeft(k);
    if (y < scroller.scrollTop) scroller.scrollTop = y;
    else if (head + y + rowH > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = head + y + rowH - scroller.clientHeight;
    if (x < scroller.scrollLeft) scroller.scrollLeft = x;
    else if (side + x + cw > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = side + x + cw - scroller.clientWidth;
    render(false);
    return !!td(r, j);
  }

  function paint() {
    var any = false, k;
    for (k in state.loaded) if (state.loaded[k]) any = true;
    for (var r in drawn) {
      var cells = drawn[r].cells;
      for (var c = cfrom; c < cto; c++) lookInto(cells[2 + c - cfrom], Number(r), cols[c]);
    }
    var names = [];
    for (k in state.loaded) if (state.loaded[k]) names.push(D.toolsets_shown[k]);
    document.getElementById("sim-state").textContent =
      (any ? "Loaded: " + names.join(", ") : "Nothing loaded") + ", " + (state.unattended ? "unattended" : "attended") + " turn.";
    if (fDecision.value !== "") filter();
  }

  // filters: agent and tool text, toolset, decision; collapsed toolsets.
  var fAgent = document.getElementById("f-agent"), fTool = document.getElementById("f-tool");
  var fToolset = document.getElementById("f-toolset"), fDecision = document.getElementById("f-decision");
  var collapsed = {};
  var exactAgent = null;
  // The agent column is as wide as its widest name, whichever rows are
  // drawn: a rule of its own, set once, before the filters' rules. The
  // names are measured in a canvas, in the row headers' fonts, which asks
  // for no layout.
  (function () {
    var ctx = document.createElement("canvas").getContext("2d"), fonts = "system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif";
    if (!ctx) return;
    var w = 0;
    D.rows.forEach(function (r) {
      ctx.font = "bold 13px " + fonts;
      var x = ctx.measureText(r.shown).width;
      if (r.marks) { ctx.font = "bold 10.8px " + fonts; x += ctx.measureText(" (" + r.marks + ")").width; }
      if (x > w) w = x;
    });
    sheet.insertRule("#m th.corner{min-width:" + Math.ceil(w + 16) + "px}", sheet.cssRules.length);
  })();
  var base = sheet.cssRules.length;
  function filter() {
    var rules = [];
    hide = {};
    var ts = fToolset.value, tq = fTool.value.toLowerCase(), dq = fDecision.value;
    var dn = dq === "" ? -1 : Number(dq);
    // The decision's cells: a class, or for unavailable, none of the others.
    var dsel = dq === "" ? "" : dq === "0" ? ":not(.l):not(.r):not(.c):not(.v):not(.d)" : "." + D.classes[dn];
    for (var j = 0; j < D.columns.length; j++) {
      var g = D.columns[j];
      var first = j === 0 || D.columns[j - 1] !== g;
      if ((ts !== "" && String(g) !== ts) || (tq && D.tools[j].toLowerCase().indexOf(tq) < 0) || (collapsed[g] && !first)) hide[j] = true;
    }
    // The drawn rows hold only the columns shown; the header row holds
    // them all, and hides the others.
    var sel = [], heads = table.tHead.rows[1].cells, nextCols = [];
    colAt = [];
    for (j = 0; j < D.columns.length; j++) {
      if (hide[j]) sel.push("#m thead tr:nth-child(2)>:nth-child(" + (j + 2) + ")");
      else heads[j + 1].setAttribute("aria-colindex", nextCols.length + 2);
      colAt.push(hide[j] ? -1 : nextCols.length);
      if (!hide[j]) nextCols.push(j);
    }
    var colsSame = nextCols.length === cols.length;
    for (j = 0; colsSame && j < cols.length; j++) colsSame = nextCols[j] === cols[j];
    cols = nextCols;
    table.setAttribute("aria-colcount", cols.length + 1);
    padTop.cells[0].colSpan = padBottom.cells[0].colSpan = cols.length + 1;
    // The group headers span their columns: hide those with none shown.
    var groups = table.tHead.rows[0].cells;
    for (var gi = 1; gi < groups.length; gi++) {
      var gidx = Number(groups[gi].getAttribute("data-group")), shown = 0;
      for (j = 0; j < D.columns.length; j++) if (D.columns[j] === gidx && !hide[j]) shown++;
      groups[gi].colSpan = Math.max(shown, 1);
      groups[gi].hidden = shown === 0;
    }
    if (sel.length) rules.push(sel.join(",") + "{display:none}");
    if (dsel) rules.push("#m tbody tr:not(.pad) td:not(.gap):not(" + dsel + "){opacity:.3}");
    while (sheet.cssRules.length > base) sheet.deleteRule(base);
    rules.forEach(function (r) { sheet.insertRule(r, sheet.cssRules.length); });
    var aq = fAgent.value.toLowerCase(), next = [];
    at = [];
    for (var r = 0; r < D.rows.length; r++) {
      var name = D.rows[r].shown, ok = exactAgent !== null ? name === exactAgent : name.toLowerCase().indexOf(aq) >= 0;
      if (ok && dn >= 0) {
        ok = false;
        for (j = 0; j < D.columns.length && !ok; j++) if (!hide[j] && decision(r, j) === dn) ok = true;
      }
      at.push(ok ? next.length : -1);
      if (ok) next.push(r);
    }
    var same = next.length === view.length;
    for (var p = 0; same && p < next.length; p++) same = next[p] === view[p];
    view = next;
    table.setAttribute("aria-rowcount", view.length + 2);
    render(!same || !colsSame);
    var shownCols = D.columns.length - Object.keys(hide).length;
    document.getElementById("f-count").textContent = view.length + " of " + D.rows.length + " agents, " + shownCols + " of " + D.columns.length + " tools shown.";
  }
  [fAgent, fTool].forEach(function (e) { e.addEventListener("input", function () { exactAgent = null; filter(); }); });
  [fToolset, fDecision].forEach(function (e) { e.addEventListener("change", filter); });
  table.tHead.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.collapse");
    if (!b) return;
    var g = b.getAttribute("data-group");
    collapsed[g] = !collapsed[g];
    b.setAttribute("aria-expanded", collapsed[g] ? "false" : "true");
    filter();
  });

  // The simulator.
  var sim = document.getElementById("sim");
  sim.addEventListener("change", function () {
    state.loaded = {};
    sim.querySelectorAll("input[name=loaded]").forEach(function (c) {
      if (c.checked) state.loaded[D.toolsets.indexOf(c.value)] = true;
    });
    state.unattended = document.getElementById("unattended").checked;
    paint();
  });
  sim.addEventListener("reset", function () { setTimeout(function () { sim.dispatchEvent(new Event("change")); }, 0); });

  // The reason panel.
  var panel = document.getElementById("reason"), pbody = document.getElementById("reason-body"), pline = document.getElementById("reason-line");
  function add(dt, dd) {
    var t = document.createElement("dt"), d = document.createElement("dd");
    t.textContent = dt; d.textContent = dd;
    pbody.appendChild(t); pbody.appendChild(d);
  }
  function unselect() {
    var old = td(selR, selJ);
    if (old) old.classList.remove("sel");
    selR = selJ = -1;
  }
  function open(r, j) {
    unselect();
    selR = r; selJ = j;
    var cell = td(r, j);
    if (cell) cell.classList.add("sel");
    var a = D.answers[answer(r, j, state.loaded, state.unattended)], why = D.reasons[a[1]];
    pbody.textContent = "";
    add("Agent", D.rows[r].shown);
    add("Tool", D.toolsets_shown[D.columns[j]] + "." + D.tools_shown[j]);
    add("Decision", D.decisions[a[0]]);
    add("Why", why.s);
    if (why.l) add("List", why.l + (why.i ? " (inherited)" : ""));
    if (why.k) add("Key", why.k);
    if (why.e) add("Entry", why.e);
    if (why.f) add("Where", why.f + ":" + why.n + ":" + why.c);
    if (why.r) add("Reviewer", "a reviewer model answers first");
    pline.hidden = !why.t;
    pline.textContent = why.t ? why.n + " | " + why.t : "";
    panel.hidden = false;
    if (panel.scrollIntoView) panel.scrollIntoView({ block: "nearest" });
  }
  document.getElementById("reason-close").addEventListener("click", function () {
    panel.hidden = true;
    var r = selR, j = selJ;
    unselect();
    if (r >= 0 && reveal(r, j)) setFocus(r, j, true);
  });

  // Keyboard: one cell in the tab order; the arrows, Page Up and Down,
  // Home and End (with Control: the first and last row) move between the
  // cells the filters show, drawing the row first when it is not drawn.
  function place(cell) {
    var tr = cell && cell.parentNode;
    if (!tr || !tr.hasAttribute("data-row")) return null;
    var k = cfrom + cell.cellIndex - 2;
    if (k < cfrom || k >= cto) return null;
    return [Number(tr.getAttribute("data-row")), cols[k]];
  }
  body.addEventListener("click", function (ev) {
    var c = place(ev.target.closest("td"));
    if (!c) return;
    setFocus(c[0], c[1], true);
    open(c[0], c[1]);
  });
  // page is how many rows the scrolling box shows at once.
  function page() { return Math.max(1, Math.floor((scroller.clientHeight - table.tHead.offsetHeight) / rowH) - 1); }
  body.addEventListener("keydown", function (ev) {
    var c = place(ev.target.closest("td"));
    if (!c) return;
    var r = c[0], j = c[1], p = at[r], nr = -1, nj = j, k = colAt[j];
    switch (ev.key) {
      case "ArrowRight": if (k + 1 < cols.length) { nj = cols[k + 1]; nr = r; } break;
      case "ArrowLeft": if (k > 0) { nj = cols[k - 1]; nr = r; } break;
      case "ArrowDown": if (p >= 0 && p + 1 < view.length) nr = view[p + 1]; break;
      case "ArrowUp": if (p > 0) nr = view[p - 1]; break;
      case "PageDown": if (p >= 0) nr = view[Math.min(view.length - 1, p + page())]; break;
      case "PageUp": if (p >= 0) nr = view[Math.max(0, p - page())]; break;
      case "Home": if (ev.ctrlKey) nr = view[0]; else { nj = cols[0]; nr = r; } break;
      case "End": if (ev.ctrlKey) nr = view[view.length - 1]; else { nj = cols[cols.length - 1]; nr = r; } break;
      case "Enter": case " ": open(r, j); ev.preventDefault(); return;
      case "Escape": panel.hidden = true; return;
      default: return;
    }
    ev.preventDefault();
    if (nr >= 0 && reveal(nr, nj)) setFocus(nr, nj, true);
  });

  // The graph: an agent's box shows only its row.
  document.querySelectorAll("#graph a.node").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      var r = Number(a.getAttribute("data-row"));
      exactAgent = D.rows[r].shown;
      fAgent.value = exactAgent;
      scroller.scrollTop = 0;
      filter();
      document.getElementById("matrix").scrollIntoView();
      scroller.scrollLeft = 0;
      if (cols.length && reveal(r, cols[0])) setFocus(r, cols[0], true);
    });
  });

  // The decision tester of the served page.
  var tester = document.getElementById("tester-form");
  if (tester && D.served) {
    tester.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var agent = document.getElementById("t-agent").value, tool = document.getElementById("t-tool").value;
      var row = null;
      D.rows.forEach(function (r) { if (r.label === agent || r.agent === agent) row = r; });
      var loaded = [];
      if (row) row.deferred.forEach(function (t) { if (state.loaded[t]) loaded.push(D.toolsets[t]); });
      var out = document.getElementById("t-answer");
      fetch("/v1/decide", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ agent: agent, tool: tool, unattended: state.unattended, loaded: loaded }) })
        .then(function (res) { return res.text(); })
        .then(function (t) { out.textContent = t; })
        .catch(function (e) { out.textContent = String(e); });
    });
  }

  if (D.rows.length && D.columns.length) { focusR = 0; focusJ = 0; }
  filter();
  var drawnAt = performance.now();
  // After the first frame: the page's true sizes; ready resolves then.
  // The reach graph and the agents' table are laid out with the rest of
  // the page from the first frame.
  var ready = new Promise(function (done) {
    requestAnimationFrame(function () {
      laidOut = true;
      render(false);
      done(true);
    });
  });

  // For tests and tools/explorerbench: what a cell shows, from the model
  // (whether or not it is drawn), the view, and scrolling a cell into
  // view and drawing it.
  function model(r, j) {
    var look = cellLook(r, j);
    return { text: look[1], cls: look[0], shown: at[r] >= 0 && !hide[j] };
  }
  window.kokuaExplorer = {
    lookup: lookup, answer: answer, data: D, paint: paint, ready: ready, startedAt: startedAt, drawnAt: drawnAt,
    cell: model,
    matrix: function () { return D.rows.map(function (_, r) { return D.columns.map(function (_, j) { return cellLook(r, j)[1]; }); }); },
    shown: function () { return view.map(function (r) { return D.rows[r].agent; }); },
    columns: function () { return cols.slice(); },
    reveal: function (r, j) { return reveal(r, j) ? td(r, j) : null; }
  };
})();
