// Keeps a progress bar up to date while a run or an upload is being processed.
// The element carrying data-status-url names a small JSON view, which poll.js polls;
// the page reloads once the work has finished, to show the results.
(function () {
  "use strict";
  const box = document.querySelector("[data-status-url]");
  if (!box) return;
  const bar = box.querySelector("progress");
  const count = box.querySelector("[data-status-count]");
  const message = box.querySelector("[data-status-message]");

  function show(status) {
    if (status.finished) {
      window.location.reload();
      return true;
    }
    if (status.progress_total) {
      bar.max = status.progress_total;
      bar.value = status.progress_done;
      count.textContent = status.progress_done + " of " + status.progress_total;
    } else {
      bar.removeAttribute("value");  // indeterminate until the total is known
    }
    message.textContent = status.progress_message || status.status;
    return false;
  }

  window.pollStatus(box.dataset.statusUrl, show, function () {
    message.textContent = "Progress is no longer available: reload the page.";
  });
})();
