"""gunicorn's settings for the web image (`gunicorn --config deploy/gunicorn.conf.py`, the Dockerfile's command;
benchmarks/page_load.py starts gunicorn the same way).

The app is loaded once, in the master, before the workers are forked, and its URLconf with it: every view, template
tag library and the API's schema models. Each worker then starts ready, instead of paying for those imports (about a
second on a 2-core machine) on its first request, and the imports' memory is shared between the workers.

gunicorn writes `Server: gunicorn` into every response itself, in `Response.default_headers`, and has no setting to
leave it out: naming the server and its version helps nobody but someone matching it against known flaws. Loading
this file is the one place gunicorn runs our code before it serves a request, so it drops that line here, in every
worker it forks afterwards. tests/deploy checks the header against a real gunicorn, so an upgrade that moves the
line fails there rather than sending it again.
"""

from gunicorn.http import wsgi

preload_app = True
# A sync worker must answer each request within `timeout` seconds, or the master kills it (and the client gets a 500):
# the whole request, its body's arrival included. The largest upload (UPLOAD_MAX_FILES x UPLOAD_MAX_FILE_BYTES, 1000 MiB
# by default) must arrive and be stored inside it: behind a proxy that buffers request bodies (nginx does by default)
# it arrives at the proxy's speed, not the client's; without one, bytes / link speed must fit (docs/deployment.md).
# An operator raises it with GUNICORN_CMD_ARGS="--timeout 600", which overrides this file.
timeout = 120


def when_ready(server):
    from django.urls import get_resolver

    get_resolver().resolve("/")  # imports the URLconf, and through it every view module


_with_server = wsgi.Response.default_headers


def _without_server(self) -> list[str]:
    return [line for line in _with_server(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _without_server
