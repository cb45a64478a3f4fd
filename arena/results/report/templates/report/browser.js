/* The game browser: lists, searches and filters the embedded games, and renders the states
   precomputed in Python (arena/results/report/games.py). The page holds an index of the games
   (games-index) and their steps in gzip chunks (games-chunk-N, base64: arena/results/report/pack.py);
   a chunk is decoded with the browser's DecompressionStream when one of its games is opened. The bots'
   logs of the embedded games are one more such blob (games-logs: arena/results/report/logs.py), shown
   under the table of a game whose index entry lists seats with logs (lg). */
(function () {
  "use strict";
  var indexScript = document.getElementById("games-index");
  if (!indexScript) { return; }
  var INDEX = JSON.parse(indexScript.textContent);
  var SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SUIT_WORD = ["clubs", "diamonds", "hearts", "spades"];
  var SUIT_LETTER = "CDHS";
  var PLACE = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"];
  var PAGE = 50;
  var state = { game: null, steps: null, step: 0, page: PAGE, shown: PAGE, matches: INDEX, wanted: null };
  var chunks = {};

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function cardsOf(text) { return text.match(/[2-9TJQKA][CDHS]\*?/g) || []; }
  function rankText(t) { return t[0] === "T" ? "10" : t[0]; }

  function cardEl(t, extra) {
    var suit = t[1];
    var red = suit === "H" || suit === "D";
    var c = el("span", "card " + (red ? "red" : "black") + (t.length > 2 ? " copy2" : "") + (extra ? " " + extra : ""));
    c.dataset.card = t;
    c.title = rankText(t) + SYMBOL[suit] + (t.length > 2 ? " (second pack)" : "");
    c.appendChild(el("span", "r", rankText(t)));
    c.appendChild(el("span", "s", SYMBOL[suit]));
    return c;
  }

  function game() { return state.game; }
  function step() { return state.steps[state.step]; }
  function who(seat) { return game().names[seat] + " [" + seat + "]"; }

  function renderTrick(s) {
    var box = $("trick");
    box.textContent = "";
    box.className = "trick" + (s.gone ? " gone" : "");
    if (!s.t.length) {
      box.appendChild(el("span", "empty", s.k === "end" ? "game over" : "no cards on the table"));
      return;
    }
    s.t.forEach(function (pair) {
      var seat = pair[0], mark = "", tag = null;
      if (s.cut === seat) { mark = "is-cut"; tag = el("span", "tag cut", "CUT"); }
      else if (s.pick === seat) { mark = "is-high"; tag = el("span", "tag high", "PICKS UP"); }
      else if (s.win === seat) { mark = "is-win"; tag = el("span", "tag win", "HIGHEST"); }
      var slot = el("div", "slot");
      slot.dataset.seat = seat;
      slot.appendChild(cardEl(pair[1], mark));
      slot.appendChild(el("span", "who", who(seat)));
      if (tag) { slot.appendChild(tag); }
      box.appendChild(slot);
    });
    if (s.gone === 1) { box.appendChild(el("span", "caption", "\u2192 discard pile")); }
    if (s.gone === 2 && s.pick !== undefined) { box.appendChild(el("span", "caption", "\u2192 picked up by " + who(s.pick))); }
  }

  function badges(s, seat) {
    var out = [];
    if (s.turn === seat) {
      out.push(["turn", s.dec === "take" ? "to decide: take?" : (!s.t.length || s.gone) ? "to lead" : "to play"]);
    }
    if (s.cut === seat) { out.push(["cut", "CUT"]); }
    if (s.pick === seat) { out.push(["pick", "PICKED UP"]); }
    if (s.win === seat) { out.push(["win", "won the trick"]); }
    if (s.take === seat) { out.push(["take", "TOOK"]); }
    if (s.draw === seat) { out.push(["turn", "DREW"]); }
    if (s.o && s.o[seat] !== null && s.o[seat] !== undefined) { out.push(["out", "out \u00b7 " + PLACE[s.o[seat]]]); }
    if (s.loser === seat) { out.push(["loser", "BHABHI"]); }
    return out;
  }

  function renderSeats(s, prev) {
    var box = $("seats");
    box.textContent = "";
    game().names.forEach(function (name, seat) {
      var cards = cardsOf(s.h[seat]);
      var before = prev ? cardsOf(prev.h[seat]) : cards;
      var row = el("div", "seat");
      row.dataset.seat = seat;
      var marks = badges(s, seat);
      marks.forEach(function (b) { row.classList.add(b[0]); });
      var head = el("div", "head");
      var nm = el("div", "name", who(seat) + " ");
      nm.appendChild(el("span", "count", cards.length + (cards.length === 1 ? " card" : " cards")));
      head.appendChild(nm);
      var bs = el("div", "badges");
      marks.forEach(function (b) { bs.appendChild(el("span", "badge " + b[0], b[1])); });
      head.appendChild(bs);
      row.appendChild(head);
      var hand = el("div", "hand");
      if (!cards.length) { hand.appendChild(el("span", "nocards", "no cards")); }
      var lastSuit = null;
      cards.forEach(function (t) {
        if (lastSuit !== null && t[1] !== lastSuit) { hand.appendChild(el("span", "gap")); }
        lastSuit = t[1];
        hand.appendChild(cardEl(t, before.indexOf(t) < 0 ? "new" : ""));
      });
      row.appendChild(hand);
      box.appendChild(row);
    });
  }

  function render() {
    var g = game(), s = step(), prev = state.step > 0 ? state.steps[state.step - 1] : null;
    $("game-title").textContent = g.title;
    $("game-meta").textContent = g.rules + " \u00b7 seed " + g.seed + (g.id ? " \u00b7 " + g.id : "") +
      (g.faults ? " \u00b7 " + g.faults + " fault(s)" : "");
    var msg = $("message");
    msg.className = "message k-" + s.k;
    msg.textContent = s.m;
    renderTrick(s);
    var trump = $("trump");
    trump.textContent = "";
    if (s.tr !== undefined) {
      trump.appendChild(document.createTextNode("Trumps: "));
      var sym = el("span", "trump-suit " + (s.tr === 1 || s.tr === 2 ? "red" : "black"), SYMBOL[SUIT_LETTER[s.tr]]);
      sym.style.color = s.tr === 1 || s.tr === 2 ? "#c8102e" : "#111";
      trump.appendChild(sym);
      trump.appendChild(document.createTextNode(" " + SUIT_WORD[s.tr]));
    }
    $("discard").textContent = "Discard pile: " + (s.d || 0) + " card" + ((s.d || 0) === 1 ? "" : "s");
    renderSeats(s, prev);
    var range = $("step-range");
    range.max = state.steps.length - 1;
    range.value = state.step;
    $("step-label").textContent = "step " + state.step + " / " + (state.steps.length - 1) + " \u00b7 trick " + s.n;
    var viewer = $("viewer");
    viewer.dataset.game = g.i;
    viewer.dataset.step = state.step;
    viewer.dataset.event = s.ev;
    viewer.dataset.kind = s.k;
    viewer.dataset.turn = s.turn === undefined ? "" : s.turn;
  }

  function go(n) {
    if (!state.steps) { return; }
    state.step = Math.max(0, Math.min(state.steps.length - 1, n));
    render();
  }
  function isTrickEnd(s) { return s.k === "clean" || s.k === "pickup" || s.k === "end"; }
  function nextTrick() {
    var steps = state.steps || [];
    for (var i = state.step + 1; i < steps.length; i++) { if (isTrickEnd(steps[i])) { return go(i); } }
    go(steps.length - 1);
  }
  function prevTrick() {
    var steps = state.steps || [];
    for (var i = state.step - 1; i > 0; i--) { if (isTrickEnd(steps[i])) { return go(i); } }
    go(0);
  }

  /* ------------------------------------------------------------ loading a game's steps */
  function gunzipJSON(text) {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot decompress the games (it lacks " +
        "DecompressionStream: use a browser from 2023 or later)"));
    }
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  function chunk(n) {
    if (!chunks[n]) { chunks[n] = gunzipJSON(document.getElementById("games-chunk-" + n).textContent.trim()); }
    return chunks[n];
  }
  var logsBlob = null;
  function allLogs() {
    var script = document.getElementById("games-logs");
    if (!logsBlob) { logsBlob = script ? gunzipJSON(script.textContent.trim()) : Promise.resolve({}); }
    return logsBlob;
  }
  function renderLogs(e) {
    var box = $("game-logs");
    box.textContent = "";
    box.dataset.game = "";
    if (!e.lg || !e.lg.length) { return Promise.resolve(); }
    return allLogs().then(function (logs) {
      if (state.game !== e) { return; }
      var mine = logs[String(e.i)] || {};
      box.appendChild(el("div", "small-note", "What the bots printed (stdout, stderr), with their faults' tracebacks:"));
      e.lg.forEach(function (seat) {
        var d = el("details", "seat-log");
        d.id = "log-" + e.i + "-" + seat;
        d.dataset.seat = seat;
        d.appendChild(el("summary", "", who(seat) + ": its log"));
        d.appendChild(el("pre", "", mine[String(seat)] || "(not embedded in this report)"));
        box.appendChild(d);
      });
      box.dataset.game = e.i;
    });
  }
  function showLog(index, seat) {
    return openGame(index, 0).then(function (opened) {
      var d = $("log-" + index + "-" + seat);
      if (opened && d) { d.open = true; d.scrollIntoView(); }
      return opened && !!d;
    });
  }
  function entry(index) {
    for (var i = 0; i < INDEX.length; i++) { if (INDEX[i].i === index) { return INDEX[i]; } }
    return null;
  }
  function openGame(index, stepNo) {
    var e = entry(index);
    if (!e) { return Promise.resolve(false); }
    state.wanted = index;
    $("viewer").dataset.loading = String(index);
    var position = INDEX.filter(function (x) { return x.c === e.c; }).indexOf(e);
    return chunk(e.c).then(function (games) {
      if (state.wanted !== index) { return false; }  // another game was asked for meanwhile
      state.game = e;
      state.steps = games[position];
      $("viewer").dataset.loading = "";
      markCurrent();
      go(stepNo || 0);
      return renderLogs(e).then(function () { return true; });
    }, function (err) {
      $("viewer").dataset.loading = "";
      $("message").textContent = String(err.message || err);
      return false;
    });
  }

  /* ------------------------------------------------------------ search and filters */
  var F = { text: $("f-text"), player: $("f-player"), seat: $("f-seat"), rules: $("f-rules"),
            size: $("f-size"), bhabhi: $("f-bhabhi"), faults: $("f-faults") };
  function distinct(values) {
    var seen = {}, out = [];
    values.forEach(function (v) { if (!seen.hasOwnProperty(v)) { seen[v] = true; out.push(v); } });
    return out;
  }
  function addOptions(select, values, label) {
    values.forEach(function (v) {
      var opt = el("option", "", label ? label(v) : String(v));
      opt.value = String(v);
      select.appendChild(opt);
    });
  }
  var names = distinct([].concat.apply([], INDEX.map(function (g) { return g.names; }))).sort();
  var sizes = distinct(INDEX.map(function (g) { return g.k; })).sort(function (a, b) { return a - b; });
  addOptions(F.player, names);
  addOptions(F.seat, Array.apply(null, Array(sizes[sizes.length - 1])).map(function (_, i) { return i; }),
             function (s) { return "at seat " + s; });
  addOptions(F.rules, distinct(INDEX.map(function (g) { return g.rules; })).sort());
  addOptions(F.size, sizes, function (k) { return k + " players"; });
  addOptions(F.bhabhi, names, function (n) { return "Bhabhi: " + n; });
  addOptions(F.bhabhi, ["(draw)"], function () { return "a draw (no Bhabhi)"; });

  function matches(g, f) {
    var seat = g.names.indexOf(f.player);
    if (f.player && (seat < 0 || (f.seat !== "" && seat !== Number(f.seat)))) { return false; }
    if (f.rules && g.rules !== f.rules) { return false; }
    if (f.size && g.k !== Number(f.size)) { return false; }
    if (f.bhabhi === "(draw)" && !g.draw) { return false; }
    if (f.bhabhi && f.bhabhi !== "(draw)" && (g.loser === null || g.names[g.loser] !== f.bhabhi)) { return false; }
    if (f.faults === "yes" && !g.faults) { return false; }
    if (f.faults === "no" && g.faults) { return false; }
    if (f.text) {
      var hay = ["#" + g.i, String(g.i), g.id, g.seed, g.title].concat(g.names).join(" ").toLowerCase();
      return f.text.split(/\s+/).every(function (word) { return hay.indexOf(word) >= 0; });
    }
    return true;
  }
  function current() {
    return { text: F.text.value.trim().toLowerCase(), player: F.player.value, seat: F.seat.value,
             rules: F.rules.value, size: F.size.value, bhabhi: F.bhabhi.value, faults: F.faults.value };
  }
  function filter(reset) {
    F.seat.disabled = !F.player.value;
    if (!F.player.value) { F.seat.value = ""; }
    var f = current();
    state.matches = INDEX.filter(function (g) { return matches(g, f); });
    if (reset) { state.shown = state.page; }
    var list = $("game-list");
    list.textContent = "";
    state.matches.slice(0, state.shown).forEach(function (g) {
      var li = el("li");
      var b = el("button", "game-pick", g.title + " \u00b7 " + g.names.join(", ") +
                 (g.faults ? " \u00b7 " + g.faults + " fault(s)" : ""));
      b.type = "button";
      b.dataset.game = g.i;
      b.addEventListener("click", function () { openGame(g.i, 0); });
      li.appendChild(b);
      list.appendChild(li);
    });
    var shown = Math.min(state.shown, state.matches.length);
    $("game-count").textContent = state.matches.length + " of " + INDEX.length + " embedded games match" +
      (shown < state.matches.length ? "; the first " + shown + " are listed" : "");
    $("game-more").hidden = shown >= state.matches.length;
    markCurrent();
  }
  function markCurrent() {
    Array.prototype.forEach.call(document.querySelectorAll("#game-list .game-pick"), function (b) {
      b.classList.toggle("current", state.game !== null && Number(b.dataset.game) === state.game.i);
    });
  }
  F.text.addEventListener("input", function () { filter(true); });
  ["player", "seat", "rules", "size", "bhabhi", "faults"].forEach(function (k) {
    F[k].addEventListener("change", function () { filter(true); });
  });
  $("f-clear").addEventListener("click", function () {
    Object.keys(F).forEach(function (k) { F[k].value = ""; });
    filter(true);
  });
  $("game-more").addEventListener("click", function () { state.shown += state.page; filter(false); });

  $("first").addEventListener("click", function () { go(0); });
  $("last").addEventListener("click", function () { go(state.steps.length - 1); });
  $("prev").addEventListener("click", function () { go(state.step - 1); });
  $("next").addEventListener("click", function () { go(state.step + 1); });
  $("prev-trick").addEventListener("click", prevTrick);
  $("next-trick").addEventListener("click", nextTrick);
  $("step-range").addEventListener("input", function (e) { go(Number(e.target.value)); });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || !state.steps) { return; }
    if (e.key === "ArrowRight") { if (e.shiftKey) { nextTrick(); } else { go(state.step + 1); } e.preventDefault(); }
    else if (e.key === "ArrowLeft") { if (e.shiftKey) { prevTrick(); } else { go(state.step - 1); } e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(state.steps.length - 1); e.preventDefault(); }
  });
  Array.prototype.forEach.call(document.querySelectorAll(".game-link"), function (a) {
    if (!entry(Number(a.dataset.game))) {
      a.removeAttribute("href");
      a.title = "not embedded in this report; see `arena replay`";
      return;
    }
    a.addEventListener("click", function () { openGame(Number(a.dataset.game), 0); });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".log-link"), function (a) {
    if (!entry(Number(a.dataset.game))) {
      a.removeAttribute("href");
      a.title = "not embedded in this report; see `arena logs`";
      return;
    }
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      history.pushState(null, "", a.getAttribute("href"));
      showLog(Number(a.dataset.game), Number(a.dataset.seat));
    });
  });
  function fromHash() {
    var m = /^#game-(\d+)(?:-log-(\d+))?$/.exec(location.hash);
    if (m && entry(Number(m[1]))) {
      $("browser").scrollIntoView();
      return m[2] === undefined ? openGame(Number(m[1]), 0) : showLog(Number(m[1]), Number(m[2]));
    }
    return null;
  }
  window.addEventListener("hashchange", fromHash);
  window.arenaBrowser = { open: openGame, showLog: showLog, go: go, state: state, index: INDEX, filter: filter,
                          step: function () { return state.steps && state.steps[state.step]; } };
  filter(true);
  if (!fromHash()) { openGame(INDEX[0].i, 0); }
})();
