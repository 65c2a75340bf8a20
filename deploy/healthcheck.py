"""The web container's health check: gunicorn answers and WhiteNoise serves a collected static file.

A static file, because WhiteNoise answers it before Django checks the Host header (ALLOWED_HOSTS need
not name 127.0.0.1) and without the database. X-Forwarded-Proto keeps SECURE_SSL_REDIRECT from
redirecting it when TRUST_X_FORWARDED_PROTO is on. Exit status 0 when healthy, 1 otherwise.
"""

import os
import sys
import urllib.error
import urllib.request

URL = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/static/css/site.css"

try:
    with urllib.request.urlopen(urllib.request.Request(URL, headers={"X-Forwarded-Proto": "https"}), timeout=5) as r:
        healthy = r.status == 200
except (urllib.error.URLError, OSError) as exc:
    print(f"{URL}: {exc}", file=sys.stderr)
    healthy = False
sys.exit(0 if healthy else 1)
