"""In a real headless Chromium on a live server (issue 38): an admin registers an OpenAI-compatible endpoint (a real
`python -m engine serve` process with the test model), starts a comparison of the sample workload read by this
worker's engine and by the endpoint, reads both side by side with one recommendation, sees what the endpoint billed,
and downloads its run's PDF. The key is on no page the browser was shown. (The sample's upload through the browser
is the other Chromium test's.)"""

from __future__ import annotations

import datetime as dt

import pypdfium2
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from tests.workloads.browser.test_a_user_compares_the_sample_workload_in_chromium import (
    _downloaded, _fill, _link_to_summary, _log_in, _open, _submit)
from tests.workloads.live import ROOT, serve, stop, wait_for
from engine.core.probes import load_probes
from engine.model.loader import load_tokenizer
from workloads.models import ApiPrice, ComparisonRun, Document, Probe

pytestmark = [pytest.mark.model, pytest.mark.worker]

KEY = "sk-browser-never-shown-3141"
SAMPLE = sorted((ROOT / "samples" / "workload").glob("*.txt"))


@pytest.fixture
def sample(workload, prices):
    """The sample workload's four documents, counted by the test model's tokenizer, and two of its probes."""
    tokenizer = load_tokenizer()
    for path in SAMPLE:
        text = path.read_text()
        Document.objects.create(workload=workload, name=path.name, text=text, lines=text.count("\n") + 1,
                                tokens=len(tokenizer(text)["input_ids"]), size_bytes=len(text.encode()))
    for probe in load_probes(SAMPLE[0].parent / "probes.jsonl")[:2]:
        Probe.objects.create(workload=workload, question=probe.question, answer=probe.answer, kind=probe.kind)
    return workload


@pytest.fixture
def server(tmp_path):
    process, url = serve(tmp_path / "serve.log", KEY, "--mode", "dense")
    yield url
    stop(process)


def test_a_user_compares_the_engine_and_an_endpoint_side_by_side(browser, live_server, alice, sample, celery_worker,
                                                                server, downloads, artefacts):
    price = ApiPrice.objects.create(organisation=sample.organisation, provider="our-gpu-box",
                                    model="smollm2", input_per_mtok="0.20", output_per_mtok="0.80",
                                    effective_from=dt.date(2026, 1, 1), source="test: what the box costs a token")
    base = live_server.url
    _log_in(browser, base)
    seen_sources = []

    browser.get(base + "/endpoints/")
    form = _open(browser, "Add an endpoint").find_element(By.TAG_NAME, "form")
    for field, value in (("id_name", "GPU box"), ("id_base_url", server), ("id_model", "smollm2-135m-instruct"),
                         ("id_api_key", KEY)):
        _fill(browser, field, value)
    Select(browser.find_element(By.ID, "id_price")).select_by_value(str(price.pk))
    _submit(form)
    WebDriverWait(browser, 10).until(seen.text_to_be_present_in_element((By.ID, "main"), "GPU box"))
    seen_sources.append(browser.page_source)

    browser.get(f"{base}/workloads/{sample.pk}/runs/new/")
    form = browser.find_element(By.CSS_SELECTOR, "main form.form")
    for box in form.find_elements(By.NAME, "strategies"):
        if box.is_selected() != (box.get_attribute("value") in ("retrieval", "full_dense")):
            box.click()
    assert form.find_element(By.NAME, "readers-engine").is_selected()
    form.find_element(By.CSS_SELECTOR, "input[name='readers-endpoints']").click()
    _submit(form)
    WebDriverWait(browser, 10).until(seen.url_matches(r"/runs/\d+/$"))

    wait_for(lambda: ComparisonRun.objects.count() == 2 and all(r.finished for r in ComparisonRun.objects.all()),
             600, "both runs to end")
    engine, through = ComparisonRun.objects.order_by("pk")
    assert engine.status == through.status == "succeeded", (engine.error, through.error)

    browser.refresh()
    decision = browser.find_element(By.CSS_SELECTOR, "[data-readers-decision]").text
    assert decision.startswith("Recommended: ") or "Too few questions" in decision, decision
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "[data-readers-table] tbody th")]
    assert "GPU box: Search the chunks" in rows and "This worker's engine: Search the chunks" in rows
    seen_sources.append(browser.page_source)

    browser.get(f"{base}/runs/{through.pk}/")
    billed = browser.find_element(By.CSS_SELECTOR, "[data-endpoint-results]").text
    assert "Tokens billed in" in billed and "Search the chunks" in billed
    assert "GPU box" in browser.find_element(By.CSS_SELECTOR, "[data-reader]").text
    browser.save_screenshot(str(artefacts / "endpoint-run-page.png"))
    seen_sources.append(browser.page_source)

    browser.find_element(By.XPATH, "//button[normalize-space()='Export PDF summary']").click()
    _link_to_summary(browser).click()
    pdf = pypdfium2.PdfDocument(_downloaded(downloads).read_bytes())
    text = " ".join(page.get_textpage().get_text_range() for page in pdf)
    assert "read by GPU box" in " ".join(text.split())
    assert all(KEY not in source for source in seen_sources) and KEY not in text
