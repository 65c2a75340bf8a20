"""The deployment files as data: docker-compose.yml through a YAML parser, the Dockerfile's stages, .env.example.

No Docker engine runs on the development machines, so the tests read what the engine would run.
"""

import ast
import re
import shlex
import socket
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ["migrate", "provision", "web", "worker-gpu", "worker-cpu", "beat", "flower"]


@pytest.fixture(scope="session")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="session")
def services(compose) -> dict:
    return compose["services"]


def dockerfile_stages() -> dict[str, list[tuple[str, str]]]:
    """Each stage's instructions as (KEYWORD, arguments), continuation lines joined, comments dropped.

    A stage built FROM another stage starts with that stage's instructions, as Docker builds it.
    """
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    stages: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            image, _, name = args.partition(" AS ")
            current = stages.setdefault(name.strip(), list(stages.get(image.strip(), [])))
        elif current is not None:
            current.append((keyword, " ".join(args.split())))
    return stages


def instructions(stage: list[tuple[str, str]], keyword: str) -> list[str]:
    return [args for k, args in stage if k == keyword]


def image_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for args in instructions(stage, "ENV"):
        env |= dict(pair.split("=", 1) for pair in shlex.split(args))
    return env


def env_example() -> dict[str, str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def settings_env_reads() -> dict[str, bool]:
    """Every environment variable costplanner/settings.py reads through django-environ -> whether it is required."""
    tree = ast.parse((ROOT / "costplanner" / "settings.py").read_text())
    reads = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "env"
                and node.args and isinstance(node.args[0], ast.Constant)):
            default = next((k.value for k in node.keywords if k.arg == "default"), None)
            reads[node.args[0].value] = default is None or "NOTSET" in ast.unparse(default)
    return reads


def compose_variables() -> set[str]:
    """The names docker compose fills in from .env (`${NAME}`, `${NAME:-default}`, `${NAME:?message}`)."""
    return set(re.findall(r"\$\{(\w+)", (ROOT / "docker-compose.yml").read_text()))


def free_port() -> int:
    """A port nothing listens on now, on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
