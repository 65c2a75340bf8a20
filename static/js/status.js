// Keeps a progress bar up to date while a run or an upload is being processed.
// The element carrying data-status-url names a small JSON view; it is polled every 2 s,
// and the page reloads once the work has finished, to show the results.
(function () {
  "use strict";
  const INTERVAL_MS = 2000;
  const box = document.querySelector("[data-status-url]");
  if (!box) return;
  const bar = box.querySelector("progress");
  const count = box.querySelector("[data-status-count]");
  const message = box.querySelector("[data-status-message]");

  function show(status) {
    if (status.progress_total) {
      bar.max = status.progress_total;
      bar.value = status.progress_done;
      count.textContent = status.progress_done + " of " + status.progress_total;
    } else {
      bar.removeAttribute("value");  // indeterminate until the total is known
    }
    message.textContent = status.progress_message || status.status;
  }

  async function poll() {
    let response;
    try {
      response = await fetch(box.dataset.statusUrl, {headers: {Accept: "application/json"}, cache: "no-store"});
    } catch (error) {  // the network dropped: try again at the next tick
      window.setTimeout(poll, INTERVAL_MS);
      return;
    }
    if (response.status >= 400 && response.status < 500) {  // logged out, or gone: polling cannot help
      message.textContent = "Progress is no longer available: reload the page.";
      return;
    }
    if (response.ok) {
      const status = await response.json();
      if (status.finished) {
        window.location.reload();
        return;
      }
      show(status);
    }
    window.setTimeout(poll, INTERVAL_MS);
  }

  window.setTimeout(poll, INTERVAL_MS);
})();
