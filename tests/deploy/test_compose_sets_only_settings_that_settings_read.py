"""The environment compose gives the containers (.env, from .env.example) is what the settings and services read."""

import re
from urllib.parse import urlsplit

from engine.core.backend_names import BACKEND_ENV
from tests.deploy.conftest import (
    APP_SERVICES, ROOT, compose_variables, dockerfile_stages, env_example, image_env, settings_env_reads,
)

# Read by something other than settings.py, each named with its reader.
GUNICORN = {"WEB_CONCURRENCY"}  # gunicorn's own: the web container's process count
FLOWER = set(re.findall(r"\$\{(\w+)", (ROOT / "deploy" / "flower.sh").read_text()))
ENGINE = {BACKEND_ENV}  # the engine's attention backend, read in the worker (and checked by manage.py check)
# Read by settings.py but never set in a container: the filesystem broker of `make run` only.
EMBEDDED_ONLY = {"CELERY_BROKER_FOLDER"}


def test_every_variable_in_env_example_has_a_reader():
    unread = set(env_example()) - set(settings_env_reads()) - compose_variables() - GUNICORN - FLOWER - ENGINE
    assert not unread, f"nothing reads {sorted(unread)}"


def test_every_setting_the_containers_need_is_in_env_example_or_the_image():
    from_image = set(image_env(dockerfile_stages()["web"]))
    missing = set(settings_env_reads()) - set(env_example()) - from_image - EMBEDDED_ONLY
    assert not missing, f"settings.py reads {sorted(missing)}, which .env.example does not give"
    required = {name for name, needed in settings_env_reads().items() if needed}
    assert "SECRET_KEY" in required and required <= set(env_example())


def test_the_app_services_take_their_settings_from_env(services):
    for name in APP_SERVICES:
        assert services[name]["env_file"] == ".env", name
        assert set(services[name].get("environment", {})) <= set(settings_env_reads()), name


def test_every_compose_variable_is_in_env_example():
    assert compose_variables() <= set(env_example())


def test_the_urls_name_the_compose_services_with_their_passwords():
    env = env_example()
    database, broker = urlsplit(env["DATABASE_URL"]), urlsplit(env["CELERY_BROKER_URL"])
    assert (database.scheme, database.hostname, database.username, database.path) == (
        "postgres", "postgres", "costplanner", "/costplanner")
    assert database.password == env["POSTGRES_PASSWORD"]
    assert (broker.scheme, broker.hostname, broker.password) == ("redis", "redis", env["REDIS_PASSWORD"])


def test_env_example_holds_no_real_secret():
    env = env_example()
    for name in ["SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"]:
        assert env[name].startswith("change-me"), name
    assert env["FLOWER_BASIC_AUTH"].endswith(":change-me")
    assert env["DEBUG"] == "0"
    assert ".env" in (ROOT / ".gitignore").read_text().split() and ".env" in (ROOT / ".dockerignore").read_text()
