"""The API refuses a comparison estimated to take longer than an hour with a 400 that says how long and which flag
starts it anyway (issue 36)."""

from workloads.comparisons import fit


def test_the_api_refuses_it_with_the_duration_and_the_flag_to_send(as_alice, asked_often, prices, monkeypatch):
    workload = asked_often
    monkeypatch.setattr(fit, "CONFIRM_ABOVE_S", 0)

    response = as_alice.post(f"/workloads/{workload.pk}/runs", {"strategies": ["chunked"]})
    assert response.status_code == 400 and "This comparison would take about" in response.json()["detail"]
    assert response.json()["detail"].endswith('send "confirm_duration": true to start it anyway')
    assert as_alice.post(f"/workloads/{workload.pk}/runs", {"strategies": ["chunked"], "confirm_duration": True}
                         ).status_code == 202
