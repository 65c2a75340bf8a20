"""A workload measured in two quarters on an H200, so its summary has changes, alerts and a history to chart."""

import datetime as dt
import email
import email.policy
import io
import os
import socket
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from aiosmtpd.controller import Controller

from tests.workloads.api.conftest import as_alice, as_charlie  # noqa: F401
from tests.workloads.browser.conftest import browser, downloads  # noqa: F401
from tests.workloads.live import ROOT
from tests.workloads.pages.conftest import make_run, standard_report  # noqa: F401
from workloads.models import Summary

DEVICE = "NVIDIA H200"
Q4 = dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC)
Q1 = dt.datetime(2027, 2, 1, 9, tzinfo=dt.UTC)


@pytest.fixture
def last_quarter(workload, probe, prices):
    """2026-Q4: Index Share took 30 s, and was right."""
    return make_run(workload, standard_report(probe, DEVICE, index_share_seconds=30.0), created_at=Q4)


@pytest.fixture
def this_quarter(workload, probe, prices, last_quarter):
    """2027-Q1: Index Share took 36 s (20% more than in Q4) and was right; chunked is gated."""
    return make_run(workload, standard_report(probe, DEVICE, index_share_seconds=36.0), created_at=Q1)


@pytest.fixture
def artefacts() -> Path:
    """Where page images are kept for a person to look at (git-ignored var/, or TEST_ARTEFACTS)."""
    folder = Path(os.environ.get("TEST_ARTEFACTS") or ROOT / "var" / "test-artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def pdf_text(pdf: bytes) -> str:
    """All pages' text, runs of whitespace collapsed (lines wrap wherever the layout puts them)."""
    parsed = pdfium.PdfDocument(io.BytesIO(pdf))  # not `document`: that name is a fixture
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range() for page in parsed).split())
    finally:
        parsed.close()


def done_summary(run, pdf: bytes = b"%PDF-1.7 test", pages: int = 1) -> Summary:
    """A finished summary row, as the task leaves it, for tests of what is served."""
    return Summary.objects.create(run=run, status=Summary.Status.DONE, pdf=pdf, pages=pages)


class Mailbox:
    """An aiosmtpd handler that keeps what it is sent; it answers the next recipients with `refusals` first."""

    def __init__(self):
        self.received: list[tuple[list[str], email.message.EmailMessage]] = []  # (envelope recipients, message)
        # SMTP replies, such as "451 4.3.0 try again later", used up one per recipient; None takes that recipient.
        self.refusals: list[str | None] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        refusal = self.refusals.pop(0) if self.refusals else None
        if refusal:
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append((list(envelope.rcpt_tos),
                              email.message_from_bytes(envelope.content, policy=email.policy.default)))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SMTP_BACKEND = "workloads.reporting.summary.smtp.EmailBackend"  # what settings.py makes of an smtp:// EMAIL_URL


@pytest.fixture
def mailbox():
    """A real SMTP server on a free local port; `mailbox.url` is its EMAIL_URL."""
    box, port = Mailbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    box.url = f"smtp://127.0.0.1:{port}"
    yield box
    controller.stop()


@pytest.fixture
def mail_settings(settings, mailbox):
    """This process sends through `mailbox` (pytest-django otherwise swaps in Django's in-memory backend)."""
    settings.EMAIL_BACKEND = SMTP_BACKEND
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", int(mailbox.url.rsplit(":", 1)[1])
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    return mailbox


def attachments(message) -> list[tuple[str, str, bytes]]:
    return [(part.get_filename(), part.get_content_type(), part.get_content()) for part in message.iter_attachments()]
