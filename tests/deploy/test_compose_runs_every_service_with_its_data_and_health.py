"""docker-compose.yml: postgres 16 and redis 7 keep their data in volumes and report health; the app waits for them."""

from tests.deploy.conftest import APP_SERVICES


def test_it_has_every_service(services):
    assert set(services) == {"postgres", "redis", *APP_SERVICES}


def test_postgres_and_redis_keep_their_data_in_named_volumes(compose, services):
    assert services["postgres"]["image"] == "postgres:16" and services["redis"]["image"] == "redis:7"
    assert "postgres-data:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    assert "redis-data:/data" in services["redis"]["volumes"]
    assert "--appendonly" in services["redis"]["command"]  # queued jobs survive a restart
    assert {"postgres-data", "redis-data", "models"} <= set(compose["volumes"])


def test_postgres_and_redis_report_health(services):
    assert services["postgres"]["healthcheck"]["test"] == ["CMD", "pg_isready", "-U", "costplanner", "-d",
                                                            "costplanner"]
    assert services["redis"]["healthcheck"]["test"] == ["CMD-SHELL", "redis-cli ping | grep -q PONG"]
    # The health check's redis-cli authenticates with the same password the server requires.
    assert services["redis"]["environment"]["REDISCLI_AUTH"] == "${REDIS_PASSWORD}"
    assert "${REDIS_PASSWORD:?" in " ".join(services["redis"]["command"])


def test_postgres_and_redis_need_passwords(services):
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert "POSTGRES_HOST_AUTH_METHOD" not in services["postgres"]["environment"]


def test_every_app_service_waits_for_healthy_postgres_and_redis(services):
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert depends["postgres"] == {"condition": "service_healthy"}, name
        assert depends["redis"] == {"condition": "service_healthy"}, name


def test_long_running_services_start_after_migrations_and_the_model(services):
    for name in ["web", "worker-gpu", "worker-cpu"]:
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name
        assert services[name]["depends_on"]["provision"] == {"condition": "service_completed_successfully"}, name
    assert services["beat"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert services["provision"]["command"] == ["python", "-m", "engine", "provision", "smollm2-135m-instruct",
                                                "qwen2.5-coder-0.5b-instruct"]
    assert services["migrate"]["restart"] == services["provision"]["restart"] == "no"


def test_only_the_web_app_and_flower_are_published_and_only_on_localhost(services):
    assert services["web"]["ports"] == ["127.0.0.1:${WEB_PUBLISHED_PORT:-8000}:8000"]
    assert services["flower"]["ports"] == ["127.0.0.1:${FLOWER_PUBLISHED_PORT:-5555}:5555"]
    for name in ["migrate", "provision", "worker-gpu", "worker-cpu", "beat"]:
        assert "ports" not in services[name], name
