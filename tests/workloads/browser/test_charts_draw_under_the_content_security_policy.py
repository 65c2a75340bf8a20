"""In a real headless Chromium, under the site's Content-Security-Policy: plotly draws the run page's charts, and the
browser refuses nothing on the pages a member opens (a refusal shows in the console)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.conftest import PASSWORD
from tests.workloads.pages.conftest import make_run, standard_report


def _refusals(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]]


def test_plotly_draws_the_charts_and_the_browser_refuses_nothing(browser, live_server, alice, workload, probe,
                                                                 prices):
    run = make_run(workload, standard_report(probe))
    browser.get(live_server.url + "/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys("alice")
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    WebDriverWait(browser, 10).until(seen.url_to_be(live_server.url + "/"))
    assert _refusals(browser) == []

    for path in (f"/runs/{run.pk}/", f"/workloads/{workload.pk}/", "/api/docs"):
        browser.get(live_server.url + path)
        if path.startswith("/runs/"):
            drawn = WebDriverWait(browser, 20).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "[data-chart] svg.main-svg"))
            assert drawn
        if path == "/api/docs":
            WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".swagger-ui .opblock"))
        assert _refusals(browser) == [], path  # each names the hash a changed plotly.js would need
