"""The fit table's rows are kept per process under the values they are computed from (workloads.comparisons.fit), and
a new document, a new probe or a newly measured run changes them on the very next view, never shows them as they
were."""

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.comparisons import fit, starting
from workloads.models import Document, Probe


def _rows(workload) -> dict:
    return {row.strategy: row for row in fit.preflight(workload, starting.DEFAULT_STRATEGIES).rows}


def test_the_rows_follow_the_documents_the_probes_and_the_latest_run(workload, document, probe, prices):
    before = _rows(workload)
    assert _rows(workload) == before  # read again, unchanged

    Document.objects.create(workload=workload, name="annex.txt", text="Annex", tokens=9000, lines=80, size_bytes=9000)
    longer = _rows(workload)
    assert longer["full_dense"].positions > before["full_dense"].positions + 8000
    assert not longer["full_dense"].fits and before["full_dense"].fits

    Probe.objects.create(workload=workload, question="Who signs?", answer="Dana Reyes")
    asked = _rows(workload)
    assert asked["chunked"].calls == 2 * longer["chunked"].calls

    assert asked["chunked"].from_speed  # no run yet: timed at the model's provisioned speed
    make_run(workload, standard_report(probe))
    measured = _rows(workload)["chunked"]
    assert not measured.from_speed and measured.seconds != asked["chunked"].seconds
