from django.urls import path

from workloads.views import (dashboard, document_pages, endpoint_pages, export_pages, organisation_pages, planning_page,
                             price_pages, probe_pages, run_pages, schedule_pages, summary_pages, sweep_pages,
                             upload_pages, workload_pages)

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    # Workloads and their documents
    path("workloads/new/", workload_pages.workload_create, name="workload_create"),
    path("workloads/<int:pk>/", workload_pages.workload_detail, name="workload_detail"),
    path("workloads/<int:pk>/edit/", workload_pages.workload_edit, name="workload_edit"),
    path("workloads/<int:pk>/delete/", workload_pages.workload_delete, name="workload_delete"),
    path("workloads/<int:pk>/documents/<int:document_pk>/", document_pages.document_detail, name="document_detail"),
    path("workloads/<int:pk>/documents/<int:document_pk>/text.txt", document_pages.document_text, name="document_text"),
    path("workloads/<int:pk>/documents/<int:document_pk>/delete/", document_pages.document_delete,
         name="document_delete"),
    path("workloads/<int:pk>/planning/", planning_page.planning, name="planning"),
    # Schedules: when a workload's comparison fires, in the organisation's time zone
    path("workloads/<int:pk>/schedule/", schedule_pages.schedule_edit, name="schedule_edit"),
    path("workloads/<int:pk>/schedule/fire/", schedule_pages.schedule_fire, name="schedule_fire"),
    # The organisation: its time zone and recipients, and its members with their roles
    path("organisation/", organisation_pages.organisation_edit, name="organisation_edit"),
    path("organisation/members/new/", organisation_pages.member_add, name="member_add"),
    path("organisation/members/<int:pk>/role/", organisation_pages.member_role, name="member_role"),
    path("organisation/members/<int:pk>/remove/", organisation_pages.member_remove, name="member_remove"),
    path("organisation/members/<int:pk>/link/", organisation_pages.member_link, name="member_link"),
    # Uploads
    path("workloads/<int:pk>/upload/", upload_pages.upload_create, name="upload_create"),
    path("uploads/<int:pk>/", upload_pages.upload_detail, name="upload_detail"),
    path("uploads/<int:pk>/status.json", upload_pages.upload_status, name="upload_status"),
    path("uploads/<int:pk>/cancel/", upload_pages.upload_cancel, name="upload_cancel"),
    path("uploads/<int:pk>/retry/", upload_pages.upload_retry, name="upload_retry"),
    # Probes
    path("workloads/<int:pk>/probes/new/", probe_pages.probe_create, name="probe_create"),
    path("workloads/<int:pk>/probes/generate/", probe_pages.probes_generate, name="probes_generate"),
    path("workloads/<int:pk>/probes/import/", probe_pages.probe_import_page, name="probe_import"),
    path("workloads/<int:pk>/probes/<int:probe_pk>/edit/", probe_pages.probe_edit, name="probe_edit"),
    path("workloads/<int:pk>/probes/<int:probe_pk>/delete/", probe_pages.probe_delete, name="probe_delete"),
    # Comparison runs
    path("workloads/<int:pk>/runs/new/", run_pages.run_create, name="run_create"),
    path("workloads/<int:pk>/runs.csv", run_pages.runs_csv, name="runs_csv"),
    path("runs/<int:pk>/", run_pages.run_detail, name="run_detail"),
    path("workloads/<int:pk>/sweeps/new/", sweep_pages.sweep_create, name="sweep_create"),
    path("sweeps/<int:pk>/", sweep_pages.sweep_detail, name="sweep_detail"),
    path("sweeps/<int:pk>/cancel/", sweep_pages.sweep_cancel, name="sweep_cancel"),
    path("sweeps/<int:pk>/retry/", sweep_pages.sweep_retry, name="sweep_retry"),
    path("runs/<int:pk>/status.json", run_pages.run_status, name="run_status"),
    path("runs/<int:pk>/cancel/", run_pages.run_cancel, name="run_cancel"),
    path("runs/<int:pk>/retry/", run_pages.run_retry, name="run_retry"),
    path("runs/<int:pk>/reprice/", run_pages.run_reprice, name="run_reprice"),
    path("runs/<int:pk>/delete/", run_pages.run_delete, name="run_delete"),
    # The manager's PDF summary: export (again), follow the export, download the newest, e-mail it
    path("runs/<int:pk>/summary/", summary_pages.summary_create, name="summary_create"),
    path("runs/<int:pk>/summary.pdf", summary_pages.summary_download, name="summary_download"),
    path("runs/<int:pk>/summary/status.json", summary_pages.summary_status, name="summary_status"),
    path("runs/<int:pk>/summary/cancel/", summary_pages.summary_cancel, name="summary_cancel"),
    path("runs/<int:pk>/summary/email/", summary_pages.summary_email, name="summary_email"),
    # Exports: a run, and a workload's history (its CSV is the runs CSV above), as CSV and JSON files
    path("runs/<int:pk>/export.csv", export_pages.run_export_csv, name="run_export_csv"),
    path("runs/<int:pk>/export.json", export_pages.run_export_json, name="run_export_json"),
    path("workloads/<int:pk>/history.csv", run_pages.runs_csv, name="workload_history_csv"),
    path("workloads/<int:pk>/history.json", export_pages.workload_history_json, name="workload_history_json"),
    # The price book
    path("prices/", price_pages.price_book, name="price_book"),
    path("prices/gpu/new/", price_pages.gpu_price_create, name="gpu_price_create"),
    path("prices/gpu/<int:pk>/delete/", price_pages.gpu_price_delete, name="gpu_price_delete"),
    path("prices/api/new/", price_pages.api_price_create, name="api_price_create"),
    path("prices/api/<int:pk>/delete/", price_pages.api_price_delete, name="api_price_delete"),
    path("prices/reprice/", price_pages.reprice_all, name="reprice_all"),
    # Endpoints: OpenAI-compatible servers a comparison can call, their keys stored encrypted
    path("endpoints/", endpoint_pages.endpoints, name="endpoints"),
    path("endpoints/new/", endpoint_pages.endpoint_create, name="endpoint_create"),
    path("endpoints/<int:pk>/delete/", endpoint_pages.endpoint_delete, name="endpoint_delete"),
]
