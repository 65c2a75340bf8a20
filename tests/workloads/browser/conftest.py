"""A real headless Chromium, driven by Selenium, with a download folder and an artefacts folder for people."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.workloads.live import ROOT

# Debian's packages (.ci/run installs them). Naming both keeps Selenium Manager from looking online for a driver.
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1600")
FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True  # read by the browser fixture's teardown, which runs after this report
    return report


@pytest.fixture
def artefacts() -> Path:
    """Where screenshots, page sources and downloads are kept for a person to look at (git-ignored by default)."""
    folder = Path(os.environ.get("TEST_ARTEFACTS") or ROOT / "var" / "test-artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def downloads(tmp_path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(request, tmp_path, downloads, artefacts):
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    assert not missing, f"missing {', '.join(missing)}: install Debian's chromium and chromium-driver (.ci/run does)"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    # A PDF is saved, never shown in Chromium's viewer, even when it is served inline.
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False,
                                              "plugins.always_open_pdf_externally": True})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, where CSP refusals show
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    # Headless Chromium may ignore the profile's download preferences; DevTools sets them for certain.
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    try:
        yield driver
    finally:
        if request.node.stash.get(FAILED, False):
            _keep_for_debugging(driver, artefacts / f"{request.node.name}-failure", tmp_path)
        driver.quit()


def _keep_for_debugging(driver, stem: Path, tmp_path: Path) -> None:
    driver.save_screenshot(str(stem.with_suffix(".png")))
    stem.with_suffix(".html").write_text(f"<!-- {driver.current_url} -->\n{driver.page_source}")
    worker_log = tmp_path / "worker.log"  # the celery_worker fixture's log, when the test had a worker
    if worker_log.exists():
        shutil.copyfile(worker_log, stem.with_suffix(".worker.log"))
