/* Sortable tables: click a column name (again to reverse), or use the table's "sort by" select.
   A cell's data-sort holds its exact value (a number, or text for a data-type="text" column); an empty
   one (no value) sorts last either way. Numbers sort largest first on the first click, text A to Z. */
(function () {
  "use strict";

  function cellValue(row, col, numeric) {
    var raw = row.cells[col].dataset.sort;
    if (raw === undefined) { raw = row.cells[col].textContent; }
    if (raw === "") { return null; }
    return numeric ? Number(raw) : raw.toLowerCase();
  }

  function sortTable(table, col, descending) {
    var head = table.tHead.rows[0].cells;
    var numeric = head[col].dataset.type !== "text";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r.dataset.initial = r.dataset.initial || String(i); });
    rows.sort(function (a, b) {
      var x = cellValue(a, col, numeric), y = cellValue(b, col, numeric);
      if (x === null || y === null) {
        return x === y ? Number(a.dataset.initial) - Number(b.dataset.initial) : (x === null ? 1 : -1);
      }
      var order = x < y ? -1 : x > y ? 1 : 0;
      return (descending ? -order : order) || Number(a.dataset.initial) - Number(b.dataset.initial);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(head, function (th, i) {
      if (i === col) { th.setAttribute("aria-sort", descending ? "descending" : "ascending"); }
      else { th.removeAttribute("aria-sort"); }
    });
    table.dataset.sortColumn = String(col);
    table.dataset.sortDescending = descending ? "1" : "";
    var select = document.getElementById(table.dataset.sortSelect || "");
    if (select) { select.value = String(col); }
  }

  function firstDescending(table, col) {
    return table.tHead.rows[0].cells[col].dataset.type !== "text" && col !== 0;
  }

  function toggle(table, col) {
    var same = table.dataset.sortColumn === String(col);
    sortTable(table, col, same ? !table.dataset.sortDescending : firstDescending(table, col));
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.classList.add("sorts");
      th.addEventListener("click", function () { toggle(table, col); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { toggle(table, col); e.preventDefault(); }
      });
    });
    table.dataset.sortColumn = "0";
    var select = document.getElementById(table.dataset.sortSelect || "");
    if (select) {
      select.addEventListener("change", function () {
        var col = Number(select.value);
        sortTable(table, col, firstDescending(table, col));
      });
    }
    var reverse = document.getElementById(table.dataset.sortReverse || "");
    if (reverse) {
      reverse.addEventListener("click", function () {
        sortTable(table, Number(table.dataset.sortColumn || 0), !table.dataset.sortDescending);
      });
    }
  });
  window.arenaTables = { sort: sortTable };
})();
