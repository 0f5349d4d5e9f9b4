/**
 * The one script of the report and dashboard pages, inlined (a hash in the offline file's
 * Content-Security-Policy, a nonce on the served page): searching, filtering and sorting the
 * insights table. Without it the page still shows every figure and the full table.
 */
export const REPORT_SCRIPT = `(function () {
  'use strict';
  var table = document.getElementById('insights-table');
  if (!table) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var search = document.getElementById('insight-search');
  var status = document.getElementById('insight-status');
  var count = document.getElementById('insight-count');
  var controls = document.getElementById('insight-controls');
  if (controls) controls.hidden = false;
  function apply() {
    var query = search.value.trim().toLowerCase();
    var wanted = status.value;
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (query === '' || row.getAttribute('data-text').indexOf(query) !== -1) &&
        (wanted === '' || row.getAttribute('data-status') === wanted);
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = shown + ' of ' + rows.length + ' insights shown';
  }
  search.addEventListener('input', apply);
  status.addEventListener('change', apply);
  var headers = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(table.querySelectorAll('thead button[data-type]'), function (button) {
    button.addEventListener('click', function () {
      var th = button.parentNode;
      var index = th.cellIndex;
      var numeric = button.getAttribute('data-type') === 'number';
      var direction = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      Array.prototype.forEach.call(headers, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', direction);
      var sorted = Array.prototype.slice.call(tbody.rows).sort(function (a, b) {
        var x = a.cells[index].getAttribute('data-value') || '';
        var y = b.cells[index].getAttribute('data-value') || '';
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return direction === 'ascending' ? order : -order;
      });
      sorted.forEach(function (row) { tbody.appendChild(row); });
      count.textContent = count.textContent.replace(/;.*$/, '') + '; sorted by ' + button.textContent.trim() + ', ' + direction;
    });
  });
  apply();
})();`;
