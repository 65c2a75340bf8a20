from django.contrib import admin

from workloads import models

for model in (models.Organisation, models.Membership, models.Workload, models.Probe, models.GpuPrice, models.ApiPrice):
    admin.site.register(model)


@admin.register(models.ComparisonRun)
class ComparisonRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "workload", "status", "device", "created_at")
    list_filter = ("status",)


@admin.register(models.Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("name", "workload", "tokens", "lines")
    exclude = ("text",)
