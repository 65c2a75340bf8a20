from django.conf import settings
from django.db import models
from django.utils.functional import cached_property

from workloads.models.jobs import FAILED, QUEUED, RUNNING, Job, status_field
from workloads.models.workloads import Document, Workload


NOTHING_KEPT = "nothing kept"


class Upload(Job):
    """Files a user sent at once; a Celery task extracts them into Documents."""

    class Status(models.TextChoices):
        QUEUED = QUEUED
        RUNNING = RUNNING
        DONE = "done"
        FAILED = FAILED
        CANCELLED = "cancelled"

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="uploads")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    status = status_field(Status)
    files_done = models.PositiveIntegerField(default=0)
    # A new version of a file replaces the text of the document of its name, instead of being skipped.
    replace_same_names = models.BooleanField(default=False)

    @cached_property
    def nothing_kept(self) -> bool:
        """Extraction finished and skipped every file: the workload gained nothing. A list of uploads annotates
        `kept_any` (with_kept_any) instead of asking each upload in a query of its own."""
        kept_any = getattr(self, "kept_any", None)
        if kept_any is None:
            kept_any = self.items.filter(kept=True).exists()
        return self.status == self.Status.DONE and not kept_any

    @classmethod
    def with_kept_any(cls, uploads: models.QuerySet) -> models.QuerySet:
        """uploads, each annotated with whether it kept any file (for nothing_kept), in the one query."""
        return uploads.annotate(kept_any=models.Exists(UploadItem.objects.filter(upload=models.OuterRef("pk"),
                                                                                 kept=True)))

    @property
    def shown_status(self) -> str:
        """The status as the pages show it: "nothing kept" rather than a "done" that would read as success. The
        stored status stays "done": extraction did finish, and the API's clients wait for done or failed."""
        return NOTHING_KEPT if self.nothing_kept else self.status


class UploadFile(models.Model):
    """An uploaded file, kept in the database until extraction, so any worker can read it; its bytes are in
    UploadFileChunks (workloads.documents.upload_storage)."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    size_bytes = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["pk"]


class UploadFileChunk(models.Model):
    """A piece of an uploaded file's bytes, in order. In pieces so that neither the request that stores an upload
    nor the worker that extracts it holds more than a piece, or one file, at a time: 50 files of 20 MiB read in
    one query took a worker to 3.7 GB."""

    file = models.ForeignKey(UploadFile, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["file", "index"], name="one_chunk_per_place_in_a_file")]


class UploadItem(models.Model):
    """What extraction did with one file or archive member: kept (as which Document) or skipped, and why."""

    # Ends the detail of a kept file whose document took the place of the workload's document of its name.
    REPLACED_NOTE = "; replaced the document of this name"

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=1000)
    kept = models.BooleanField()
    detail = models.CharField(max_length=500)
    tokens = models.PositiveIntegerField(default=0)
    document = models.ForeignKey(Document, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["pk"]
