"""The quarterly schedule includes the endpoints a person last chose (issue 38): a firing queues one run per reader
as one batch, all of the period, and a second firing queues none; an endpoint deleted since is left out."""

from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, Workload
from workloads.tasks import scheduled_comparison

from .conftest import make_endpoint


def _fire(workload, capture) -> list:
    with capture(execute=False) as callbacks:
        scheduled_comparison(workload.pk)
    return callbacks


def test_a_firing_queues_the_engine_and_each_endpoint_chosen(workload, document, probe, prices, alice,
                                                             django_capture_on_commit_callbacks):
    endpoint = make_endpoint(workload.organisation, "http://gpu-box:8000/v1", "sk-schedule-test")
    with django_capture_on_commit_callbacks(execute=False):
        start_run(workload, alice, ["retrieval", "full_index_share"], endpoints=[endpoint])
    ComparisonRun.objects.all().delete()
    Workload.objects.filter(pk=workload.pk).update(schedule=Workload.Schedule.QUARTERLY)
    workload.refresh_from_db()

    callbacks = _fire(workload, django_capture_on_commit_callbacks)
    engine, through = ComparisonRun.objects.order_by("pk")
    assert len(callbacks) == 2 and engine.batch == through.batch is not None
    assert {engine.trigger, through.trigger} == {ComparisonRun.Trigger.SCHEDULED}
    assert engine.period == through.period
    assert (engine.reader, engine.strategies) == ("", ["retrieval", "full_index_share"])
    assert (through.endpoint, through.strategies) == (endpoint, ["retrieval", "full_dense"])

    assert not _fire(workload, django_capture_on_commit_callbacks)  # the period has its runs
    assert ComparisonRun.objects.count() == 2

    ComparisonRun.objects.all().delete()
    endpoint.delete()
    _fire(workload, django_capture_on_commit_callbacks)
    assert list(ComparisonRun.objects.values_list("reader", flat=True)) == [""]
