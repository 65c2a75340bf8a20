"""WhiteNoise serves static files from gunicorn: collected with hashed names in the images, found in place in tests."""

import gzip
import json
import os
import subprocess
import sys
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from tests.deploy.conftest import ROOT, dockerfile_stages, free_port, instructions
from tests.workloads.live import database_url, start, stop, wait_for

SITE_CSS = (ROOT / "static" / "css" / "site.css").read_bytes()
MANIFEST = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}


@pytest.fixture
def collected(settings, tmp_path):
    """The project's own static folder collected as the image collects it (all of it takes minutes here)."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = MANIFEST
    settings.STATICFILES_DIRS = [ROOT / "static"]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.WHITENOISE_USE_FINDERS = settings.WHITENOISE_AUTOREFRESH = False
    call_command("collectstatic", "--noinput", verbosity=0)
    return settings.STATIC_ROOT


def _hashed(root, name: str) -> str:
    from django.contrib.staticfiles.storage import staticfiles_storage

    hashed = staticfiles_storage.stored_name(name)
    assert hashed != name and (root / hashed).is_file()
    return hashed


def test_it_serves_a_collected_file_compressed_and_cached_for_ever(collected, client):
    hashed = _hashed(collected, "css/site.css")

    response = client.get(f"/static/{hashed}", HTTP_ACCEPT_ENCODING="gzip")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
    assert response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"]
    assert gzip.decompress(b"".join(response.streaming_content)) == SITE_CSS


def test_pages_link_the_hashed_names(collected, client, db):
    hashed = _hashed(collected, "css/site.css")

    assert f"/static/{hashed}" in client.get("/accounts/login/").content.decode()


def test_without_the_manifest_it_serves_files_where_they_are(client, settings):
    settings.DEBUG = False
    assert not django_settings.STATIC_MANIFEST  # tests, like runserver, collect nothing

    response = client.get("/static/css/site.css")

    assert response.status_code == 200 and b"".join(response.streaming_content) == SITE_CSS
    assert client.get("/static/plotly/plotly.min.js").status_code == 200
    assert client.get("/static/plotly/datasets/iris.csv.gz").status_code == 404  # the package's other files


def test_of_the_plotly_package_only_plotly_js_is_collected(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"  # the project's own finders, plain copies: seconds
    call_command("collectstatic", "--noinput", verbosity=0)

    plotly = settings.STATIC_ROOT / "plotly"
    assert sorted(str(p.relative_to(plotly)) for p in plotly.rglob("*")) == ["plotly.min.js"]
    assert (settings.STATIC_ROOT / "css" / "site.css").read_bytes() == SITE_CSS


def test_gunicorn_runs_the_web_image_command_and_passes_the_health_check(collected, tmp_path, db):
    from django.db import connection

    argv = json.loads(instructions(dockerfile_stages()["web"], "CMD")[-1])
    port = free_port()
    env = {"DEBUG": "0", "STATIC_MANIFEST": "1", "STATIC_ROOT": str(collected), "SECRET_KEY": os.environ["SECRET_KEY"],
           "DATABASE_URL": database_url(connection.settings_dict), "ALLOWED_HOSTS": "costplanner.example.com",
           "TRUST_X_FORWARDED_PROTO": "1", "SECURE_SSL_REDIRECT": "1", "PORT": str(port),
           "GUNICORN_CMD_ARGS": f"--bind 127.0.0.1:{port}"}
    health = [sys.executable, "deploy/healthcheck.py"]
    log = tmp_path / "gunicorn.log"
    process = start([os.path.join(os.path.dirname(sys.executable), argv[0]), *argv[1:]], log, **env)
    try:
        wait_for(lambda: "Booting worker" in log.read_text() or process.poll() is not None, 60, "gunicorn to start")
        assert process.poll() is None, log.read_text()
        checked = wait_for(lambda: subprocess.run(health, cwd=ROOT, env={**os.environ, **env}).returncode == 0, 30,
                           "the health check to pass")
        assert checked
        hashed = _hashed(collected, "css/site.css")
        # As the TLS proxy forwards it.
        request = urllib.request.Request(f"http://127.0.0.1:{port}/static/{hashed}",
                                         headers={"Host": "costplanner.example.com", "X-Forwarded-Proto": "https"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200 and response.read() == SITE_CSS
    finally:
        stop(process)
    assert subprocess.run(health, cwd=ROOT, env={**os.environ, **env}, capture_output=True).returncode == 1
