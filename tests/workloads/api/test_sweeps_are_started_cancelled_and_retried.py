"""Group-size sweeps through the API, as runs are: started, listed and read; a queued or running one cancelled, a
finished one a 409; a failed or cancelled one queued again, any other a 409; members change them, viewers only read,
and another organisation's are a 404."""

import pytest

from workloads.models import ApiToken, GroupSweep

from .conftest import Api


@pytest.fixture
def as_vera(client, vera):
    return Api(client, ApiToken.issue(vera))


@pytest.fixture
def sweep(workload):
    return GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                     settings={"window": 64, "topk": 64}, progress_total=3)


def test_a_member_starts_a_sweep_and_reads_it_back(as_bob, workload, document, probe):
    response = as_bob.post(f"/workloads/{workload.pk}/sweeps", {"group_sizes": [4, 1, 4]})

    assert response.status_code == 202, response.json()
    started = response.json()
    assert started["status"] == "queued" and started["group_sizes"] == [4, 1]  # in order, once each
    assert started["progress"] == {"done": 0, "total": 3} and started["report"] is None
    assert started["recommendation"] is None
    assert as_bob.get(f"/sweeps/{started['id']}").json() == started
    assert [s["id"] for s in as_bob.get(f"/workloads/{workload.pk}/sweeps").json()] == [started["id"]]


def test_a_second_sweep_while_one_is_unfinished_is_refused(as_bob, workload, document, probe, sweep):
    response = as_bob.post(f"/workloads/{workload.pk}/sweeps")

    assert (response.status_code, response.json()) == (400, {
        "detail": "a group-size sweep of this workload is still to finish: wait for it, or cancel it"})
    assert GroupSweep.objects.count() == 1


@pytest.mark.parametrize("sizes, detail", [([], "group_sizes: List should have at least 1 item after validation, "
                                                "not 0"),
                                           ([0], "group_sizes.0: Input should be greater than or equal to 1")])
def test_bad_group_sizes_are_a_400(as_bob, workload, document, probe, sizes, detail):
    response = as_bob.post(f"/workloads/{workload.pk}/sweeps", {"group_sizes": sizes})

    assert (response.status_code, response.json()) == (400, {"detail": detail})
    assert not GroupSweep.objects.exists()


@pytest.mark.parametrize("status", ["queued", "running"])
def test_a_member_cancels_a_sweep_that_has_not_finished(as_bob, sweep, status):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status)

    response = as_bob.post(f"/sweeps/{sweep.pk}/cancel")

    assert response.status_code == 200
    assert response.json()["status"] == "cancelled" and response.json()["finished_at"]
    sweep.refresh_from_db()
    assert sweep.status == "cancelled" and sweep.finished_at is not None


@pytest.mark.parametrize("status", ["succeeded", "failed", "cancelled"])
def test_cancelling_a_finished_sweep_is_a_409(as_bob, sweep, status):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status)

    response = as_bob.post(f"/sweeps/{sweep.pk}/cancel")

    assert (response.status_code, response.json()) == (
        409, {"detail": f"sweep {sweep.pk} has already finished: it is {status}"})
    assert GroupSweep.objects.get(pk=sweep.pk).status == status


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_a_failed_or_cancelled_sweep_is_queued_again_as_new(as_bob, sweep, status, django_capture_on_commit_callbacks):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status, error="out of memory", progress_done=2,
                                                  claimed_by="gone:1", takeovers=1, device="cpu")

    with django_capture_on_commit_callbacks() as queued:
        response = as_bob.post(f"/sweeps/{sweep.pk}/retry")

    assert response.status_code == 200, response.json()
    again = response.json()
    assert (again["status"], again["error"], again["progress"]["done"], again["device"]) == ("queued", "", 0, "")
    assert again["finished_at"] is None and again["group_sizes"] == [1, 4]
    assert len(queued) == 1  # its task is sent once the retry is committed
    sweep.refresh_from_db()
    assert (sweep.claimed_by, sweep.takeovers) == ("", 0)


@pytest.mark.parametrize("status", ["queued", "running", "succeeded"])
def test_retrying_a_sweep_that_did_not_fail_is_a_409(as_bob, sweep, status):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status)

    response = as_bob.post(f"/sweeps/{sweep.pk}/retry")

    assert (response.status_code, response.json()) == (
        409, {"detail": f"sweep {sweep.pk} is {status}: only a failed or cancelled sweep is retried"})


def test_a_retry_waits_for_the_workloads_other_unfinished_sweep(as_bob, sweep, workload):
    GroupSweep.objects.filter(pk=sweep.pk).update(status="cancelled")
    GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[2])

    response = as_bob.post(f"/sweeps/{sweep.pk}/retry")

    assert (response.status_code, response.json()) == (409, {
        "detail": "a group-size sweep of this workload is still to finish: wait for it, or cancel it"})
    assert GroupSweep.objects.get(pk=sweep.pk).status == "cancelled"


def test_a_viewer_reads_sweeps_but_cannot_start_cancel_or_retry_them(as_vera, sweep, workload):
    assert as_vera.get(f"/sweeps/{sweep.pk}").status_code == 200
    assert as_vera.get(f"/workloads/{workload.pk}/sweeps").status_code == 200
    for path in (f"/workloads/{workload.pk}/sweeps", f"/sweeps/{sweep.pk}/cancel", f"/sweeps/{sweep.pk}/retry"):
        response = as_vera.post(path)
        assert response.status_code == 403, path
        assert response.json()["detail"].startswith("you are a viewer in Acme, and only ")
    assert GroupSweep.objects.get().status == "queued"


def test_another_organisations_sweep_is_a_404(as_charlie, sweep, workload):
    for path in (f"/sweeps/{sweep.pk}/cancel", f"/sweeps/{sweep.pk}/retry", f"/workloads/{workload.pk}/sweeps"):
        assert as_charlie.post(path).status_code == 404, path
    assert as_charlie.get(f"/sweeps/{sweep.pk}").status_code == 404
    assert GroupSweep.objects.get().status == "queued"


def test_a_workload_with_an_unfinished_sweep_is_not_deleted(as_alice, sweep, workload):
    response = as_alice.delete(f"/workloads/{workload.pk}")

    assert (response.status_code, response.json()) == (409, {
        "detail": f"sweep {sweep.pk} is queued: cancel it, or wait for it to finish, before deleting the workload"})
    assert as_alice.post(f"/sweeps/{sweep.pk}/cancel").status_code == 200
    assert as_alice.delete(f"/workloads/{workload.pk}").status_code == 204
    assert not GroupSweep.objects.exists()
