// Follows a PDF summary being made on the run page: polls the element's data-summary-status-url
// every 2 s and, once it is done, shows the download link without a reload (status.js's pattern).
(function () {
  "use strict";
  const INTERVAL_MS = 2000;
  const panel = document.querySelector("[data-summary-status-url]");
  if (!panel) return;
  const state = panel.querySelector("[data-summary-state]");
  const link = panel.querySelector("[data-summary-link]");
  const WORDS = {queued: "A PDF summary is queued.", running: "The PDF summary is being made."};

  async function poll() {
    let response;
    try {
      response = await fetch(panel.dataset.summaryStatusUrl, {headers: {Accept: "application/json"}, cache: "no-store"});
    } catch (error) {  // the network dropped: try again at the next tick
      window.setTimeout(poll, INTERVAL_MS);
      return;
    }
    if (response.status >= 400 && response.status < 500) {
      state.textContent = "The summary's progress is no longer available: reload the page.";
      return;
    }
    if (response.ok) {
      const status = await response.json();
      if (status.status === "done") {
        state.textContent = "PDF summary ready, " + status.pages + (status.pages === 1 ? " page." : " pages.");
      } else if (status.status === "failed") {
        state.textContent = "The export failed: " + status.error;
      } else {
        state.textContent = WORDS[status.status] || state.textContent;
      }
      if (status.download_url) {
        link.querySelector("a").href = status.download_url;
        link.hidden = false;
      }
      if (status.finished) return;
    }
    window.setTimeout(poll, INTERVAL_MS);
  }

  window.setTimeout(poll, INTERVAL_MS);
})();
