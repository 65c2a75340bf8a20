"""Named actors for web-app tests: Alice (an admin), Bob (a member) and Vera (a viewer) share Acme; Charlie
belongs to Globex and sees none of it."""

import csv
import datetime as dt
import io
import os

import pytest
from django.contrib.auth.models import User
from django.test import Client

from workloads.models import ApiPrice, Document, GpuPrice, Membership, Organisation, Probe, Role, Workload
from workloads.reporting.data_exports import COLUMNS

MODEL = "SmolLM2-135M-Instruct"
PASSWORD = "correct horse battery staple"
# A short agreement the real model reads in seconds, with a probe of each kind on it (ready_workload).
CONTRACT = (
    "Services agreement between Northwind Logistics and Contoso Freight.\n\n"
    "The notice period is 90 days.\n\n"
    "The governing law is the law of Ireland.\n\n"
    "The account manager of Northwind Logistics is Dana Reyes.\n"
)


@pytest.fixture(autouse=True)
def quick_password_hashing(settings):
    """PBKDF2's million rounds take a quarter of a second a password on a CI core, and most tests create three or
    four users: the tests need passwords checked, not passwords that resist a brute force."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def upload_storage_in_a_temporary_folder(settings, tmp_path, monkeypatch):
    """Uploaded originals go to the real filesystem storage, in a folder of the test's own, for this process and the
    workers and servers it starts."""
    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.setenv("MEDIA_ROOT", str(settings.MEDIA_ROOT))


def _member(name: str, organisation: Organisation, role: Role) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    Membership.objects.create(user=user, organisation=organisation, role=role)
    return user


@pytest.fixture
def acme(db):
    return Organisation.objects.create(name="Acme")


@pytest.fixture
def alice(acme):
    return _member("alice", acme, Role.ADMIN)


@pytest.fixture
def bob(acme):
    return _member("bob", acme, Role.MEMBER)


@pytest.fixture
def vera(acme):
    return _member("vera", acme, Role.VIEWER)


@pytest.fixture
def charlie(db):
    return _member("charlie", Organisation.objects.create(name="Globex"), Role.ADMIN)


@pytest.fixture
def prices(acme):
    """Acme's price book: the CPU these tests run on, an H200, and an API price for the default model."""
    start = dt.date(2026, 1, 1)
    return {
        "cpu": GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.10", effective_from=start,
                                       source="test: a 2-core cloud VM"),
        "h200": GpuPrice.objects.create(organisation=acme, device_class="H200", per_hour="3.50", effective_from=start,
                                        source="test: a GPU cloud list price"),
        "api": ApiPrice.objects.create(organisation=acme, provider="example-api", model=MODEL, input_per_mtok="0.10",
                                       output_per_mtok="0.30", effective_from=start, source="test: an API price page"),
    }


@pytest.fixture
def workload(acme):
    return Workload.objects.create(organisation=acme, name="Supplier contracts", kind=Workload.Kind.CONTRACTS,
                                   expected_volume=40, target_model=MODEL, api_provider="example-api",
                                   api_model=MODEL)


@pytest.fixture
def probe(workload):
    return Probe.objects.create(workload=workload, question="What is the notice period?", answer="90 days")


@pytest.fixture
def ready_workload(workload, prices):
    """The workload, priced, holding CONTRACT and two probes on it: ready for a real comparison."""
    Document.objects.create(workload=workload, name="agreement.txt", text=CONTRACT, tokens=60, lines=7,
                            size_bytes=len(CONTRACT))
    Probe.objects.create(workload=workload, question="What is the notice period?", answer="90 days")
    Probe.objects.create(workload=workload, question="What is the governing law?", answer="Ireland", kind="retrieval")
    return workload


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def charlie_client(charlie):
    client = Client()  # its own session, so a test can hold Alice's and Charlie's at once
    client.force_login(charlie)
    return client


@pytest.fixture
def document(workload):
    return Document.objects.create(workload=workload, name="master-services-agreement.txt",
                                   text="The notice period is 90 days.", tokens=1234, lines=40, size_bytes=5120)


@pytest.fixture
def worker_env() -> dict[str, str]:
    """More environment for the worker process: a module overrides this (a mail server's EMAIL_URL, say)."""
    return {}


@pytest.fixture
def celery_worker(transactional_db, tmp_path, worker_env):
    """A real Celery worker process on both queues, reading the test database through the real Redis."""
    import redis
    from django.conf import settings
    from django.db import connection

    from tests.workloads.live import database_url, start, stop, wait_for, worker_argv

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # no stale message may claim a new row's primary key
    log = tmp_path / "worker.log"
    process = start(worker_argv(), log, DATABASE_URL=database_url(connection.settings_dict),
                    CELERY_BROKER_URL=settings.CELERY_BROKER_URL, SECRET_KEY=os.environ["SECRET_KEY"], **worker_env)
    try:
        wait_for(lambda: " ready." in log.read_text() or process.poll() is not None, 120, "the worker to start")
        assert process.poll() is None, log.read_text()
        yield log
    finally:
        stop(process)


@pytest.fixture
def too_long(workload):
    """Two documents as a tester uploaded them: 24,146 tokens together, past the default model's 8,192 positions
    (the text is a stand-in: the pages read the stored token counts)."""
    for name, tokens in (("licences.txt", 9_597), ("codebase.py", 14_549)):
        Document.objects.create(workload=workload, name=name, text="The notice period is 90 days.", tokens=tokens,
                                lines=100, size_bytes=4 * tokens)
    return workload


@pytest.fixture
def asked_often(too_long):
    """too_long asked 25 questions: 1,400 calls to ask every chunk (55 chunks and a reduce per question), about half
    an hour with SmolLM2 on a 2-core CPU, and longer with a larger model."""
    Probe.objects.bulk_create(Probe(workload=too_long, question=f"What is clause {i}?", answer=f"{i} days")
                              for i in range(25))
    return too_long


def csv_rows(response) -> list[dict]:
    """The rows of a runs CSV download, after checking that it is one, with the export's columns."""
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    reader = csv.DictReader(io.StringIO(response.content.decode()))
    assert reader.fieldnames == COLUMNS
    return list(reader)
