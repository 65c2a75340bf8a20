// Follows a PDF summary being made on the run page: poll.js polls the element's data-summary-status-url
// and, once the summary is done, this shows the download link without a reload.
(function () {
  "use strict";
  const panel = document.querySelector("[data-summary-status-url]");
  if (!panel) return;
  const state = panel.querySelector("[data-summary-state]");
  const link = panel.querySelector("[data-summary-link]");
  const cancel = panel.querySelector("[data-summary-cancel]");
  const WORDS = {queued: "A PDF summary is queued.", running: "The PDF summary is being made."};

  function show(status) {
    if (status.status === "done") {
      state.textContent = "PDF summary ready, " + status.pages + (status.pages === 1 ? " page." : " pages.");
    } else if (status.status === "failed") {
      state.textContent = "The export failed: " + status.error;
    } else if (status.status === "cancelled") {
      state.textContent = "The export was cancelled.";
    } else {
      state.textContent = WORDS[status.status] || state.textContent;
    }
    if (status.download_url) {
      link.querySelector("a").href = status.download_url;
      link.hidden = false;
    }
    if (status.finished && cancel) cancel.hidden = true;
    return status.finished;
  }

  window.pollStatus(panel.dataset.summaryStatusUrl, show, function () {
    state.textContent = "The summary's progress is no longer available: reload the page.";
  });
})();
