from django.urls import path

from workloads.views import (dashboard, documents, exports, organisation, planning, prices, probes, runs, schedules,
                             summaries, uploads, workload_pages)

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    # Workloads and their documents
    path("workloads/new/", workload_pages.workload_create, name="workload_create"),
    path("workloads/<int:pk>/", workload_pages.workload_detail, name="workload_detail"),
    path("workloads/<int:pk>/edit/", workload_pages.workload_edit, name="workload_edit"),
    path("workloads/<int:pk>/delete/", workload_pages.workload_delete, name="workload_delete"),
    path("workloads/<int:pk>/documents/<int:document_pk>/", documents.document_detail, name="document_detail"),
    path("workloads/<int:pk>/documents/<int:document_pk>/text.txt", documents.document_text, name="document_text"),
    path("workloads/<int:pk>/documents/<int:document_pk>/delete/", documents.document_delete,
         name="document_delete"),
    path("workloads/<int:pk>/planning/", planning.planning, name="planning"),
    # Schedules: when a workload's comparison fires, in the organisation's time zone
    path("workloads/<int:pk>/schedule/", schedules.schedule_edit, name="schedule_edit"),
    path("workloads/<int:pk>/schedule/fire/", schedules.schedule_fire, name="schedule_fire"),
    # The organisation: its time zone and recipients, and its members with their roles
    path("organisation/", organisation.organisation_edit, name="organisation_edit"),
    path("organisation/members/new/", organisation.member_add, name="member_add"),
    path("organisation/members/<int:pk>/role/", organisation.member_role, name="member_role"),
    path("organisation/members/<int:pk>/remove/", organisation.member_remove, name="member_remove"),
    path("organisation/members/<int:pk>/link/", organisation.member_link, name="member_link"),
    # Uploads
    path("workloads/<int:pk>/upload/", uploads.upload_create, name="upload_create"),
    path("uploads/<int:pk>/", uploads.upload_detail, name="upload_detail"),
    path("uploads/<int:pk>/status.json", uploads.upload_status, name="upload_status"),
    # Probes
    path("workloads/<int:pk>/probes/new/", probes.probe_create, name="probe_create"),
    path("workloads/<int:pk>/probes/generate/", probes.probes_generate, name="probes_generate"),
    path("workloads/<int:pk>/probes/<int:probe_pk>/edit/", probes.probe_edit, name="probe_edit"),
    path("workloads/<int:pk>/probes/<int:probe_pk>/delete/", probes.probe_delete, name="probe_delete"),
    # Comparison runs
    path("workloads/<int:pk>/runs/new/", runs.run_create, name="run_create"),
    path("workloads/<int:pk>/runs.csv", runs.runs_csv, name="runs_csv"),
    path("runs/<int:pk>/", runs.run_detail, name="run_detail"),
    path("runs/<int:pk>/status.json", runs.run_status, name="run_status"),
    path("runs/<int:pk>/cancel/", runs.run_cancel, name="run_cancel"),
    path("runs/<int:pk>/reprice/", runs.run_reprice, name="run_reprice"),
    path("runs/<int:pk>/delete/", runs.run_delete, name="run_delete"),
    # The manager's PDF summary: export (again), follow the export, download the newest, e-mail it
    path("runs/<int:pk>/summary/", summaries.summary_create, name="summary_create"),
    path("runs/<int:pk>/summary.pdf", summaries.summary_download, name="summary_download"),
    path("runs/<int:pk>/summary/status.json", summaries.summary_status, name="summary_status"),
    path("runs/<int:pk>/summary/email/", summaries.summary_email, name="summary_email"),
    # Exports: a run, and a workload's history (its CSV is the runs CSV above), as CSV and JSON files
    path("runs/<int:pk>/export.csv", exports.run_export_csv, name="run_export_csv"),
    path("runs/<int:pk>/export.json", exports.run_export_json, name="run_export_json"),
    path("workloads/<int:pk>/history.csv", runs.runs_csv, name="workload_history_csv"),
    path("workloads/<int:pk>/history.json", exports.workload_history_json, name="workload_history_json"),
    # The price book
    path("prices/", prices.price_book, name="price_book"),
    path("prices/gpu/new/", prices.gpu_price_create, name="gpu_price_create"),
    path("prices/gpu/<int:pk>/delete/", prices.gpu_price_delete, name="gpu_price_delete"),
    path("prices/api/new/", prices.api_price_create, name="api_price_create"),
    path("prices/api/<int:pk>/delete/", prices.api_price_delete, name="api_price_delete"),
    path("prices/reprice/", prices.reprice_all, name="reprice_all"),
]
