import uuid

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


def _original_name(upload_file: "UploadFile", filename: str) -> str:
    """Where a file's original bytes are stored: under its upload, named by a random id, never by the name the
    client sent (which may hold "../" or a name another file has)."""
    return f"uploads/{upload_file.upload_id}/{uuid.uuid4().hex}"


class UploadFile(models.Model):
    """An uploaded file: its name, its size, and its original bytes in the file storage (settings.STORAGES's
    "default": a folder under MEDIA_ROOT, or an object store), where any worker reads them.

    The original is kept while a document read from it exists, and deleted with the last of them; a file that kept
    no document loses it when extraction finishes, and every original once UPLOAD_ORIGINAL_RETENTION_DAYS have
    passed, if set (workloads.documents.upload_retention). A deleted original leaves `purged_at` set and `original`
    empty; `size_bytes` still says how big it was.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    size_bytes = models.PositiveBigIntegerField(help_text="the original's size, kept after it is purged")
    original = models.FileField(upload_to=_original_name, max_length=200, blank=True)
    purged_at = models.DateTimeField(null=True, blank=True, help_text="when the original's bytes were deleted")

    class Meta:
        ordering = ["pk"]


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
