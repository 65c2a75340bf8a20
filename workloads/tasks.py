"""Celery tasks: the only place the web app calls the engine.

Tasks take primary keys, claim their row with a conditional UPDATE and hold it with a lease and a heartbeat
(workloads.workers.leases.hold and Held.work: a redelivered task does nothing twice, a delivery of one whose worker died
takes it over, and an error fails the row the same way in every task), call the service that does the work, and
record the outcome in our own tables. Services queue them by name (workloads.workers.dispatch) and
never import this module. The model is loaded lazily inside the worker process, never
at import: CUDA must not be touched before the worker forks.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import replace

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine.core import run_settings  # torch-free, as the next
from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.core.probes import DEFAULT_LIMIT as PROBES_TO_GENERATE  # torch-free: it loads no model
from engine.core.probes import ProbeQuestion
from workloads import rules
from workloads.comparisons import batches, endpoint_spending, pricing, queued_inputs, shards
from workloads.comparisons.results import store_report
from workloads.comparisons.target_models import model_path
from workloads.documents import document_sets, intake, upload_retention
from workloads.models import (ComparisonRun, Document, EngineCall, GroupSweep, Probe, RunShard, Summary, SummaryEmail,
                              Upload, Workload)
from workloads.models.endpoint_keys import UnreadableKey
from workloads.reporting import scheduling
from workloads.reporting.summary import mail
from workloads.reporting.summary.pdf_exports import request_summary
from workloads.workers import leases, recovery

log = logging.getLogger(__name__)
_models: dict = {}  # per worker process: model name -> engine LoadedModel
_tokenizers: dict = {}

Status = ComparisonRun.Status
LOST_JOB_GRACE_S = 600
# What fails a run, or a shard, with its own words: a user can act on it.
REFUSALS = (EngineError, pricing.PricingError, queued_inputs.Refused, endpoint_spending.OverCap, UnreadableKey)


def _tokenizer(name: str):
    if name not in _tokenizers:
        from engine.model.loader import load_tokenizer

        _tokenizers[name] = load_tokenizer(model_path(name))
    return _tokenizers[name]


def _model(name: str):
    if name not in _models:
        from engine.model.loader import load_model

        _models[name] = load_model(model_path(name))
    return _models[name]


@shared_task(name="workloads.extract_upload")
def extract_upload(upload_pk: int) -> None:
    """Extract an upload's files into Documents: all of them in one transaction, or none."""
    if (held := leases.hold(Upload, upload_pk)) is None:
        return
    if held.taken_over:  # nothing was kept: documents are kept with "done", in one transaction
        Upload.objects.filter(pk=upload_pk).update(files_done=0)
    upload = Upload.objects.select_related("workload").get(pk=upload_pk)
    with held.work(internal="extraction failed: "):
        try:
            documents, items = intake.extract(upload, _tokenizer(upload.workload.target_model), held.me)  # slow
        except leases.Stopped:
            log.info("upload %s was cancelled while extracting, or taken over", upload_pk)
            return
        with transaction.atomic():  # the documents kept and the upload's "done" are saved together, or neither
            # Locked first: a cancel or a takeover meanwhile keeps nothing.
            if Upload.objects.select_for_update().filter(pk=upload_pk, status=Upload.Status.RUNNING,
                                                         claimed_by=held.me).exists():
                replaced_origins = intake.keep(upload, documents, items)
                Upload.finish(upload_pk, Upload.Status.DONE, held_by=held.me)
                upload_retention.after_extraction(upload_pk, replaced_origins)


@shared_task(name="workloads.generate_probes")
def generate_probes(workload_pk: int, limit: int = PROBES_TO_GENERATE) -> int:
    """Add up to `limit` of the engine's generated probes to a workload, with their passages, skipping questions
    it already has."""
    from engine.core.probes import generate_probes as generate

    documents = Document.objects.filter(workload_id=workload_pk)
    engine_documents = _texts(documents)
    # Only probes the probe form would save: one that it refuses could never be edited (an invisible character
    # inside a word, an answer too long).
    generated = [p for p in generate(engine_documents, limit) if _editable(p)]
    have = set(Probe.objects.filter(workload_id=workload_pk).values_list("question", flat=True))
    new = [Probe(workload_id=workload_pk, question=p.question, answer=p.answer, kind=p.kind, source=p.source or "",
                 passage=p.passage or "")
           for p in generated if p.question not in have]
    Probe.objects.bulk_create(new)
    Workload.objects.filter(pk=workload_pk).update(probes_generated_at=timezone.now(), probes_found=len(generated),
                                                   probes_added=len(new))
    return len(new)


def _texts(documents) -> list[DocumentText]:
    """The documents' rows as the engine reads them."""
    return [DocumentText(d.name, d.text) for d in documents]


