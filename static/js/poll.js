// Polls a small JSON status view every 2 s for status.js and summary.js. A dropped network is tried again at the
// next tick; a 4xx (logged out, or the work is gone) calls onGone and stops, since polling cannot help; every status
// goes to onStatus, which returns true once the work has finished, and polling then stops.
window.pollStatus = function (url, onStatus, onGone) {
  "use strict";
  const INTERVAL_MS = 2000;

  async function poll() {
    let response;
    try {
      response = await fetch(url, {headers: {Accept: "application/json"}, cache: "no-store"});
    } catch (error) {  // the network dropped: try again at the next tick
      window.setTimeout(poll, INTERVAL_MS);
      return;
    }
    if (response.status >= 400 && response.status < 500) {
      onGone();
      return;
    }
    if (response.ok && onStatus(await response.json())) return;
    window.setTimeout(poll, INTERVAL_MS);
  }

  window.setTimeout(poll, INTERVAL_MS);
};
