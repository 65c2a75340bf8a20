"""A wrong attention backend in the environment fails `manage.py check`, before any job runs."""

from django.core.checks import run_checks


def test_an_unknown_attention_backend_fails_the_system_check(monkeypatch):
    monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", "cuda-magic")
    errors = [e for e in run_checks() if e.id == "costplanner.E004"]
    assert errors and "cuda-magic" in errors[0].msg


def test_the_known_backends_pass_the_system_check(monkeypatch):
    for name in ("auto", "torch", "triton"):
        monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", name)
        assert not {"costplanner.E004", "costplanner.E005"} & {e.id for e in run_checks()}