def _questions(probes) -> list[ProbeQuestion]:
    """The probes' rows as the engine asks them; an empty source or passage is none."""
    return [ProbeQuestion(p.question, p.answer, p.kind, p.source or None, p.passage or None) for p in probes]


def _editable(probe) -> bool:
    return (len(probe.question) <= rules.QUESTION_MAX and len(probe.answer) <= rules.ANSWER_MAX
            and rules.is_one_line(probe.answer)
            and not rules.invisible_character(probe.question) and not rules.invisible_character(probe.answer))


@shared_task(name="workloads.run_comparison")
def run_comparison(run_pk: int) -> None:
    """Run a queued comparison for real on this worker's device, and store what it measured; a run of many questions
    is handed to its shards instead, and merged once they are done (workloads.comparisons.shards)."""
    if (held := leases.hold(ComparisonRun, run_pk)) is None:
        return
    if held.taken_over:
        recovery.clear_partial_run(run_pk)
    run = ComparisonRun.objects.select_related("workload__organisation").get(pk=run_pk)
    me = held.me
    with held.work(refusals=REFUSALS + (shards.ShardFailed,)):
        try:
            documents, probes = _inputs(run)
            if run.shards.exists():
                if (ended := shards.hand_to_shards(run, me)) is None:
                    log.info("run %s: handed to its shards", run_pk)
                    return
                shards.check_done(ended)  # every shard done: the merge below makes no call
            report = _compare(run, documents, probes)
        except leases.Stopped:
            log.info("run %s was cancelled while running, or taken over", run_pk)
            return
        except SoftTimeLimitExceeded:
            ComparisonRun.fail(run_pk, f"stopped at the time limit of {settings.CELERY_TASK_SOFT_TIME_LIMIT} s", me)
            return
    if not held.failed:
        with transaction.atomic():
            if not ComparisonRun.objects.select_for_update().filter(pk=run_pk, status=Status.RUNNING,
                                                                    claimed_by=me).exists():
                return  # cancelled just as it finished, or taken over by another worker: keep what it says
            store_report(run, report)
            run.save(update_fields=["report", "device", "stopped"])
            ComparisonRun.finish(run_pk, Status.SUCCEEDED, me, progress_done=F("progress_total"))
        run.refresh_from_db()
        pricing.price_run(run)
    # The quarter's PDF is waiting for the manager: one for the batch of readers, once the last of them has ended
    # (a failed one too, or the others' PDF would never come).
    if run.trigger == ComparisonRun.Trigger.SCHEDULED and (summarised := batches.summarised(run)) is not None:
        request_summary(summarised, None)


@shared_task(name="workloads.run_shard")
def run_shard(shard_pk: int) -> None:
    """Ask one shard of a comparison's questions with every strategy (workloads.comparisons.shards), keeping each call
    as the run's; the last shard to end hands the run back for its merge."""
    if (held := leases.hold(RunShard, shard_pk)) is None:
        return
    # A shard taken over from a dead worker resumes from the calls it kept: nothing to clear.
    shard = RunShard.objects.select_related("run__workload__organisation").get(pk=shard_pk)
    try:
        with held.work(refusals=REFUSALS):
            try:
                _compare(shard.run, *_inputs(shard.run), shard=shard)
            except leases.Stopped:
                log.info("shard %s was cancelled while running, or taken over", shard_pk)
                return
            except SoftTimeLimitExceeded:
                RunShard.fail(shard_pk, f"stopped at the time limit of {settings.CELERY_TASK_SOFT_TIME_LIMIT} s",
                              held.me)
                return
        if not held.failed:
            RunShard.finish(shard_pk, RunShard.Status.DONE, held.me, progress_done=F("progress_total"))
    finally:  # done, failed or stopped: the last to end hands the run back, whichever way it ended
        shards.shard_ended(shard.run_id)


def _inputs(run: ComparisonRun) -> tuple[list, list]:
    """The documents and probes the run was queued with, no others; one deleted or changed meanwhile refuses it,
    before the model is loaded."""
    documents, probes = queued_inputs.read(run)
    queued_inputs.check(run, documents, probes)
    return documents, probes


