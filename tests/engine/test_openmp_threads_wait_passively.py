"""Entry points ask OpenMP threads to sleep while they wait, so that CPU time measures work, unless the
environment already chose a wait policy."""

from engine.core import openmp


def test_it_sets_the_passive_policy_when_none_was_chosen(monkeypatch):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    openmp.wait_passively()
    assert openmp.waits_passively()


def test_it_keeps_a_policy_the_environment_chose(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    openmp.wait_passively()
    assert not openmp.waits_passively()


def test_the_test_suite_itself_waits_passively():
    assert openmp.waits_passively(), "tests/conftest.py sets it before torch loads"
