// kg's views: what every page does with its `network`, `nodes` and `edges` (kg/export/views/templates/graph.html)
// kgViews() is called right after the page makes its network: the layout may settle at once

function kgFold(text) {
  // the same folding as kg.names.fold: case, spaces, hyphens, dots and quotes aside
  return text.normalize("NFKC").toLowerCase().replace(/[\s\-\u2010-\u2015_.·'’‘`"]+/g, "");
}

function kgViews() {
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({physics: {enabled: false}});
    network.fit();
    // labels as large on screen at the default zoom as at 100%, however far it zooms out
    var scale = network.getScale();
    if (scale < 1) network.setOptions({nodes: {font: {size: Math.ceil(Number(document.body.dataset.font) / scale)}}});
    window.kgDrawnAt = performance.now();  // when the layout settled (read by tests, bench)
  });
  function show(title, text) {
    var box = document.getElementById("details");
    box.textContent = "";
    var h = document.createElement("h2"); h.textContent = title; box.appendChild(h);
    var p = document.createElement("p"); p.style.whiteSpace = "pre-wrap"; p.textContent = text;
    box.appendChild(p);
  }
  var folded = [];  // the ids of the communities drawn as one node each
  function fold() {
    var members = {};
    nodes.forEach(function (n) {
      if (n.community !== undefined && !n.hidden) (members[n.community] = members[n.community] || []).push(n);
    });
    Object.keys(members).forEach(function (c) {
      var list = members[c].sort(function (a, b) { return b.value - a.value || (a.label < b.label ? -1 : 1); });
      if (list.length < 2) return;
      var id = "community:" + c;
      network.cluster({
        joinCondition: function (n) { return String(n.community) === c && !n.hidden; },
        clusterNodeProperties: {
          id: id, label: list[0].label + " +" + (list.length - 1), shape: "box",
          color: {background: "#f3f3f3", border: "#555555"}, borderWidth: 2,
          title: list.slice(0, 20).map(function (n) { return n.label; }).join("\n")
            + (list.length > 20 ? "\n\u2026 " + (list.length - 20) + " more" : "")
        }
      });
      folded.push(id);
    });
  }
  function unfold() {
    folded.forEach(function (id) { if (network.isCluster(id)) network.openCluster(id); });
    folded = [];
  }
  var foldBox = document.getElementById("fold");
  if (foldBox) foldBox.addEventListener("change", function () { if (foldBox.checked) fold(); else unfold(); counts(); });
  network.on("click", function (params) {
    if (params.nodes.length && network.isCluster(params.nodes[0])) {
      network.openCluster(params.nodes[0]);
      folded = folded.filter(function (id) { return id !== params.nodes[0]; });
      counts();
    } else if (params.nodes.length) {
      var n = nodes.get(params.nodes[0]);
      if (n.url) { window.location.href = n.url; } else { show(n.label, n.title); }
    } else if (params.edges.length) {
      var e = edges.get(params.edges[0]);  // none for an edge of a folded community
      if (e) show(e.relation, e.title || "");
    }
  });
  document.getElementById("search").addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var q = kgFold(event.target.value);
    network.unselectAll();
    if (!q) return;
    var exact = nodes.get({filter: function (n) { return !n.hidden && n.search.split(" ").indexOf(q) >= 0; }});
    var hit = exact[0] || nodes.get({filter: function (n) { return !n.hidden && n.search.indexOf(q) >= 0; }})[0];
    if (hit) {
      var path = network.clustering.findNode(hit.id);
      if (path.length > 1) { network.openCluster(path[0]); folded = folded.filter(function (id) { return id !== path[0]; }); counts(); }
      network.selectNodes([hit.id]); network.focus(hit.id, {scale: 1.2}); show(hit.label, hit.title); }
    else { show("No match", "Nothing drawn here is named \u201c" + event.target.value + "\u201d."); }
  });
  function applyFilters() {
    var again = folded.length > 0;
    unfold();
    var types = {}, relations = {};
    document.querySelectorAll(".filters input[data-type]").forEach(function (box) { types[box.dataset.type] = box.checked; });
    document.querySelectorAll(".filters input[data-relation]").forEach(function (box) { relations[box.dataset.relation] = box.checked; });
    nodes.update(nodes.get().map(function (n) { return {id: n.id, hidden: types[n.group] === false}; }));
    edges.update(edges.get().map(function (e) { return {id: e.id, hidden: relations[e.relation] === false}; }));
    if (again) fold();
    counts();
  }
  function counts() {
    var shown = {}, n = 0, m = 0;
    nodes.forEach(function (node) { if (!node.hidden) { shown[node.id] = true; n += 1; } });
    edges.forEach(function (e) { if (!e.hidden && shown[e.from] && shown[e.to]) m += 1; });
    document.getElementById("counts").textContent = n === nodes.length && m === edges.length
      ? n + " nodes, " + m + " edges drawn"
      : n + " of " + nodes.length + " nodes, " + m + " of " + edges.length + " edges shown";
    if (folded.length) document.getElementById("counts").textContent += ", " + folded.length + " communities folded";
  }
  document.querySelectorAll(".filters input").forEach(function (box) { box.addEventListener("change", applyFilters); });
}
