from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django_celery_beat.models import PeriodicTask

from workloads.models.organisations import Organisation


class Workload(models.Model):
    class Kind(models.TextChoices):
        CONTRACTS = "contracts", "Contract portfolio"
        SUPPORT = "support", "Customer-support transcripts"
        CODEBASE = "codebase", "Codebase"
        OTHER = "other", "Other documents"

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="workloads")
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.OTHER)
    description = models.TextField(blank=True)
    expected_volume = models.PositiveIntegerField(
        default=0, help_text="units of work per month (contracts, tickets, thousand lines)"
    )
    target_model = models.CharField(max_length=200)
    # The API model this workload would otherwise buy, a (provider, model) pair of the price book's API entries,
    # named rather than a foreign key because entries are effective-dated rows. Both empty: no API comparison.
    api_provider = models.CharField(max_length=100, blank=True, help_text="the provider of the API model it is "
                                                                          "compared against; empty: none")
    api_model = models.CharField(max_length=200, blank=True, help_text="the API model it is compared against, "
                                                                       "independent of the local target model")
    created_at = models.DateTimeField(auto_now_add=True)

    # Scheduled comparisons: how often, at which local hour, with which settings, and when to raise alerts.
    class Schedule(models.TextChoices):
        QUARTERLY = "quarterly", "Quarterly (1 January, April, July, October)"
        MONTHLY = "monthly", "Monthly (the first of each month)"
        OFF = "off", "Off"

    schedule = models.CharField(max_length=10, choices=Schedule.choices, default=Schedule.QUARTERLY)
    schedule_hour = models.PositiveSmallIntegerField(default=6, validators=[MaxValueValidator(23)],
                                                     help_text="hour of the day, in the organisation's time zone")
    run_settings = models.JSONField(default=dict, blank=True,
                                    help_text="strategies and engine settings a scheduled run uses "
                                              "(the last ones started)")
    alert_cost_percent = models.FloatField(default=10, validators=[MinValueValidator(0)],
                                           help_text="alert when a strategy's cost rises by more than this, percent")
    alert_accuracy_points = models.FloatField(default=5, validators=[MinValueValidator(0), MaxValueValidator(100)],
                                              help_text="alert when a strategy's accuracy falls "
                                                        "by more than this, points")
    # The beat entry that fires this workload's scheduled comparison (editable in the admin too).
    periodic_task = models.OneToOneField(PeriodicTask, null=True, blank=True, on_delete=models.SET_NULL,
                                         related_name="+")
    # What the last probe generation (a task) found and added, so that the page can say so, "none" included.
    probes_generated_at = models.DateTimeField(null=True, blank=True)
    probes_found = models.PositiveIntegerField(default=0)
    probes_added = models.PositiveIntegerField(default=0)

    class Meta:
        # "Contracts" and "contracts" would be told apart by nobody reading a page or a PDF.
        constraints = [models.UniqueConstraint(Lower("name"), "organisation", name="unique_workload_name_any_case")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def unit(self) -> str:
        """What one unit of work is, for cost per unit."""
        return {"contracts": "contract", "support": "ticket", "codebase": "thousand lines"}.get(self.kind, "document")

    def units_of_work(self, documents=None) -> float:
        """Units in these documents (by default the workload's current ones): documents, or thousands of
        lines for a codebase."""
        # Only the column counted: starting a run must not read every document's whole text.
        documents = list(self.documents.only("lines")) if documents is None else documents
        if self.kind == self.Kind.CODEBASE:
            return sum(d.lines for d in documents) / 1000
        return len(documents)


class Document(models.Model):
    """One document's extracted text, in the database; the uploaded file it came from keeps its original bytes in
    the file storage while a document read from it exists.

    Workers on other machines read the text from here, so no shared disk is needed.
    """

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=500)
    source_path = models.CharField(max_length=1000, blank=True, help_text="path inside the uploaded archive")
    # The uploaded file it came from (an archive holds many documents); deleting the last of them deletes the
    # file's original bytes (workloads.documents.upload_retention).
    origin = models.ForeignKey("workloads.UploadFile", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="documents")
    text = models.TextField()
    tokens = models.PositiveIntegerField(help_text="under the workload's target model")
    lines = models.PositiveIntegerField()
    size_bytes = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workload", "name"], name="unique_document_name_per_workload")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Probe(models.Model):
    """A question about the workload's documents with a short expected answer."""

    class Kind(models.TextChoices):
        """engine.core.probes.KINDS, named as a manager reads them (KIND_NAMES groups both joins as one)."""

        USER = "user", "Kind not chosen"
        RETRIEVAL = "retrieval", "Lookup: one passage answers it"
        CROSS_REFERENCE = "cross_reference", "Join: a passage and the one it points to"
        MULTI_HOP = "multi_hop", "Join: two or more passages together answer it"
        COUNT = "count", "Count: how many, over several passages"
        ABSENT = "absent", "Absent: the documents do not say (answer \"not stated\")"

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="probes")
    question = models.TextField()
    answer = models.CharField(max_length=500)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.USER)
    source = models.CharField(max_length=1000, blank=True)
    # A generated probe's evidence: the sentence(s) its answer was taken from, for a person to check it against.
    passage = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.question
