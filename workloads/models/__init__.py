"""The app's tables, one module per part of the domain."""

from workloads.models.organisations import Membership, Organisation
from workloads.models.prices import ApiPrice, GpuPrice
from workloads.models.runs import ComparisonRun, ProbeAnswer, StrategyResult
from workloads.models.tokens import ApiToken
from workloads.models.uploads import Upload, UploadFile, UploadItem
from workloads.models.workloads import Document, Probe, Workload

__all__ = [
    "ApiPrice", "ApiToken", "ComparisonRun", "Document", "GpuPrice", "Membership", "Organisation", "Probe",
    "ProbeAnswer", "StrategyResult", "Upload", "UploadFile", "UploadItem", "Workload",
]
