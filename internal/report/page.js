"use strict";
(function () {
  var D = JSON.parse(document.getElementById("kokua-data").textContent);
  // The matrix: the HTML holds it for readers without scripts (in
  // <noscript>); with scripts, it is built here from the data, the first
  // rows at once and the rest in batches, so that the page shows before
  // a large matrix is complete. ready resolves once every row is there.
  var table = document.getElementById("m");
  table.hidden = false;
  var body = table.tBodies[0];
  var rows = body.rows;
  var sheet = document.styleSheets[0];
  var base = sheet.cssRules.length;
  var state = { loaded: {}, unattended: false };
  var marks = {};
  D.marks.forEach(function (m) { marks[m[0] + "," + m[1]] = m[2]; });

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

  // cellLook is a cell's class and text in the simulator's state.
  function cellLook(r, j) {
    var d = D.answers[answer(r, j, state.loaded, state.unattended)][0];
    var cls = D.classes[d], text = D.letters[d];
    var mk = marks[r + "," + j];
    if (mk === 1) { cls = (cls + " w").trim(); text += "+"; }
    if (mk === -1) { cls = (cls + " n").trim(); text += "\u2212"; }
    return [cls, text];
  }

  function buildRow(r) {
    var tr = document.createElement("tr"), th = document.createElement("th"), name = document.createElement("span");
    tr.id = "a-" + r;
    th.scope = "row";
    name.textContent = D.rows[r].agent;
    th.appendChild(name);
    if (D.rows[r].marks) {
      var small = document.createElement("small");
      small.textContent = "(" + D.rows[r].marks + ")";
      th.appendChild(document.createTextNode(" "));
      th.appendChild(small);
    }
    tr.appendChild(th);
    for (var j = 0; j < D.columns.length; j++) {
      var look = cellLook(r, j), td = document.createElement("td");
      if (look[0]) td.className = look[0];
      td.textContent = look[1];
      tr.appendChild(td);
    }
    return tr;
  }

  var built = 0;
  function build(n) {
    var frag = document.createDocumentFragment();
    for (var end = Math.min(built + n, D.rows.length); built < end; built++) frag.appendChild(buildRow(built));
    body.appendChild(frag);
  }

  function paint() {
    var any = false, k;
    for (k in state.loaded) if (state.loaded[k]) any = true;
    for (var r = 0; r < rows.length; r++) {
      var cells = rows[r].cells;
      for (var j = 0; j < D.columns.length; j++) {
        var look = cellLook(r, j), cls = look[0], text = look[1];
        var td = cells[j + 1];
        if (td.textContent !== text) {
          var keep = td.classList.contains("sel") ? " sel" : "";
          td.className = (cls + keep).trim();
          td.textContent = text;
        }
      }
    }
    var names = [];
    for (k in state.loaded) if (state.loaded[k]) names.push(D.toolsets[k]);
    document.getElementById("sim-state").textContent =
      (any ? "Loaded: " + names.join(", ") : "Nothing loaded") + ", " + (state.unattended ? "unattended" : "attended") + " turn.";
    filter();
  }

  // filters: agent and tool text, toolset, decision; collapsed toolsets.
  var fAgent = document.getElementById("f-agent"), fTool = document.getElementById("f-tool");
  var fToolset = document.getElementById("f-toolset"), fDecision = document.getElementById("f-decision");
  var collapsed = {};
  var exactAgent = null;
  function filter() {
    var rules = [];
    var hide = {};
    var ts = fToolset.value, tq = fTool.value.toLowerCase(), dq = fDecision.value;
    // The decision's cells: a class, or for unavailable, none of the others.
    var dsel = dq === "" ? "" : dq === "0" ? ":not(.l):not(.r):not(.c):not(.v):not(.d)" : "." + D.classes[Number(dq)];
    for (var j = 0; j < D.columns.length; j++) {
      var g = D.columns[j];
      var first = j === 0 || D.columns[j - 1] !== g;
      if ((ts !== "" && String(g) !== ts) || (tq && D.tools[j].toLowerCase().indexOf(tq) < 0) || (collapsed[g] && !first)) hide[j] = true;
    }
    var sel = [];
    for (j in hide) sel.push("#m tr>:nth-child(" + (Number(j) + 2) + ")");
    // The group headers span their columns: hide those with none shown.
    var groups = table.tHead.rows[0].cells;
    for (var gi = 1; gi < groups.length; gi++) {
      var gidx = Number(groups[gi].getAttribute("data-group")), shown = 0;
      for (j = 0; j < D.columns.length; j++) if (D.columns[j] === gidx && !hide[j]) shown++;
      groups[gi].colSpan = Math.max(shown, 1);
      groups[gi].hidden = shown === 0;
    }
    if (sel.length) rules.push(sel.join(",") + "{display:none}");
    if (dsel) rules.push("#m tbody td:not(" + dsel + "){opacity:.3}");
    while (sheet.cssRules.length > base) sheet.deleteRule(base);
    rules.forEach(function (r) { sheet.insertRule(r, sheet.cssRules.length); });
    var aq = fAgent.value.toLowerCase(), shownRows = 0;
    for (var r = 0; r < rows.length; r++) {
      var name = D.rows[r].agent, ok = exactAgent !== null ? name === exactAgent : name.toLowerCase().indexOf(aq) >= 0;
      if (ok && dq) {
        ok = false;
        for (j = 0; j < D.columns.length && !ok; j++) if (!hide[j] && rows[r].cells[j + 1].matches(dsel)) ok = true;
      }
      rows[r].hidden = !ok;
      if (ok) shownRows++;
    }
    var shownCols = D.columns.length - Object.keys(hide).length;
    document.getElementById("f-count").textContent = shownRows + " of " + rows.length + " agents, " + shownCols + " of " + D.columns.length + " tools shown.";
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
  var current = null;
  function add(dt, dd) {
    var t = document.createElement("dt"), d = document.createElement("dd");
    t.textContent = dt; d.textContent = dd;
    pbody.appendChild(t); pbody.appendChild(d);
  }
  function open(td) {
    var r = td.parentNode.sectionRowIndex, j = td.cellIndex - 1;
    if (j < 0) return;
    if (current) current.classList.remove("sel");
    current = td; td.classList.add("sel");
    var a = D.answers[answer(r, j, state.loaded, state.unattended)], why = D.reasons[a[1]];
    pbody.textContent = "";
    add("Agent", D.rows[r].agent);
    add("Tool", D.toolsets[D.columns[j]] + "." + D.tools[j]);
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
    if (current) { current.classList.remove("sel"); current.focus(); }
  });

  // Keyboard: one cell in the tab order, arrows move between visible cells.
  var focusCell = null;
  function setFocus(td, move) {
    if (focusCell) focusCell.tabIndex = -1;
    focusCell = td; td.tabIndex = 0;
    if (move) td.focus();
  }

  function visible(el) { return !el.hidden && el.offsetParent !== null; }
  body.addEventListener("click", function (ev) {
    var td = ev.target.closest("td");
    if (!td) return;
    setFocus(td, true);
    open(td);
  });
  body.addEventListener("keydown", function (ev) {
    var td = ev.target.closest("td");
    if (!td) return;
    var tr = td.parentNode, i = td.cellIndex, next = null, k;
    switch (ev.key) {
      case "ArrowRight": for (k = i + 1; k < tr.cells.length && !next; k++) if (visible(tr.cells[k])) next = tr.cells[k]; break;
      case "ArrowLeft": for (k = i - 1; k >= 1 && !next; k--) if (visible(tr.cells[k])) next = tr.cells[k]; break;
      case "ArrowDown": for (k = tr.sectionRowIndex + 1; k < rows.length && !next; k++) if (!rows[k].hidden) next = rows[k].cells[i]; break;
      case "ArrowUp": for (k = tr.sectionRowIndex - 1; k >= 0 && !next; k--) if (!rows[k].hidden) next = rows[k].cells[i]; break;
      case "Enter": case " ": open(td); ev.preventDefault(); return;
      case "Escape": panel.hidden = true; return;
      default: return;
    }
    ev.preventDefault();
    if (next) setFocus(next, true);
  });

  // The graph: an agent's box shows only its row.
  document.querySelectorAll("#graph a.node").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      var r = Number(a.getAttribute("data-row"));
      exactAgent = D.rows[r].agent;
      fAgent.value = exactAgent;
      filter();
      document.getElementById("matrix").scrollIntoView();
      var td = rows[r].cells[1];
      if (td) setFocus(td, true);
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

  build(30);
  if (rows.length && rows[0].cells.length > 1) setFocus(rows[0].cells[1], false);
  filter();
  var ready = new Promise(function (done) {
    (function more() {
      if (built >= D.rows.length) { filter(); done(true); return; }
      build(60);
      setTimeout(more, 0);
    })();
  });
  window.kokuaExplorer = { lookup: lookup, answer: answer, data: D, paint: paint, ready: ready };
})();
