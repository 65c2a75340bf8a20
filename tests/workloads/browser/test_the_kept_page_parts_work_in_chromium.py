"""In a real headless Chromium, under the site's Content-Security-Policy, the parts of pages kept as HTML
(workloads.views.run_parts, the workload page's fragments) work as drawn ones did: a document's Delete button in the
kept list submits the page's one form, with its CSRF token, to the document's own address, and a run page read back
from the cache draws its charts."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.browser.test_charts_draw_under_the_content_security_policy import _refusals
from tests.workloads.conftest import PASSWORD
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import Document


def test_a_kept_list_deletes_a_document_and_a_kept_run_page_draws_its_charts(browser, live_server, bob, workload,
                                                                              probe, prices):
    document = Document.objects.create(workload=workload, name="msa.txt", text="The notice period is 90 days.",
                                       tokens=9, lines=1, size_bytes=29)
    run = make_run(workload, standard_report(probe))
    browser.get(live_server.url + "/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys("bob")
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    WebDriverWait(browser, 10).until(seen.url_to_be(live_server.url + "/"))

    workload_page = f"{live_server.url}/workloads/{workload.pk}/"
    for _ in range(2):  # the second view reads the list back as HTML
        browser.get(workload_page)
    browser.find_element(By.CSS_SELECTOR, 'button[aria-label="Delete msa.txt"]').click()
    WebDriverWait(browser, 10).until(lambda d: "Deleted" in d.find_element(By.CSS_SELECTOR, ".messages").text)
    assert not Document.objects.filter(pk=document.pk).exists()
    assert not browser.find_elements(By.CSS_SELECTOR, 'button[aria-label="Delete msa.txt"]')

    for _ in range(2):  # drawn, then read back
        browser.get(f"{live_server.url}/runs/{run.pk}/")
        assert WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-chart] svg.main-svg"))
    assert _refusals(browser) == []
