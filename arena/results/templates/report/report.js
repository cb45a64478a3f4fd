/* The game browser: renders the states precomputed in Python (arena/report_games.py). */
(function () {
  "use strict";
  var GAMES = JSON.parse(document.getElementById("games-data").textContent);
  var SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SUIT_WORD = ["clubs", "diamonds", "hearts", "spades"];
  var SUIT_LETTER = "CDHS";
  var PLACE = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"];
  var state = { game: 0, step: 0 };

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

  function game() { return GAMES[state.game]; }
  function step() { return game().steps[state.step]; }
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
    var g = game(), s = step(), prev = state.step > 0 ? g.steps[state.step - 1] : null;
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
    range.max = g.steps.length - 1;
    range.value = state.step;
    $("step-label").textContent = "step " + state.step + " / " + (g.steps.length - 1) + " \u00b7 trick " + s.n;
    var viewer = $("viewer");
    viewer.dataset.game = g.i;
    viewer.dataset.step = state.step;
    viewer.dataset.event = s.ev;
    viewer.dataset.kind = s.k;
    viewer.dataset.turn = s.turn === undefined ? "" : s.turn;
  }

  function go(n) {
    var last = game().steps.length - 1;
    state.step = Math.max(0, Math.min(last, n));
    render();
  }
  function isTrickEnd(s) { return s.k === "clean" || s.k === "pickup" || s.k === "end"; }
  function nextTrick() {
    var steps = game().steps;
    for (var i = state.step + 1; i < steps.length; i++) { if (isTrickEnd(steps[i])) { return go(i); } }
    go(steps.length - 1);
  }
  function prevTrick() {
    var steps = game().steps;
    for (var i = state.step - 1; i > 0; i--) { if (isTrickEnd(steps[i])) { return go(i); } }
    go(0);
  }
  function openGame(index, stepNo) {
    for (var i = 0; i < GAMES.length; i++) {
      if (GAMES[i].i === index) {
        state.game = i;
        $("game-select").value = String(i);
        go(stepNo || 0);
        return true;
      }
    }
    return false;
  }

  var select = $("game-select");
  GAMES.forEach(function (g, i) {
    var opt = el("option", "", g.title + (g.faults ? " \u00b7 faults" : ""));
    opt.value = String(i);
    select.appendChild(opt);
  });
  select.addEventListener("change", function () { state.game = Number(select.value); go(0); });
  $("first").addEventListener("click", function () { go(0); });
  $("last").addEventListener("click", function () { go(game().steps.length - 1); });
  $("prev").addEventListener("click", function () { go(state.step - 1); });
  $("next").addEventListener("click", function () { go(state.step + 1); });
  $("prev-trick").addEventListener("click", prevTrick);
  $("next-trick").addEventListener("click", nextTrick);
  $("step-range").addEventListener("input", function (e) { go(Number(e.target.value)); });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") { return; }
    if (e.key === "ArrowRight") { if (e.shiftKey) { nextTrick(); } else { go(state.step + 1); } e.preventDefault(); }
    else if (e.key === "ArrowLeft") { if (e.shiftKey) { prevTrick(); } else { go(state.step - 1); } e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(game().steps.length - 1); e.preventDefault(); }
  });
  Array.prototype.forEach.call(document.querySelectorAll(".game-link"), function (a) {
    var index = Number(a.dataset.game);
    if (!GAMES.some(function (g) { return g.i === index; })) {
      a.removeAttribute("href");
      a.title = "not embedded in this report; see `arena replay`";
      return;
    }
    a.addEventListener("click", function () { openGame(index, 0); });
  });
  window.arenaBrowser = { open: openGame, go: go, state: state, games: GAMES };
  render();
})();
