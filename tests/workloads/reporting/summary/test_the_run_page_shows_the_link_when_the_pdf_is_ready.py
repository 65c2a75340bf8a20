"""In headless Chromium, the run page follows a queued export and shows the download link by itself, with no reload."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.conftest import PASSWORD
from workloads.models import Summary


def test_the_link_appears_once_the_summary_is_done(browser, live_server, alice, this_quarter):
    summary = Summary.objects.create(run=this_quarter, requested_by=alice)
    browser.get(live_server.url + "/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys("alice")
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    WebDriverWait(browser, 10).until(seen.url_to_be(live_server.url + "/"))
    browser.get(f"{live_server.url}/runs/{this_quarter.pk}/")
    browser.execute_script("window.notReloaded = true;")
    link = browser.find_element(By.CSS_SELECTOR, "[data-summary-link] a")
    assert not link.is_displayed()
    assert "queued" in browser.find_element(By.CSS_SELECTOR, "[data-summary-state]").text

    Summary.objects.filter(pk=summary.pk).update(status=Summary.Status.DONE, pdf=b"%PDF-1.7", pages=3)

    WebDriverWait(browser, 15).until(lambda d: link.is_displayed())
    assert browser.execute_script("return window.notReloaded === true;")
    assert browser.find_element(By.CSS_SELECTOR, "[data-summary-state]").text == "PDF summary ready, 3 pages."
    assert link.text == "Download the PDF summary"
    assert link.get_attribute("href") == f"{live_server.url}/runs/{this_quarter.pk}/summary.pdf"
