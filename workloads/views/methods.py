"""The methods a page with a form takes. Read-only pages use Django's require_safe (GET and HEAD), buttons
require_POST; anything else answers 405 with a page that says what the address takes (method_not_allowed.py)."""

from django.views.decorators.http import require_http_methods

form_page = require_http_methods(["GET", "HEAD", "POST"])
