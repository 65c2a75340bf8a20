"""In a real headless Chromium, a member cancels a running sweep with its page's button and tries it again with the
next one: real forms with their security tokens, under the site's Content-Security-Policy."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.conftest import PASSWORD
from workloads.models import GroupSweep


def _button(driver, words: str):
    return driver.find_element(By.XPATH, f"//form//button[normalize-space()='{words}']")


def test_the_sweep_page_cancels_then_retries_the_sweep(browser, live_server, alice, workload):
    sweep = GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                      status="running", progress_done=2, progress_total=6,
                                      settings={"window": 64, "topk": 64, "global_blocks": 1, "indexer": "pooled",
                                                "gate_points": 5})
    browser.get(live_server.url + "/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys("alice")
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    WebDriverWait(browser, 10).until(seen.url_to_be(live_server.url + "/"))

    browser.get(f"{live_server.url}/sweeps/{sweep.pk}/")
    assert "2 of 6 questions asked" in browser.find_element(By.TAG_NAME, "body").text
    _button(browser, "Cancel the sweep").click()
    WebDriverWait(browser, 10).until(lambda d: "Cancelled. A running sweep stops" in d.page_source)
    sweep.refresh_from_db()
    assert sweep.status == "cancelled"
    assert not browser.find_elements(By.XPATH, "//button[normalize-space()='Cancel the sweep']")

    _button(browser, "Try the sweep again").click()
    WebDriverWait(browser, 10).until(lambda d: "Queued again at the same group sizes and settings." in d.page_source)
    sweep.refresh_from_db()
    assert (sweep.status, sweep.progress_done) == ("queued", 0)
    assert _button(browser, "Cancel the sweep").is_displayed()
    refusals = [e["message"] for e in browser.get_log("browser") if "Refused to" in e["message"]]
    assert refusals == []
