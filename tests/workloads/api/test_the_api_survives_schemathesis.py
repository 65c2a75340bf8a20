"""schemathesis, bounded: a few generated requests per operation, sent through the WSGI app as an admin of an
organisation of its own (holding a workload, a document, a probe, a priced run and an upload, so that generated
requests reach real objects, not only 404s). Every answer must be no 5xx, carry a status the schema documents, and
match its schema.

Left out, because they judge rules a schema cannot state: positive_data_acceptance (the server refuses an API model
the price book lacks, an overlap as long as the chunk, a second price for one key and day) and
negative_data_rejection (pydantic's lax mode takes `false` for an integer and `0` for a date). The schema and the
server agree on each field's own form: tests/workloads/api/test_the_schema_says_what_the_server_accepts.py.
"""

import time

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings

from tests.workloads.api.conftest import compare_report, finish_run
from tests.workloads.conftest import MODEL, _member
from workloads.models import (ApiPrice, ApiToken, ComparisonRun, Document, GpuPrice, Organisation, Probe, Role,
                              Upload, Workload)

# Per operation, besides the schema's own examples: 28 operations at 2 each take about a minute on a 2-core machine.
EXAMPLES = 2
# A guard against a run that grows without bound, not a benchmark: loaded CI machines have taken 133 s.
BUDGET_S = 300
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())


@pytest.fixture(scope="module")
def started() -> float:
    return time.monotonic()


@pytest.fixture
def in_the_tests_transaction():
    """The WSGI app closes the database connection after each request, as a server should; here the request runs
    inside the test's transaction, so it must not (Django's own test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def own_organisation(db, settings_):
    """An organisation with one of each object, and its admin's token."""
    organisation = Organisation.objects.create(name="Fuzz Ltd")
    admin = _member("fuzzer", organisation, Role.ADMIN)
    start = "2026-01-01"
    GpuPrice.objects.create(organisation=organisation, device_class="cpu", per_hour="0.10", effective_from=start,
                            source="test")
    ApiPrice.objects.create(organisation=organisation, provider="example-api", model=MODEL, input_per_mtok="0.10",
                            output_per_mtok="0.30", effective_from=start, source="test")
    workload = Workload.objects.create(organisation=organisation, name="Fuzzed", target_model=MODEL,
                                       api_provider="example-api", api_model=MODEL)
    document = Document.objects.create(workload=workload, name="a.txt", text="Notice period: 90 days.\n", tokens=10,
                                       lines=1, size_bytes=24)
    probe = Probe.objects.create(workload=workload, question="What is the notice period?", answer="90 days")
    run = finish_run(ComparisonRun.objects.create(workload=workload, created_by=admin, model=MODEL, units_of_work=1,
                                                  strategies=["chunked", "full_index_share"]), compare_report(probe))
    upload = Upload.objects.create(workload=workload, created_by=admin)
    ids = {"workload_id": workload.pk, "document_id": document.pk, "run_id": run.pk, "upload_id": upload.pk}
    return ids, {"Authorization": f"Bearer {ApiToken.issue(admin)}"}


@pytest.fixture
def settings_(settings):
    # A generated request with a broken token is a failed sign-in: the fuzzer's many must not lock its own address
    # (tests/workloads/api/test_unknown_tokens_are_throttled_per_address.py covers the lock).
    settings.TOKEN_FAILURE_LIMIT = 1_000_000
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_the_api_answers_generated_requests_as_its_schema_says(case, own_organisation, in_the_tests_transaction,
                                                               started):
    if time.monotonic() - started > BUDGET_S:
        pytest.fail(f"the schemathesis run took more than its {BUDGET_S} s budget: lower EXAMPLES")
    ids, headers = own_organisation
    for name in case.path_parameters or {}:
        if name in ids:
            case.path_parameters[name] = ids[name]
    case.call_and_validate(headers=headers, excluded_checks=[schemathesis.checks.negative_data_rejection,
                                                             schemathesis.checks.positive_data_acceptance])