def _compare(run: ComparisonRun, documents: list, probes: list, shard: RunShard | None = None) -> dict:
    """The run's comparison, or with `shard` only that shard's questions: its report is not kept, its calls are, and
    the run's own fields are left to the merge."""
    from engine.strategies.work import ComparisonWork, Prices

    workload = run.workload
    if shard is None:
        run.units_of_work, run.documents = workload.units_of_work(documents), document_sets.snapshot(documents)
        run.save(update_fields=["units_of_work", "documents"])
    if run.reader:  # never sharded (shards.split_run)
        return _compare_through_endpoint(run, _texts(documents), _questions(probes))
    from engine.model.measure import device_name
    from engine.model.provenance import versions
    from engine.strategies.compare import compare

    lm = _model(run.model)
    device = device_name(lm.device)
    if shard is None:
        run.device, run.versions = device, versions()
        run.save(update_fields=["device", "versions"])
    # Prices are looked up before any device time is spent: an unpriced device or model fails now.
    on = run.day
    gpu = pricing.gpu_price(workload.organisation, device, on)
    api = pricing.workload_api_price(workload, on)
    # With no API model chosen the report's own API figures are 0; nothing reads them: price_run prices the rows.
    api_rates = (float(api.input_per_mtok), float(api.output_per_mtok)) if api else (0.0, 0.0)
    work = ComparisonWork.from_settings(
        documents=_texts(documents), probes=_questions(probes),
        strategies=run.strategies, values=run.settings(), prices=Prices(float(gpu.per_hour), *api_rates),
    )
    if shard is not None:  # top-1 agreement and index overlap read every document: the merge does them, once
        work = replace(work, diagnostics=False)
    # The calls this run already made on this device (before a takeover, before it failed and was retried, or in its
    # shards) are billed as kept, not made again.
    answered = dict(run.engine_calls.filter(device=device).values_list("key", "kept"))

    def keep(key: str, answer: dict) -> None:
        # A worker taken over while still alive may keep the same call first: the answer kept first stands.
        EngineCall.objects.bulk_create([EngineCall(run=run, device=device, key=key, kept=answer)],
                                       ignore_conflicts=True)

    me = leases.holder()
    progress = _progress(run.pk, me) if shard is None else shards.progress(shard, me)
    return compare(lm, work, progress=progress, answered=answered, keep=keep,
                   questions=None if shard is None else shard.questions)


def _compare_through_endpoint(run: ComparisonRun, documents: list[DocumentText], probes: list[ProbeQuestion]) -> dict:
    """Ask the run's endpoint (engine.strategies.endpoint_compare), with the run's model as the tokenizer of the
    chunks; a priced endpoint's estimate is checked against the caps first, and every reply is billed and kept as it
    arrives."""
    from engine.model.provenance import versions
    from engine.remote.client import EndpointTarget
    from engine.strategies.endpoint_compare import Tokenizing, compare_endpoint
    from engine.strategies.work import ComparisonWork, Prices

    endpoint = run.endpoint
    if endpoint is None:
        raise queued_inputs.Refused(f"its endpoint, {run.reader}, was deleted while it waited")
    price = pricing.run_api_price(run, run.day)  # None: an endpoint billed at no entry, whose spending is not known
    run.device, run.versions = run.reader, versions()
    run.save(update_fields=["device", "versions"])
    work = ComparisonWork.from_settings(documents=documents, probes=probes, strategies=run.strategies,
                                        values=run.settings(), prices=Prices(0.0, 0.0, 0.0))
    spending = endpoint_spending.Spending(run, price)
    target = EndpointTarget(endpoint.base_url, endpoint.model, endpoint.api_key())
    return compare_endpoint(Tokenizing(run.model, _tokenizer(run.model)), work, target,
                            answered=spending.answered(), keep=spending.keep, spend=spending.spend,
                            estimate=spending.check_estimate, progress=_progress(run.pk, leases.holder()))


def _progress(run_pk: int, me: str):
    def report(done: int, planned: int, message: str) -> None:
        leases.report(ComparisonRun, run_pk, me, progress_done=done, progress_total=planned,
                      progress_message=message[:300])
    return report


@shared_task(name="workloads.run_group_sweep")
def run_group_sweep(sweep_pk: int) -> None:
    """Run a queued group-size sweep (engine.evaluation.group_sweep) for real on this worker's device, and keep its
    report."""
    from engine.core.errors import EngineError
    from engine.evaluation.group_sweep import sweep
    from engine.model.measure import device_name

    if (held := leases.hold(GroupSweep, sweep_pk)) is None:
        return
    # A sweep keeps nothing until it is done, so one taken over from a dead worker simply starts again.
    job = GroupSweep.objects.select_related("workload").get(pk=sweep_pk)
    kept = job.settings

    def progress(done: int, planned: int, _message: str) -> None:
        # Between two questions asked: one cancelled stops here.
        leases.report(GroupSweep, sweep_pk, held.me, progress_done=done, progress_total=planned)

    with held.work(refusals=(EngineError,)):
        try:
            lm = _model(job.model)
            # A cancel while the model loaded stops it here.
            leases.report(GroupSweep, sweep_pk, held.me, device=device_name(lm.device))
            report = sweep(lm, _texts(job.workload.documents.all()), _questions(job.workload.probes.all()),
                           run_settings.attention(kept), job.group_sizes, kept["gate_points"], progress)
        except leases.Stopped:
            log.info("group-size sweep %s was cancelled while running, or taken over", sweep_pk)
            return
    if held.failed:
        return
    GroupSweep.finish(sweep_pk, GroupSweep.Status.SUCCEEDED, held.me, report=report,
                      progress_done=F("progress_total"))


