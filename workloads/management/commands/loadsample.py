"""Load the sample workload for the embedded default: a demo organisation, user, price book,
the sample documents (through the real extraction), their probes, and a first comparison."""

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from django.db import transaction

from engine.core.probes import load_probes
from workloads.comparisons.starting import start_run
from workloads.documents.intake import store_upload
from workloads.models import ApiPrice, GpuPrice, Membership, Organisation, Probe, Role, Upload, Workload
from workloads.tasks import extract_upload

SAMPLES = Path(settings.BASE_DIR) / "samples" / "workload"
DEMO_SOURCE = "demo figure shipped with costplanner, not a quote: replace it with your own"
PRICES_FROM = dt.date(2026, 1, 1)
GPU_PRICES = {"cpu": "0.05", "H200": "3.50", "H100": "2.50", "A100": "1.50"}  # dollars per device-hour
# The API model the sample would otherwise buy: a provider's small model, not the local one, priced per million
# input, cached-input and output tokens.
API_MODEL = ("demo-api", "demo-small-model")
API_PRICE = {"input_per_mtok": "0.02", "cached_input_per_mtok": "0.01", "output_per_mtok": "0.06"}


class Command(BaseCommand):
    help = "Load the sample workload and queue its first comparison (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--user", default="demo")
        parser.add_argument("--password", default="demo-password")
        parser.add_argument("--strategies",
                            default="retrieval,routed,chunked,full_index_share,full_index_share_cached,"
                                    "full_naive_sparse,full_dense,full_sliding_window")

    def handle(self, *args, user, password, strategies, **options):
        model = next(iter(settings.COSTPLANNER_MODELS))
        with transaction.atomic():
            # The embedded default prints mails to the worker's log: the demo's PDF can be "mailed" there.
            organisation, _ = Organisation.objects.get_or_create(
                name="Demo", defaults={"summary_recipients": "manager@demo.example"})
            person, created = User.objects.get_or_create(username=user)
            if created:
                person.set_password(password)
                person.save()
            Membership.objects.get_or_create(user=person, defaults={"organisation": organisation, "role": Role.ADMIN})
            for device_class, per_hour in GPU_PRICES.items():
                GpuPrice.objects.get_or_create(organisation=organisation, device_class=device_class,
                                               effective_from=PRICES_FROM,
                                               defaults={"per_hour": per_hour, "source": DEMO_SOURCE})
            ApiPrice.objects.get_or_create(organisation=organisation, provider=API_MODEL[0], model=API_MODEL[1],
                                           effective_from=PRICES_FROM, defaults={**API_PRICE, "source": DEMO_SOURCE})
            workload, created = Workload.objects.get_or_create(
                organisation=organisation, name="Sample contracts",
                defaults={"kind": Workload.Kind.CONTRACTS, "expected_volume": 40, "target_model": model,
                          "api_provider": API_MODEL[0], "api_model": API_MODEL[1],
                          "description": "Four short self-written documents: a services agreement, its amendment, "
                                         "a vendor list and a support log."})
        if not created:
            self.stdout.write(f"the sample workload is already loaded (workload {workload.pk})")
            return
        files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.txt"))]
        upload = store_upload(workload, person, files)
        extract_upload(upload.pk)  # here and now, so that the first comparison can be queued at once
        upload.refresh_from_db()
        if upload.status != Upload.Status.DONE:
            raise RuntimeError(f"extracting the sample failed: {upload.error}")
        Probe.objects.bulk_create(Probe(workload=workload, question=p.question, answer=p.answer, kind=p.kind,
                                        source=p.source or "") for p in load_probes(SAMPLES / "probes.jsonl"))
        run = start_run(workload, person, strategies.split(","))  # the run settings' defaults
        self.stdout.write(f"loaded the sample workload (workload {workload.pk}) and queued comparison run {run.pk}")
