"""The engine's compare report, stored as rows you can query (and kept whole on the run)."""

from __future__ import annotations

from workloads.models import ComparisonRun, ProbeAnswer, StrategyResult

_NO_FLOPS = {"linear": 0, "attention": 0, "indexer": 0, "total": 0}


def store_report(run: ComparisonRun, report: dict) -> None:
    """Write one StrategyResult per strategy and one ProbeAnswer per probe; call inside a transaction."""
    run.report = report
    run.device = report["device"]
    run.stopped = report.get("stopped") or ""
    probes = {(p.question, p.answer): p for p in run.workload.probes.all()}
    for name, r in report["strategies"].items():
        if "refused" in r:
            StrategyResult.objects.create(run=run, strategy=name, mode=r["mode"], refused=r["refused"])
            continue
        # Through an endpoint there are no FLOPs or device rates to store (engine.strategies.endpoint_compare).
        quality, flops, rate = r["quality"], r.get("flops") or _NO_FLOPS, r.get("rate") or {}
        latency = r.get("latency") or {}
        low, high = quality.get("ci95") or (None, None)
        result = StrategyResult.objects.create(
            run=run, strategy=name, mode=r["mode"], tokens_in=r["tokens_in"], tokens_out=r["tokens_out"],
            calls=r["calls"], seconds=r["seconds"], wall_seconds=r["wall_seconds"], seconds_cpu=r.get("seconds_cpu"),
            rate_median=rate.get("median"), rate_min=rate.get("min"), rate_max=rate.get("max"),
            peak_memory_bytes=r["peak_memory_bytes"], flops_linear=flops["linear"],
            flops_attention=flops["attention"], flops_indexer=flops["indexer"], flops_total=flops["total"],
            bytes_total=(r.get("bytes") or {}).get("total", 0), tokens_cached=r.get("tokens_cached", 0),
            tokens_in_local=r.get("tokens_in_local"), latency_median=latency.get("median"),
            latency_p95=latency.get("p95"), attempts=r.get("attempts", 0), accuracy=quality["accuracy"],
            n_probes=quality["n_probes"],
            accuracy_low=low, accuracy_high=high, f1=quality.get("f1"), mcnemar_p=quality.get("mcnemar_p"),
            gate=quality.get("gate") or "", probes_to_tell=quality.get("probes_to_tell"),
            gated=quality["gated"], top1_agreement=quality["top1_agreement"], index_overlap=quality["index_overlap"],
        )
        ProbeAnswer.objects.bulk_create(
            ProbeAnswer(result=result, probe=probes.get((a["question"], a["expected"])), question=a["question"],
                        expected=a["expected"], kind=a["kind"], output=a["output"], correct=a["correct"],
                        f1=a.get("f1"))
            for a in r["probes"]
        )
