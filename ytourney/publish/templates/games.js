// Filters and sorting of the games list over every game (data in games-data-*.js); without it the static pages stay.
(function () {
  "use strict";
  var chunks = window.YTGAMES || [];
  var table = document.getElementById("games");
  var form = document.getElementById("filters");
  if (!table || !form || !chunks.length) { return; }
  var games = [];
  chunks.forEach(function (chunk) {
    var s = chunk.s;
    chunk.r.forEach(function (r) {
      var g = {n: r[0], stem: r[1], tournament: s[r[2]], id: r[3], round: r[4], board: s[r[5]], handicap: r[6],
               black: s[r[7]], white: s[r[8]], first: s[r[9]], won: r[10], termination: s[r[11]], moves: r[12]};
      g.winner = g.won === 0 ? g.black : g.won === 1 ? g.white : "";  // won 2: a draw
      g.pair = g.black < g.white ? g.black + " vs " + g.white : g.white + " vs " + g.black;
      games.push(g);
    });
  });
  var body = table.tBodies[0];
  var staticBody = body.cloneNode(true);
  var chunk = parseInt(table.getAttribute("data-chunk"), 10) || 500;
  var jsPager = document.getElementById("js-pager");
  var staticPagers = document.querySelectorAll("nav.pages");
  var output = document.getElementById("matches");
  var state = {key: "n", dir: 1, page: 0};
  var faults = {time: 1, illegal: 1, crash: 1, protocol: 1, forfeit: 1};

  function fill(name, values) {
    var select = form.elements[name];
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = String(v);
      option.textContent = String(v);
      select.appendChild(option);
    });
  }
  function unique(pick, numeric) {
    var seen = {};
    games.forEach(function (g) { seen[pick(g)] = pick(g); });
    var values = Object.keys(seen).map(function (k) { return seen[k]; });
    return values.sort(numeric ? function (a, b) { return a - b; } : undefined);
  }
  fill("player", unique(function (g) { return g.black; }).concat(unique(function (g) { return g.white; }))
    .filter(function (v, i, all) { return all.indexOf(v) === i; }).sort());
  fill("pair", unique(function (g) { return g.pair; }));
  fill("termination", unique(function (g) { return g.termination; }));
  fill("board", unique(function (g) { return g.board; }));
  fill("handicap", unique(function (g) { return g.handicap; }, true));

  function matches(g, f) {
    if (f.player && g.black !== f.player && g.white !== f.player) { return false; }
    if (f.pair && g.pair !== f.pair) { return false; }
    if (f.termination && g.termination !== f.termination) { return false; }
    if (f.board && g.board !== f.board) { return false; }
    if (f.handicap !== "" && String(g.handicap) !== f.handicap) { return false; }
    switch (f.result) {
      case "black": return g.won === 0;
      case "white": return g.won === 1;
      case "first": return g.winner === g.first;
      case "second": return g.won !== 2 && g.winner !== g.first;
      case "draw": return g.won === 2;
      case "player-won": return !f.player || g.winner === f.player;
      case "player-lost": return !f.player || (g.won !== 2 && g.winner !== f.player);
      default: return true;
    }
  }
  function cell(row, text, numeric, href, fault) {
    var td = row.insertCell(-1);
    if (numeric) { td.className = "num"; }
    var holder = td;
    if (href) { holder = document.createElement("a"); holder.href = href; td.appendChild(holder); }
    if (fault) { holder = document.createElement("span"); holder.className = "tag fault"; td.appendChild(holder); }
    holder.textContent = String(text);
  }
  function values() {
    var f = {};
    ["player", "pair", "result", "termination", "board", "handicap"].forEach(function (name) {
      f[name] = form.elements[name].value;
    });
    return f;
  }
  function render() {
    var f = values();
    var filtered = f.player || f.pair || f.result || f.termination || f.board || f.handicap !== "";
    var sorted = state.key !== "n" || state.dir !== 1;
    var shown = filtered || sorted;
    staticPagers.forEach(function (nav) { nav.hidden = shown; });
    jsPager.hidden = !shown;
    if (!shown) {
      table.replaceChild(staticBody.cloneNode(true), table.tBodies[0]);
      output.textContent = "";
      return;
    }
    var list = games.filter(function (g) { return matches(g, f); });
    var key = state.key, dir = state.dir;
    list.sort(function (a, b) {
      var x = a[key], y = b[key];
      if (x === y) { return a.n - b.n; }
      return (x < y ? -1 : 1) * dir;
    });
    var pages = Math.max(1, Math.ceil(list.length / chunk));
    state.page = Math.min(state.page, pages - 1);
    var fresh = document.createElement("tbody");
    list.slice(state.page * chunk, (state.page + 1) * chunk).forEach(function (g) {
      var row = fresh.insertRow(-1);
      cell(row, g.n, true, "games/" + g.stem + ".html");
      cell(row, g.tournament); cell(row, g.id, true); cell(row, g.round, true); cell(row, g.board);
      cell(row, g.handicap, true); cell(row, g.black); cell(row, g.white); cell(row, g.won === 2 ? "draw" : g.winner);
      cell(row, g.termination, false, null, faults[g.termination]); cell(row, g.moves, true);
    });
    table.replaceChild(fresh, table.tBodies[0]);
    output.textContent = list.length + " of " + games.length + " games";
    jsPager.querySelector("span").textContent = " page " + (state.page + 1) + " of " + pages + " ";
    jsPager.querySelector("[data-step='-1']").disabled = state.page === 0;
    jsPager.querySelector("[data-step='1']").disabled = state.page >= pages - 1;
  }
  form.addEventListener("change", function () { state.page = 0; render(); });
  form.addEventListener("reset", function () { setTimeout(function () { state = {key: "n", dir: 1, page: 0}; render(); }, 0); });
  jsPager.addEventListener("click", function (event) {
    var step = event.target.getAttribute && event.target.getAttribute("data-step");
    if (step) { state.page += parseInt(step, 10); render(); window.scrollTo(0, table.offsetTop); }
  });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    th.tabIndex = 0;
    th.title = "sort by " + th.textContent;
    function sort() {
      var key = th.getAttribute("data-key");
      state.dir = state.key === key ? -state.dir : 1;
      state.key = key;
      state.page = 0;
      render();
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (event) { if (event.key === "Enter") { sort(); } });
  });
  location.hash.replace(/^#/, "").split("&").forEach(function (part) {
    var pair = part.split("=");
    var name = decodeURIComponent(pair[0] || ""), value = decodeURIComponent(pair[1] || "");
    var select = form.elements[name];
    if (name === "sort" && table.querySelector("th[data-key='" + value.replace(/\W/g, "") + "']")) { state.key = value; }
    else if (name === "order") { state.dir = value === "desc" ? -1 : 1; }
    else if (select && pair.length === 2) { select.value = value; }
  });
  form.hidden = false;
  render();
}());
