// Draws every chart the server described: <div data-chart="name" data-figure="id of a json_script block">.
// The figures are built by workloads/reporting/page_charts.py; this file only hands them to plotly.js.
(function () {
  "use strict";
  for (const element of document.querySelectorAll("[data-chart][data-figure]")) {
    const source = document.getElementById(element.dataset.figure);
    if (!source) continue;
    const figure = JSON.parse(source.textContent);
    // No toolbar: it sat over the legend's first entry, and the charts need no zoom or export of their own (the run's
    // figures download as CSV and JSON).
    Plotly.newPlot(element, figure.data, figure.layout, {responsive: true, displayModeBar: false});
  }
})();
