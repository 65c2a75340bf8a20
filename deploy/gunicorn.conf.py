"""gunicorn's settings for the web image (`gunicorn --config deploy/gunicorn.conf.py`).

gunicorn writes `Server: gunicorn` into every response itself, in `Response.default_headers`, and has no setting to
leave it out: naming the server and its version helps nobody but someone matching it against known flaws. Loading
this file is the one place gunicorn runs our code before it serves a request, so it drops that line here, in every
worker it forks afterwards. tests/deploy checks the header against a real gunicorn, so an upgrade that moves the
line fails there rather than sending it again.
"""

from gunicorn.http import wsgi

_with_server = wsgi.Response.default_headers


def _without_server(self) -> list[str]:
    return [line for line in _with_server(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _without_server
