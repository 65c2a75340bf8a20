"""The app's tables, one module per part of the domain."""

from workloads.models.organisations import Membership, Organisation, Role
from workloads.models.prices import ApiPrice, GpuPrice
from workloads.models.runs import Alert, ComparisonRun, ProbeAnswer, StrategyResult
from workloads.models.schedules import ScheduleEvent
from workloads.models.summaries import Summary, SummaryEmail
from workloads.models.tokens import ApiToken
from workloads.models.uploads import Upload, UploadFile, UploadItem
from workloads.models.workloads import Document, Probe, Workload

__all__ = [
    "Alert", "ApiPrice", "ApiToken", "ComparisonRun", "Document", "GpuPrice", "Membership", "Organisation", "Probe",
    "ProbeAnswer", "Role", "ScheduleEvent", "StrategyResult", "Summary", "SummaryEmail", "Upload", "UploadFile",
    "UploadItem", "Workload",
]
