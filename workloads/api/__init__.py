"""The JSON API under /api/, with its OpenAPI schema at /api/openapi.json (django-ninja).

Layer: below the views; may import reporting, comparisons, documents, models, organisations and engine.core.
"""

from ninja import NinjaAPI

from workloads.api import error_responses
from workloads.api.auth import TokenAuth
from workloads.api.endpoint_endpoints import router as endpoints_router
from workloads.api.export_endpoints import router as exports_router
from workloads.api.price_endpoints import router as prices_router
from workloads.api.run_endpoints import router as runs_router
from workloads.api.summary_endpoints import router as summaries_router
from workloads.api.sweep_endpoints import router as sweeps_router
from workloads.api.workload_endpoints import router as workloads_router

DESCRIPTION = """Compare chunked and full-context inference on your own documents.

**Authentication**: every endpoint needs `Authorization: Bearer <token>`; make a token with
`python manage.py createapitoken --user NAME --org ORG`. Everything is scoped to the token user's organisation,
and their role there says what they may change: a viewer only reads (and exports PDF summaries), a member also
uploads, adds probes, starts, cancels and retries runs and group-size sweeps, cancels uploads and PDF summaries and
mails summaries, an admin also adds prices, re-prices runs (each re-pricing is kept beside the earlier ones), adds
and deletes endpoints and deletes workloads and runs.

**Errors** are JSON, `{"detail": "<the first problem>"}`:
400 for bad input (schema validation too: this API answers 400, not 422), 401 for a missing or
unknown token, 403 for a user without an organisation or whose role does not allow the action,
404 for anything not in your organisation, 409 for an action the object's state does not allow,
429 for an address that sent too many unknown tokens (or wrong passwords), until the failures are old enough,
and for a request that would take the organisation past a quota the operator set: runs and sweeps queued or running
at once, uploads a day, or stored bytes. Its body names the quota, its use before the request, its limit and what
the request would add: `{"detail": ..., "quota": "runs_queued", "used": 10, "limit": 10, "adding": 1}`.
"""

api = NinjaAPI(title="costplanner", version="1", description=DESCRIPTION, openapi_url="/openapi.json",
               auth=TokenAuth())
error_responses.install(api)
api.add_router("", workloads_router)
api.add_router("", runs_router)
api.add_router("", sweeps_router)
api.add_router("", summaries_router)
api.add_router("", prices_router)
api.add_router("", endpoints_router)
api.add_router("", exports_router)
