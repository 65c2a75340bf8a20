"""Alert text and workload names reach the pages as text: markup in them is escaped, never run."""

from django.urls import reverse

from workloads.models import Alert

from .conftest import Q3, Q4, run_at

MARKUP = '<script>alert("x")</script>'


def test_alert_messages_and_workload_names_are_escaped(alice_client, workload, probe, prices):
    workload.name = f"Contracts {MARKUP}"
    workload.save()
    before = run_at(workload, probe, Q3, chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36})
    Alert.objects.create(run=now, previous_run=before, kind=Alert.Kind.COST_UP, strategy="chunked",
                         message=f"Costs rose {MARKUP}")

    for url in (reverse("dashboard"), reverse("run_detail", args=[now.pk])):
        page = alice_client.get(url).content.decode()
        assert MARKUP not in page, url
        assert "Costs rose &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page, url
