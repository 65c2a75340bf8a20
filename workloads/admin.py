from django.contrib import admin

from workloads import models

for model in (models.Probe, models.GpuPrice, models.ApiPrice):
    admin.site.register(model)


@admin.register(models.Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    # The quotas are the operator's to set, here only: the organisation's own admins never see them on a form.
    list_display = ("name", "timezone", "quota_runs_queued", "quota_uploads_per_day", "quota_stored_bytes")
    fieldsets = [
        (None, {"fields": ["name", "timezone", "summary_recipients", "endpoint_run_cap", "endpoint_month_cap"]}),
        ("Quotas (empty: the defaults the settings QUOTA_RUNS_QUEUED, QUOTA_UPLOADS_PER_DAY and QUOTA_STORED_BYTES "
         "set)", {"fields": ["quota_runs_queued", "quota_uploads_per_day", "quota_stored_bytes"]}),
    ]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "organisation", "role")
    list_filter = ("role", "organisation")


@admin.register(models.Endpoint)
class EndpointAdmin(admin.ModelAdmin):
    # The key stays out of the admin entirely, even encrypted: it changes only by adding the endpoint again.
    list_display = ("name", "organisation", "base_url", "model", "price", "key_set")
    list_select_related = ("organisation", "price")
    exclude = ("encrypted_key",)

    @admin.display(boolean=True, description="key set")
    def key_set(self, endpoint: models.Endpoint) -> bool:
        return endpoint.key_set


@admin.register(models.ComparisonRun)
class ComparisonRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "workload", "status", "device", "created_at")
    list_filter = ("status",)


@admin.register(models.Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("name", "workload", "tokens", "lines")
    exclude = ("text",)


@admin.register(models.Workload)
class WorkloadAdmin(admin.ModelAdmin):
    # Saving here resyncs the beat entry (workloads.signals); the entry itself is editable under Periodic tasks.
    list_display = ("name", "organisation", "schedule", "schedule_hour", "alert_cost_percent", "alert_accuracy_points",
                    "periodic_task")
    list_filter = ("schedule",)
    readonly_fields = ("periodic_task",)


class RecordAdmin(admin.ModelAdmin):
    """What a job did: a record, so nobody edits it here."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(models.ScheduleEvent)
class ScheduleEventAdmin(RecordAdmin):
    list_display = ("workload", "period", "fired_at", "fired_by", "outcome", "reason", "run")
    list_filter = ("outcome",)


@admin.register(models.SummaryEmail)
class SummaryEmailAdmin(RecordAdmin):
    list_display = ("summary", "created_at", "requested_by", "status", "recipients", "delivered", "refused", "error")
    list_filter = ("status",)
