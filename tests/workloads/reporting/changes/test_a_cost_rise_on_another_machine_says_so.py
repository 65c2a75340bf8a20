"""A cost that moved between two periods because the run moved to another machine says so: a CPU's name carries its
model (on a CPU without AMX dense attention took twice as long for the same price an hour), and the alert names both
devices (issue 36: a 36% move between two runs was reported as a change)."""

import torch

from engine.core.device_profile import device_class
from engine.model.measure import cpu_model, device_name
from workloads.models import Alert

from .conftest import Q3, Q4, run_at


def test_a_cpus_name_carries_its_model_and_keeps_its_price_class():
    name = device_name(torch.device("cpu"))
    assert name.startswith(f"cpu ({torch.get_num_threads()} threads")
    assert cpu_model() in name and device_class(name) == "cpu"


def test_the_cost_alert_names_both_machines(workload, probe, prices):
    run_at(workload, probe, Q3, device="cpu (2 threads, Intel Xeon)", full_dense={"seconds": 36})
    now = run_at(workload, probe, Q4, device="cpu (2 threads, AMD EPYC)", full_dense={"seconds": 72})

    alert = Alert.objects.get(run=now, kind=Alert.Kind.COST_UP)
    assert alert.message.endswith(", measured on another device (cpu (2 threads, Intel Xeon) → "
                                  "cpu (2 threads, AMD EPYC)).")


def test_on_the_same_machine_it_says_nothing_of_devices(workload, probe, prices):
    run_at(workload, probe, Q3, device="cpu (2 threads, AMD EPYC)", full_dense={"seconds": 36})
    now = run_at(workload, probe, Q4, device="cpu (2 threads, AMD EPYC)", full_dense={"seconds": 72})
    assert "another device" not in Alert.objects.get(run=now, kind=Alert.Kind.COST_UP).message
