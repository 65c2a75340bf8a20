"""Workload names are unique in an organisation whatever their case, in the database itself, so that two
requests racing past the forms' check cannot both save "Contracts" and "contracts". Workloads saved before
the rule are renamed by the migration that adds it, the older keeping its name."""

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from tests.workloads.conftest import MODEL
from workloads.models import Organisation, Workload

migration = importlib.import_module("workloads.migrations.0007_workload_names_unique_whatever_their_case")


def create(organisation, name) -> Workload:
    return Workload.objects.create(organisation=organisation, name=name, target_model=MODEL, api_provider="example-api")


def test_the_database_refuses_a_second_name_that_differs_only_in_case(workload, acme):
    with pytest.raises(IntegrityError, match="unique_workload_name_any_case"), transaction.atomic():
        create(acme, "SUPPLIER contracts")

    create(Organisation.objects.create(name="Globex"), "supplier contracts")  # another organisation's own
    assert Workload.objects.filter(name__iexact="supplier contracts").count() == 2


def test_the_migration_renames_the_later_twins_and_the_constraint_then_holds(acme):
    constraint, = Workload._meta.constraints
    with connection.schema_editor() as editor:  # back to the schema before 0007, inside this test's transaction
        editor.remove_constraint(Workload, constraint)
    globex = Organisation.objects.create(name="Globex")
    older, later, latest = create(acme, "Contracts"), create(acme, "contracts"), create(acme, "CONTRACTS")
    numbered = create(acme, "contracts (2)")  # the first suffix is taken already
    long_one, long_twin = create(acme, "x" * 200), create(acme, "X" * 200)
    globex_own = create(globex, "contracts")

    migration.rename_case_twins(apps, None)

    names = dict(Workload.objects.values_list("pk", "name"))
    assert names[older.pk] == "Contracts" and names[numbered.pk] == "contracts (2)"
    assert names[later.pk] == "contracts (3)" and names[latest.pk] == "CONTRACTS (4)"
    assert names[long_one.pk] == "x" * 200 and names[long_twin.pk] == "X" * 196 + " (2)"
    assert names[globex_own.pk] == "contracts"
    with connection.cursor() as cursor:  # PostgreSQL indexes no table whose inserts' deferred checks are pending
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        editor.add_constraint(Workload, constraint)
