"""In a real headless Chromium on a live server: log in, upload the sample workload, watch a comparison's progress
bar move, see its plotly charts drawn as SVG, and download the run's PDF summary."""

from __future__ import annotations

import shutil
import time

import pypdfium2
import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.conftest import MODEL, PASSWORD
from tests.workloads.live import ROOT, wait_for
from workloads.models import ComparisonRun

pytestmark = [pytest.mark.model, pytest.mark.worker]

# The whole sample (four documents, about 2,000 tokens) with two of its probes and 512-token chunks:
# 12 model calls, about a minute on an idle 2-core CPU, so the whole sample is used rather than a subset.
SAMPLE = sorted((ROOT / "samples" / "workload").glob("*.txt"))
PROBES = [("How much is the monthly service fee under the logistics agreement?", "$4,500"),
          ("What percentage is the fuel surcharge?", "3.5")]
SETTINGS = {"group_size": 4, "window": 256, "topk": 256, "global_blocks": 2, "chunk_tokens": 512,
            "chunk_overlap": 32, "gate_points": 5}
STRATEGIES = {"chunked", "full_index_share"}
# status.js polls every 2 s; reading the bar ten times as often sees every value it shows.
PROGRESS_SCRIPT = """
const bar = document.getElementById("progress-bar");
const status = document.querySelector("h1 .status");
return {status: status && status.textContent.trim(), value: bar && bar.position >= 0 ? bar.value : null};
"""


def _fill(driver, field_id: str, value) -> None:
    field = driver.find_element(By.ID, field_id)
    field.clear()
    field.send_keys(str(value))


def _submit(form) -> None:
    """Submit and wait for the next page: reading the old page while it unloads fails in Chromium with "Node with
    given id does not belong to the document", a WebDriverException that selenium's waits do not retry."""
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(form.parent, 30, ignored_exceptions=(WebDriverException,)).until(seen.staleness_of(form))


def _open(driver, summary: str):
    """Open a <details> by its summary's text and return it: its fields are not interactable while closed."""
    details = driver.find_element(By.XPATH, f"//details[summary[normalize-space()='{summary}']]")
    details.find_element(By.TAG_NAME, "summary").click()
    return details


def _log_in(driver, base: str) -> None:
    driver.get(base + "/accounts/login/")
    _fill(driver, "id_username", "alice")
    _fill(driver, "id_password", PASSWORD)
    _submit(driver.find_element(By.CSS_SELECTOR, "form.form"))
    WebDriverWait(driver, 10).until(seen.url_to_be(base + "/"))


def _create_workload(driver, base: str) -> str:
    driver.get(base + "/workloads/new/")
    _fill(driver, "id_name", "Northwind sample")
    Select(driver.find_element(By.ID, "id_kind")).select_by_value("contracts")
    _fill(driver, "id_expected_volume", 40)
    Select(driver.find_element(By.ID, "id_target_model")).select_by_value(MODEL)
    Select(driver.find_element(By.ID, "id_api")).select_by_visible_text(
        f"example-api {MODEL} — $0.10 in / $0.30 out per M tokens")
    _submit(driver.find_element(By.CSS_SELECTOR, "main form.form"))
    WebDriverWait(driver, 10).until(seen.url_matches(r"/workloads/\d+/$"))
    return driver.current_url


def _upload_sample(driver) -> None:
    # One newline-separated string selects several files in a multiple file input.
    driver.find_element(By.ID, "id_files").send_keys("\n".join(str(p) for p in SAMPLE))
    _submit(driver.find_element(By.ID, "id_files").find_element(By.XPATH, "./ancestor::form"))
    WebDriverWait(driver, 10).until(seen.url_matches(r"/uploads/\d+/$"))
    # The page follows the extraction with its progress bar and reloads once it is done.
    WebDriverWait(driver, 180, poll_frequency=0.5).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.kept")) == len(SAMPLE))
    kept = {row.find_element(By.TAG_NAME, "th").text for row in driver.find_elements(By.CSS_SELECTOR, "tr.kept")}
    assert kept == {p.name for p in SAMPLE}


def _add_probes(driver, workload_url: str) -> None:
    for question, answer in PROBES:
        driver.get(workload_url)
        form = _open(driver, "Add a probe").find_element(By.TAG_NAME, "form")
        _fill(driver, "id_question", question)
        _fill(driver, "id_answer", answer)
        _submit(form)
        WebDriverWait(driver, 10).until(seen.text_to_be_present_in_element((By.ID, "main"), "Added the probe."))
    assert all(question in driver.page_source for question, _ in PROBES)


