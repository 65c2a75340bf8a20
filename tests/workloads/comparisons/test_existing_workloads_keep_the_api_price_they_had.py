"""Before a workload chose its API model, its API price was looked up under its local target model: the migration
that adds the choice names that model, so every existing price entry keeps pricing the workloads it priced."""

import importlib

from django.apps import apps

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import Workload

migration = importlib.import_module("workloads.migrations.0016_workload_api_model")


def test_the_migration_names_the_target_model_and_runs_stay_priced_with_the_same_entry(acme, prices, probe):
    workload = probe.workload
    Workload.objects.filter(pk=workload.pk).update(api_model="")  # as the migration finds it
    other = Workload.objects.create(organisation=acme, name="Other", target_model="another-local-model",
                                    api_provider="example-api")
    unset = Workload.objects.create(organisation=acme, name="Unset", target_model=MODEL)

    migration.api_model_was_the_target_model(apps, None)

    assert dict(Workload.objects.values_list("pk", "api_model")) == {
        workload.pk: MODEL, other.pk: "another-local-model", unset.pk: ""}
    workload.refresh_from_db()
    assert make_run(workload, standard_report(probe)).api_price == prices["api"]
