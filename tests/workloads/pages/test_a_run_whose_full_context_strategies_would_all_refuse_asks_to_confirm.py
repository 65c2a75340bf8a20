"""Starting a run in which every chosen full-context strategy would refuse asks first: the form comes back with
the warning and a "start anyway" box, and starts the run once it is ticked."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.comparisons.starting import SETTINGS
from workloads.forms import RunForm
from workloads.models import ComparisonRun

# The form as it comes, with three strategies ticked.
DEFAULTS = {name: RunForm.base_fields[name].initial for name in SETTINGS}
STRATEGIES = DEFAULTS | {"strategies": ["chunked", "full_index_share", "full_dense"]}


def test_it_shows_the_warning_and_a_box_to_start_anyway_and_queues_nothing(alice_client, too_long, probe, prices):
    response = alice_client.post(reverse("run_create", args=[too_long.pk]), STRATEGIES)

    page = html(response)
    assert response.status_code == 400 and not ComparisonRun.objects.exists()
    assert ("Every full-context strategy chosen (Whole documents (Index Share), Whole documents (dense)) would refuse: "
            "the documents need about "
            "24,274 positions") in page
    assert "Tick this box to start it anyway, and measure chunking alone." in page
    assert 'type="checkbox" name="confirm_refusals"' in page
    # The chosen strategies stay ticked, and the fit table shows them as chosen.
    assert 'value="full_dense" id="id_strategies_2" checked' in page
    assert ("Whole documents (naive sparse) <small>(chosen)</small>" not in page
            and "Whole documents (dense) <small>(chosen)</small>" in page)


def test_it_starts_the_run_when_the_box_is_ticked(alice_client, too_long, probe, prices):
    response = alice_client.post(reverse("run_create", args=[too_long.pk]), STRATEGIES | {"confirm_refusals": "on"})

    run = ComparisonRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("run_detail", args=[run.pk])
    assert run.strategies == STRATEGIES["strategies"]


def test_the_box_stays_hidden_and_unasked_for_when_a_full_context_strategy_fits(alice_client, workload, document,
                                                                                probe, prices):
    page = html(alice_client.get(reverse("run_create", args=[workload.pk])))
    assert 'type="hidden" name="confirm_refusals" value="False"' in page

    response = alice_client.post(reverse("run_create", args=[workload.pk]), STRATEGIES)
    assert response.status_code == 302 and ComparisonRun.objects.count() == 1


def test_chunked_alone_needs_no_confirmation(alice_client, too_long, probe, prices):
    response = alice_client.post(reverse("run_create", args=[too_long.pk]), DEFAULTS | {"strategies": ["chunked"]})

    assert response.status_code == 302 and ComparisonRun.objects.count() == 1
