// Draws every chart the server described: <div data-chart="name" data-figure="id of a json_script block">.
// The figures are built by workloads/reporting/page_charts.py; this file only hands them to plotly.js.
(function () {
  "use strict";
  for (const element of document.querySelectorAll("[data-chart][data-figure]")) {
    const source = document.getElementById(element.dataset.figure);
    if (!source) continue;
    const figure = JSON.parse(source.textContent);
    Plotly.newPlot(element, figure.data, figure.layout, {responsive: true, displaylogo: false});
  }
})();
