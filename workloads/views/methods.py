"""The methods a page takes. Read-only pages take GET and HEAD (read_only), pages with a form those and POST
(form_page), buttons POST only (require_POST); anything else answers 405 with a page that says what the address
takes (workloads.middleware.MethodNotAllowedPage)."""

from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

form_page = require_http_methods(["GET", "HEAD", "POST"])


def read_only(view):
    """GET and HEAD only. Exempt from the CSRF check, which runs before the view and would answer a POST with a
    403 "CSRF verification failed" page instead of the 405 that says what the address takes: these views change
    nothing, whatever they are sent."""
    return csrf_exempt(require_safe(view))
