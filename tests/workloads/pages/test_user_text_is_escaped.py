"""Whatever people type is shown as text, never run as markup."""

from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import Document, Probe, Workload

EVIL = '<script>alert("x")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"


def test_user_text_is_escaped(alice_client, acme, prices):
    workload = Workload.objects.create(organisation=acme, name=EVIL, description=EVIL, target_model=MODEL,
                                       api_provider="example-api")
    probe = Probe.objects.create(workload=workload, question=EVIL, answer=EVIL)
    Document.objects.create(workload=workload, name=EVIL, text=EVIL, tokens=1, lines=1, size_bytes=1)
    run = make_run(workload, standard_report(probe))
    for url in [reverse("dashboard"), reverse("workload_detail", args=[workload.pk]),
                reverse("run_detail", args=[run.pk]), reverse("probe_edit", args=[workload.pk, probe.pk])]:
        page = alice_client.get(url).content.decode()
        assert EVIL not in page, url
        assert ESCAPED in page, url

    entry = {"device_class": EVIL, "per_hour": "1", "effective_from": "2026-02-01", "source": EVIL}
    response = alice_client.post(reverse("gpu_price_create"), entry, follow=True)
    page = response.content.decode()
    assert EVIL not in page and ESCAPED in page
