"""Bad comparison settings are refused on the form with a clear message, and no run is queued."""

import pytest
from django.urls import reverse

from tests.workloads.pages.test_it_starts_a_run_with_chosen_strategies import SETTINGS
from workloads.models import ComparisonRun


@pytest.mark.parametrize("change, message", [
    ({"strategies": ["chunked", "full_magic"]},
     "Select a valid choice. full_magic is not one of the available choices."),
    ({"strategies": []}, "This field is required."),
    ({"chunk_tokens": "256", "chunk_overlap": "256"}, "The overlap must be smaller than the chunk size."),
    ({"window": "-1"}, "Ensure this value is greater than or equal to 64."),
    ({"window": "lots"}, "Enter a whole number."),
    ({"topk": str(2**40)}, "Ensure this value is less than or equal to 16777216."),
    ({"indexer": "learned"}, "Select a valid choice. learned is not one of the available choices."),
    ({"gate_points": "nan"}, "Enter a number."),
])
def test_it_rejects_bad_settings_with_nothing_saved(alice_client, workload, document, probe, prices, change, message,
                                                    django_capture_on_commit_callbacks):
    data = {"strategies": ["chunked", "full_index_share"], **SETTINGS, **change}
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(reverse("run_create", args=[workload.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not ComparisonRun.objects.exists() and not callbacks
