// The leaderboard follows the games as they are stored: /api/table every two seconds.
// Every text is put in as text (textContent), never as markup.
(function () {
  "use strict";
  function recentItem(g) {
    const li = document.createElement("li"), a = document.createElement("a");
    a.href = "/game/" + g.i;
    a.textContent = "#" + g.i;
    li.append(a, " " + g.rules + " \u00b7 " + g.names.join(", ") + " \u00b7 Bhabhi: " + g.bhabhi);
    return li;
  }
  function row(cells, status, headers) {
    const tr = document.createElement("tr");
    cells.forEach((cell, i) => {
      const td = document.createElement("td");
      td.dataset.label = headers[i];
      if (i === 1) {
        const a = document.createElement("a");
        a.href = "/bot/" + encodeURIComponent(cell);
        a.textContent = cell;
        td.className = "player";
        td.append(a);
        if (status !== "active") {
          const tag = document.createElement("span");
          tag.className = "ver status";
          tag.textContent = status;
          td.append(" ", tag);
        }
      } else {
        td.textContent = cell;
      }
      tr.append(td);
    });
    return tr;
  }
  async function refresh() {
    try {
      const data = await (await fetch("/api/table", {cache: "no-store"})).json();
      document.getElementById("games").textContent = data.games;
      document.querySelector("#board tbody").replaceChildren(
        ...data.rows.map((cells, i) => row(cells, data.statuses[i], data.headers)));
      if (data.recent.length) document.getElementById("recent").replaceChildren(...data.recent.map(recentItem));
    } catch (e) { /* the server restarts: try again at the next tick */ }
  }
  setInterval(refresh, 2000);
})();
