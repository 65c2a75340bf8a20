"""The app's tables, one module per part of the domain, and the periods a run belongs to (periods).

Layer: the bottom; imports only Django, workloads.formatting and engine.core (and cryptography, for endpoint_keys).
"""

from workloads.models.comparison_runs import Alert, ComparisonRun, ProbeAnswer, StrategyResult
from workloads.models.endpoint_calls import EndpointCall
from workloads.models.endpoints import Endpoint
from workloads.models.engine_calls import EngineCall
from workloads.models.group_sweeps import GroupSweep
from workloads.models.organisations import Membership, Organisation, Role
from workloads.models.price_book import ApiPrice, GpuPrice
from workloads.models.run_pricings import RunPricing
from workloads.models.run_shards import RunShard
from workloads.models.schedule_events import ScheduleEvent
from workloads.models.summary_jobs import Summary, SummaryEmail
from workloads.models.tokens import ApiToken
from workloads.models.upload_jobs import Upload, UploadFile, UploadItem
from workloads.models.workloads import Document, Probe, Workload

__all__ = [
    "Alert", "ApiPrice", "ApiToken", "ComparisonRun", "Document", "Endpoint", "EndpointCall", "EngineCall",
    "GpuPrice", "GroupSweep", "Membership", "Organisation", "Probe", "ProbeAnswer", "Role", "RunPricing",
    "RunShard",    "ScheduleEvent", "StrategyResult", "Summary", "SummaryEmail", "Upload", "UploadFile", "UploadItem",
    "Workload",
]
