"""The sample's demo price book prices the API model the sample would otherwise buy, a provider's small model that
is not the local one, with a cached-input price; the sample workload chooses it, and its first run can start."""

import io

from django.core.management import call_command

from workloads.models import ApiPrice, ComparisonRun, Workload


def test_the_sample_workload_chooses_an_api_model_that_is_not_its_local_model(db):
    call_command("loadsample", stdout=io.StringIO())

    workload = Workload.objects.get(name="Sample contracts")
    entry = ApiPrice.objects.get(organisation=workload.organisation)
    assert (workload.api_provider, workload.api_model) == (entry.provider, entry.model)
    assert workload.api_model != workload.target_model
    assert entry.cached_input_per_mtok is not None and entry.cached_input_per_mtok < entry.input_per_mtok
    assert ComparisonRun.objects.filter(workload=workload).exists()  # queued: its API price was found
