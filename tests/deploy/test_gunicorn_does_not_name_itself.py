"""The web image's gunicorn sends no Server header, and its pages carry the site's security headers."""

import json
import os
import sys
import urllib.request

from tests.deploy.conftest import dockerfile_stages, free_port, instructions
from tests.workloads.live import database_url, start, stop, wait_for


def test_the_web_images_gunicorn_sends_no_server_header(tmp_path, db):
    from django.db import connection

    argv = json.loads(instructions(dockerfile_stages()["web"], "CMD")[-1])
    port = free_port()
    env = {"DEBUG": "0", "SECRET_KEY": os.environ["SECRET_KEY"], "DATABASE_URL": database_url(connection.settings_dict),
           "ALLOWED_HOSTS": "127.0.0.1", "GUNICORN_CMD_ARGS": f"--bind 127.0.0.1:{port} --workers 1"}
    log = tmp_path / "gunicorn.log"
    process = start([os.path.join(os.path.dirname(sys.executable), argv[0]), *argv[1:]], log, **env)
    try:
        wait_for(lambda: "Booting worker" in log.read_text() or process.poll() is not None, 60, "gunicorn to start")
        assert process.poll() is None, log.read_text()

        def login_page():
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10)
            except OSError:
                return None

        with wait_for(login_page, 30, "the login page") as response:
            assert response.status == 200
            assert response.headers.get_all("Server") is None
            assert "default-src 'self'" in response.headers["Content-Security-Policy"]
            assert "camera=()" in response.headers["Permissions-Policy"]
    finally:
        stop(process)