@shared_task(name="workloads.fail_lost_jobs")
def fail_lost_jobs() -> int:
    """Fail the runs, their shards, uploads and summaries still "running" well past the hard time limit: their worker
    is gone.

    A worker killed at the hard limit, or whose process or machine died, never reports back, and the
    message delivered again finds its row claimed and does nothing: without this a run would say
    "running" for ever and its period could not be fired again. Queued rows are left alone, however
    old: they may be waiting behind a long GPU job. The grace absorbs clocks that differ between the
    worker that stamped started_at and the one running this.
    """
    cutoff = timezone.now() - dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + LOST_JOB_GRACE_S)
    error = (f"its worker stopped without finishing it: still running {settings.CELERY_TASK_TIME_LIMIT} s after "
             "it started, past the hard time limit, so the process was killed or died")
    # A sharded run is left to its shards (ComparisonRun.handed_on): a shard failed here fails it once the others end.
    failed = sum(job.fail_lost(cutoff, error)
                 for job in (ComparisonRun, RunShard, GroupSweep, Upload, Summary, SummaryEmail))
    if failed:
        log.warning("marked %d lost job(s) failed", failed)
    return failed


@shared_task(name="workloads.recover_jobs")
def recover_jobs() -> dict[str, int]:
    """Send again the runs and uploads whose worker is gone, and the queued ones whose message the broker lost
    (workloads.workers.recovery); beat sends this every JOB_STALE_AFTER_S, and so does every worker
    (workloads.workers.worker_watch)."""
    return recovery.recover()


@shared_task(name="workloads.purge_upload_originals")
def purge_upload_originals() -> int:
    """Delete the uploads' original bytes whose time is up (workloads.documents.upload_retention); beat sends this
    every hour. How many went."""
    purged = upload_retention.purge(upload_retention.due())
    if purged:
        log.info("deleted the original bytes of %d uploaded file(s)", purged)
    return purged


@shared_task(name="workloads.scheduled_comparison")
def scheduled_comparison(workload_pk: int) -> None:
    """Beat's firing of a workload's schedule: queue this period's run, or record why it queued none."""
    workload = Workload.objects.select_related("organisation").filter(pk=workload_pk).first()
    if workload is None:
        log.info("workload %s is gone: its schedule fired once more before its entry was deleted", workload_pk)
        return
    event = scheduling.fire(workload, timezone.now())
    log.info("schedule of workload %s for %s: %s %s", workload_pk, event.period, event.outcome, event.reason)


@shared_task(name="workloads.export_summary")
def export_summary(summary_pk: int) -> None:
    """Render a run's PDF summary and keep it on its Summary row."""
    # Imported here: the summary's projection reads the engine's ledger (torch), which a worker loads on first use.
    from workloads.reporting.summary.content import SummaryError
    from workloads.reporting.summary.render import render_summary

    if (held := leases.hold(Summary, summary_pk)) is None:
        return
    # A summary keeps nothing until its PDF is stored, so one taken over from a dead worker simply starts again.
    me = held.me
    summary = Summary.objects.select_related("run").get(pk=summary_pk)
    with held.work(refusals=(SummaryError,)):
        digest = mail.digest(summary.run)  # what a mail of this PDF will say it says
        pdf, pages = render_summary(summary.run)
    if held.failed:
        return
    with transaction.atomic():  # the PDF and the mailing it owes are recorded together, or neither
        if not Summary.finish(summary_pk, Summary.Status.DONE, me, pdf=pdf, pages=pages, digest=digest):
            return  # taken over meanwhile, or failed by the sweep: that outcome stands
        summary.status = Summary.Status.DONE
        if mail.mails_itself(summary):
            mail.request_email(summary, None)


@shared_task(bind=True, name="workloads.email_summary", max_retries=len(mail.RETRY_DELAYS_S))
def email_summary(self, email_pk: int) -> None:
    """Send a summary's PDF to the addresses its SummaryEmail row holds, and record how that went; a mail server
    that says to try later is tried again later (workloads.reporting.summary.mail.deliver)."""
    if (held := leases.hold(SummaryEmail, email_pk)) is None:
        return
    # Taken over from a dead worker, it goes to the addresses not yet recorded as reached: one the dead worker
    # reached without recording it gets the mail twice, which beats one that never gets it.
    email = SummaryEmail.objects.select_related("summary__run__workload").get(pk=email_pk)
    try:
        with held.work(passing=(mail.TryAgain,)):
            mail.deliver(email, attempt=self.request.retries)
    except mail.TryAgain as again:
        raise self.retry(countdown=again.delay, exc=again.cause)
