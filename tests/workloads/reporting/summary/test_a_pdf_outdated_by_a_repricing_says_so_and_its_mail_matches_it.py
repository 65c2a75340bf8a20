"""A PDF states the run's figures as they stood when it was rendered. When the run is re-priced after, its page
says that the PDF is out of date, and a mail of that PDF still quotes the PDF, never figures it does not hold."""

from django.urls import reverse

from tests.workloads.reporting.summary.conftest import pdf_text
from workloads.comparisons import pricing
from workloads.models import GpuPrice
from workloads.reporting.summary import mail
from workloads.reporting.summary.pdf_exports import request_summary
from workloads.tasks import email_summary, export_summary


def rendered(run):
    summary = request_summary(run, None)
    export_summary(summary.pk)  # as the worker runs it
    summary.refresh_from_db()
    return summary


def test_a_repriced_runs_mail_quotes_the_pdf_it_attaches(mail_settings, acme, alice_client, this_quarter, prices):
    acme.summary_recipients = "cfo@acme.example"
    acme.save()
    summary = rendered(this_quarter)
    as_rendered = summary.digest
    assert as_rendered == mail.digest(this_quarter)
    assert " ".join(mail.digest(this_quarter).split()[:12]) in pdf_text(bytes(summary.pdf))
    page = alice_client.get(reverse("run_detail", args=[this_quarter.pk])).content.decode()
    assert "data-summary-out-of-date" not in page

    GpuPrice.objects.filter(pk=prices["h200"].pk).update(per_hour="7.00")  # the price book corrected
    pricing.price_run(this_quarter)
    assert mail.digest(this_quarter) != as_rendered  # twice the dollars a month, and a larger rise since Q4

    email_summary(mail.request_email(summary, None).pk)
    (_, message), = mail_settings.received
    body = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert as_rendered in body and mail.digest(this_quarter) not in body
    page = alice_client.get(reverse("run_detail", args=[this_quarter.pk])).content.decode()
    assert "This PDF predates the run's figures as recorded on" in page

    rendered(this_quarter)  # exported again
    page = alice_client.get(reverse("run_detail", args=[this_quarter.pk])).content.decode()
    assert "data-summary-out-of-date" not in page


def test_repricing_the_previous_period_outdates_the_followers_pdf(alice_client, this_quarter, last_quarter, prices):
    rendered(this_quarter)
    pricing.price_run(last_quarter)  # this quarter's changes and alerts are recorded again

    page = alice_client.get(reverse("run_detail", args=[this_quarter.pk])).content.decode()
    assert "This PDF predates the run's figures as recorded on" in page