def _start_comparison(driver, workload_url: str) -> str:
    driver.get(workload_url)
    form = _open(driver, "Start a comparison").find_element(By.TAG_NAME, "form")
    for box in form.find_elements(By.NAME, "strategies"):
        if box.is_selected() != (box.get_attribute("value") in STRATEGIES):
            box.click()
    for name, value in SETTINGS.items():
        _fill(driver, f"id_{name}", value)
    Select(driver.find_element(By.ID, "id_indexer")).select_by_value("exact")
    _submit(form)
    WebDriverWait(driver, 10).until(seen.url_matches(r"/runs/\d+/$"))
    return driver.current_url


def _watch_progress(driver, timeout: float = 600) -> tuple[list[int], str]:
    """Read the progress bar until the run page stops showing a running run; return the values seen, in order."""
    values, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = driver.execute_script(PROGRESS_SCRIPT)
        if state["value"] is not None and (not values or values[-1] != state["value"]):
            values.append(state["value"])
        if state["status"] not in (None, "queued", "running"):
            return values, state["status"]
        time.sleep(0.15)
    raise AssertionError(f"the run page still showed a running run after {timeout:.0f} s; progress seen: {values}")


def _assert_charts_drawn(driver) -> list[str]:
    assert driver.execute_script("return typeof window.Plotly") == "object", "plotly.js did not load from static"
    charts = driver.find_elements(By.CSS_SELECTOR, "[data-chart]")
    assert charts, "the run page has no chart"
    for chart in charts:
        WebDriverWait(driver, 30).until(lambda d, c=chart: c.find_elements(By.CSS_SELECTOR, "svg.main-svg"))
    return [chart.get_attribute("data-chart") for chart in charts]


def _link_to_summary(driver, timeout: float = 300):
    """The run page's download link, once the worker has made the PDF: the page shows it by itself while it
    follows the export (summary.js), and needs a reload once it no longer does."""
    def shown(d):
        link = d.find_element(By.LINK_TEXT, "Download the PDF summary")
        if link.is_displayed():
            return link
        state = d.find_element(By.CSS_SELECTOR, "[data-summary-state]").text
        assert "failed" not in state, state
        if not d.find_elements(By.CSS_SELECTOR, "[data-summary-status-url]"):
            d.refresh()
        return None
    return WebDriverWait(driver, timeout, poll_frequency=1).until(shown)


def _downloaded(folder, timeout: float = 60):
    """The one finished download: Chromium writes to a .crdownload file, then renames it."""
    def done():
        files = list(folder.iterdir())
        return len(files) == 1 and not files[0].name.endswith(".crdownload") and files[0]
    return wait_for(done, timeout, "the PDF download", every=0.2)


def test_a_user_compares_the_sample_workload_and_downloads_its_summary(
        browser, live_server, alice, prices, celery_worker, downloads, artefacts):
    started = time.monotonic()
    _log_in(browser, live_server.url)
    workload_url = _create_workload(browser, live_server.url)
    browser.get(workload_url)
    _upload_sample(browser)
    _add_probes(browser, workload_url)
    run_url = _start_comparison(browser, workload_url)

    progress, status = _watch_progress(browser)
    run = ComparisonRun.objects.get()
    assert status == "succeeded", run.error
    assert run_url == f"{live_server.url}/runs/{run.pk}/"
    assert set(run.strategies) == STRATEGIES and run.chunk_tokens == 512
    # The bar moved: several values, each above the one before, none past the run's planned calls.
    assert len(progress) >= 2 and progress == sorted(set(progress)), progress
    assert progress[-1] <= run.progress_total, (progress, run.progress_total)

    assert set(_assert_charts_drawn(browser)) == {"flop-breakdown", "cost-vs-quality"}
    charts_at = time.monotonic()

    browser.find_element(By.XPATH, "//button[normalize-space()='Export PDF summary']").click()
    _link_to_summary(browser).click()
    pdf = _downloaded(downloads)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF"), data[:40]
    assert len(pypdfium2.PdfDocument(data)) >= 1
    assert run.summaries.get().status == "done"

    browser.save_screenshot(str(artefacts / "run-page.png"))
    shutil.copyfile(pdf, artefacts / "run-summary.pdf")
    print(f"progress values seen: {progress}; {charts_at - started:.0f} s up to the charts, "
          f"{time.monotonic() - charts_at:.0f} s for the PDF")
