"""Keep each workload's beat entry in step with its schedule and its organisation's time zone, record a run's
changes once it is priced, and delete an uploaded file's original bytes with its last document or its row: the
receivers join layers that must not import one another."""

from django.apps import apps as global_apps
from django.core.exceptions import FieldDoesNotExist
from django.db.models.signals import post_delete, post_migrate, post_save
from django.dispatch import receiver

from workloads.comparisons.pricing import run_priced
from workloads.documents import upload_retention, upload_storage
from workloads.models import ComparisonRun, Document, Organisation, UploadFile, Workload
from workloads.reporting import changes, scheduling


@receiver(run_priced, sender=ComparisonRun, dispatch_uid="run_priced_records_changes")
def run_priced_records_changes(sender, run: ComparisonRun, **kwargs) -> None:
    changes.record_changes(run)


@receiver(post_save, sender=Workload, dispatch_uid="workload_schedule_sync")
def workload_saved(sender, instance: Workload, update_fields=None, **kwargs) -> None:
    # start_run saves only run_settings on every manual run: the schedule has not changed.
    if update_fields is not None and set(update_fields) == {"run_settings"}:
        return
    scheduling.sync_schedule(instance)


@receiver(post_save, sender=Organisation, dispatch_uid="organisation_schedule_sync")
def organisation_saved(sender, instance: Organisation, update_fields=None, **kwargs) -> None:
    # Its workloads fire at local hours: a new time zone moves every one of their entries.
    if update_fields is not None and "timezone" not in update_fields:
        return
    for workload in instance.workloads.select_related("periodic_task"):
        workload.organisation = instance
        scheduling.sync_schedule(workload)


@receiver(post_delete, sender=Workload, dispatch_uid="workload_schedule_delete")
def workload_deleted(sender, instance: Workload, **kwargs) -> None:
    scheduling.delete_schedule(instance)


@receiver(post_delete, sender=Document, dispatch_uid="document_deleted_purges_its_original")
def document_deleted(sender, instance: Document, **kwargs) -> None:
    # Also sent for each document a workload's deletion cascades to: its files' rows go too (below).
    if instance.origin_id is not None:
        upload_retention.purge_unheld(UploadFile.objects.filter(pk=instance.origin_id))


@receiver(post_delete, sender=UploadFile, dispatch_uid="upload_file_deleted_removes_its_original")
def upload_file_deleted(sender, instance: UploadFile, **kwargs) -> None:
    # A workload's or an organisation's deletion cascades to its uploads' files: their bytes go once it commits.
    if instance.original.name:
        upload_storage.remove_on_commit(instance.original.name)


@receiver(post_migrate, dispatch_uid="workload_schedule_backfill")
def migrated(sender, app_config=None, apps=None, **kwargs) -> None:
    # Workloads saved before schedules existed (migration 0002), or whose entry was deleted in the admin,
    # would get one only on their next save: beat would skip them until then.
    if app_config is None or app_config.label != "workloads":
        return
    try:  # `apps` is the state migrated to (flush sends none): back before 0002, the field or table is not there
        (apps or global_apps).get_model("workloads", "Workload")._meta.get_field("periodic_task")
    except (LookupError, FieldDoesNotExist):
        return
    for workload in Workload.objects.filter(periodic_task__isnull=True).select_related("organisation"):
        scheduling.sync_schedule(workload)
