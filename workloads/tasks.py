"""Celery tasks: the only place the web app calls the engine.

Tasks take primary keys, claim their row with a conditional UPDATE (so a redelivered
task does nothing twice), and store results in our own tables. The model is loaded
lazily inside the worker process, never at import: CUDA must not be touched before
the worker forks.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine.probes import DEFAULT_LIMIT as PROBES_TO_GENERATE  # torch-free: it loads no model
from workloads import document_sets, pricing, rules, schedules
from workloads.extraction import Limits, extract_file
from workloads.extraction.token_floor import TokenFloor
from workloads.models import ComparisonRun, Document, Probe, Summary, SummaryEmail, Upload, UploadItem, Workload
from workloads.results import store_report
from workloads.summary import mail
from workloads.summary.exports import request_summary
from workloads.targets import model_path

log = logging.getLogger(__name__)
_models: dict = {}  # per worker process: model name -> engine LoadedModel
_tokenizers: dict = {}

Status = ComparisonRun.Status
LOST_JOB_GRACE_S = 600


class RunCancelled(Exception):
    pass


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


def _claim(model, pk: int) -> bool:
    """Queued -> running, stamped, in one conditional UPDATE: a task delivered twice finds the row taken.

    Runs, uploads, summaries and summary e-mails all have these statuses and started_at.
    """
    return bool(model.objects.filter(pk=pk, status="queued").update(status="running", started_at=timezone.now()))


@shared_task(name="workloads.extract_upload")
def extract_upload(upload_pk: int) -> None:
    """Extract an upload's files into Documents: all of them in one transaction, or none."""
    if not _claim(Upload, upload_pk):
        log.info("upload %s is not queued: already handled", upload_pk)
        return
    upload = Upload.objects.select_related("workload").get(pk=upload_pk)
    try:
        documents, items = _extract(upload)  # the slow part, without the lock below
        with transaction.atomic():
            # Another worker may be saving an upload of the same workload: one at a time, each judged against
            # the documents the other saved. (NO KEY: a new run or probe of the workload need not wait.)
            Workload.objects.select_for_update(no_key=True).get(pk=upload.workload_id)
            replacing = _admit(upload, documents, items)
            for document, item in zip(documents, items, strict=True):
                if document:
                    _save(document, replacing)
                    item.document = document
            UploadItem.objects.bulk_create(items)
            Upload.objects.filter(pk=upload_pk).update(status=Upload.Status.DONE, finished_at=timezone.now())
    except Exception as exc:
        log.exception("extraction of upload %s failed", upload_pk)
        Upload.objects.filter(pk=upload_pk).update(
            status=Upload.Status.FAILED, error=f"extraction failed: {exc}", finished_at=timezone.now())
        raise


_NAME_TAKEN = "skipped: a document with this name is already in the workload"
_NAME_REPEATED = "skipped: an earlier file of this upload has this name"
_NEWER_TEXT = "skipped: the document of this name already has a newer text, from an upload sent after this one"


def _extract(upload: Upload) -> tuple[list[Document | None], list[UploadItem]]:
    """Documents to keep (None where skipped) and an item for each, judged against the workload as it is now.

    Names taken and the token limit are checked here too, so that no time is spent on text that cannot be kept;
    _admit checks them again under the workload's lock.
    """
    workload = upload.workload
    tokenizer = _tokenizer(workload.target_model)
    token_floor = TokenFloor(tokenizer)
    limits = Limits(max_file_bytes=settings.UPLOAD_MAX_FILE_BYTES, max_archive_members=settings.ARCHIVE_MAX_MEMBERS,
                    max_archive_bytes=settings.ARCHIVE_MAX_BYTES,
                    max_reader_memory_bytes=settings.EXTRACTION_MAX_MEMORY_BYTES,
                    reader_timeout_s=settings.EXTRACTION_TIMEOUT_S)
    room = _Room(upload)
    documents, items = [], []
    for done, upload_file in enumerate(upload.files.all(), start=1):
        for e in extract_file(upload_file.name, bytes(upload_file.data), limits):
            document, detail, tokens = None, e.detail, 0
            if e.kept and (refusal := room.name_refusal(e.name)):
                detail = refusal
            elif e.kept and (at_least := token_floor(e.text)) > room.tokens_left(e.name):
                detail = _over_the_limit(f"at least {at_least:,}")
            elif e.kept:
                tokens = len(tokenizer(e.text)["input_ids"])
                if tokens > room.tokens_left(e.name):
                    detail = _over_the_limit(f"{tokens:,}")
                else:
                    room.keep(e.name, tokens)
                    document = Document(workload=workload, name=e.name, source_path=e.source_path or "",
                                        origin=upload_file, text=e.text, tokens=tokens, lines=e.lines,
                                        size_bytes=e.size_bytes)
            documents.append(document)
            items.append(UploadItem(upload=upload, name=e.name, kept=document is not None, detail=detail[:500],
                                    tokens=tokens if document else 0))
        Upload.objects.filter(pk=upload.pk).update(files_done=done)
    return documents, items


def _admit(upload: Upload, documents: list[Document | None], items: list[UploadItem]) -> set[str]:
    """Skip the documents that the workload, as saved now, has no room for: their name taken or too many tokens.
    Returns the names of the workload's documents that kept ones replace.

    Called under the workload's lock: another upload may have been saved since _extract looked.
    """
    room = _Room(upload)
    replacing = set()
    for index, (document, item) in enumerate(zip(documents, items, strict=True)):
        if document is None:
            continue
        refusal = room.name_refusal(document.name)
        if refusal is None and document.tokens <= room.tokens_left(document.name):
            if room.keep(document.name, document.tokens):
                replacing.add(document.name)
                item.detail = item.detail[:500 - len(UploadItem.REPLACED_NOTE)] + UploadItem.REPLACED_NOTE
            continue
        reason = refusal or _over_the_limit(f"{document.tokens:,}")
        item.kept, item.detail, item.tokens, documents[index] = False, reason, 0, None
    return replacing


def _save(document: Document, replacing: set[str]) -> None:
    """Save a new document, or put it in the place of the document of its name, which keeps its address and the
    date it was added (its page says which upload its text was read from)."""
    if document.name in replacing:
        document.pk, document.created_at = document.workload.documents.values_list("pk", "created_at").get(
            name=document.name)
        document.save(force_update=True)
    else:
        document.save()


class _Room:
    """The names a workload's documents leave free, and the tokens its limit leaves, as an upload fills them.

    An upload that replaces documents of the same names may take a name the workload has: its document then counts
    instead of the one it replaces, unless an upload sent after it (a higher id) gave that document its text: uploads
    extract side by side, and the one finishing last must not put an older version back."""

    def __init__(self, upload: Upload):
        documents = list(upload.workload.documents.values_list("name", "tokens", "origin__upload_id"))
        self.existing = {name: tokens for name, tokens, _ in documents}
        self.newer = {name for name, _, origin in documents if origin is not None and origin > upload.pk}
        self.left = settings.WORKLOAD_MAX_TOKENS - sum(self.existing.values())
        self.replacing = upload.replace_same_names
        self.kept: set[str] = set()

    def name_refusal(self, name: str) -> str | None:
        """Why a document of this name cannot be kept, or None: an earlier file of the upload took it, the workload
        has it and the upload does not replace, or an upload sent later gave it its text."""
        if name in self.kept:
            return _NAME_REPEATED
        if name in self.existing and not self.replacing:
            return _NAME_TAKEN
        return _NEWER_TEXT if name in self.newer else None

    def tokens_left(self, name: str) -> int:
        """How many tokens a document of this name may have."""
        return self.left + (self.existing.get(name, 0) if self.replacing else 0)

    def keep(self, name: str, tokens: int) -> bool:
        """Count a document in; whether it replaces one."""
        self.left = self.tokens_left(name) - tokens
        self.kept.add(name)
        return self.existing.pop(name, None) is not None


def _over_the_limit(tokens: str) -> str:
    return f"skipped: {tokens} tokens would pass the workload's limit of {settings.WORKLOAD_MAX_TOKENS:,}"


@shared_task(name="workloads.generate_probes")
def generate_probes(workload_pk: int, limit: int = PROBES_TO_GENERATE) -> int:
    """Add up to `limit` of the engine's generated probes to a workload, with their passages, skipping questions
    it already has."""
    from engine.documents import Document as EngineDocument
    from engine.probes import generate_probes as generate

    documents = Document.objects.filter(workload_id=workload_pk)
    engine_documents = [EngineDocument(d.name, d.text) for d in documents]
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


def _editable(probe) -> bool:
    return (len(probe.question) <= rules.QUESTION_MAX and len(probe.answer) <= rules.ANSWER_MAX
            and rules.is_one_line(probe.answer)
            and not rules.invisible_character(probe.question) and not rules.invisible_character(probe.answer))


@shared_task(name="workloads.run_comparison")
def run_comparison(run_pk: int) -> None:
    """Run a queued comparison for real on this worker's device, and store what it measured."""
    from engine.errors import EngineError

    if not _claim(ComparisonRun, run_pk):
        log.info("run %s is not queued (cancelled, or delivered again): nothing to do", run_pk)
        return
    run = ComparisonRun.objects.select_related("workload__organisation").get(pk=run_pk)
    try:
        report = _compare(run)
    except RunCancelled:
        log.info("run %s was cancelled while running", run_pk)
        return
    except SoftTimeLimitExceeded:
        _fail(run_pk, f"stopped at the time limit of {settings.CELERY_TASK_SOFT_TIME_LIMIT} s")
        return
    except (EngineError, pricing.PricingError) as exc:
        _fail(run_pk, str(exc))
        return
    except Exception as exc:
        log.exception("run %s failed", run_pk)
        _fail(run_pk, f"internal error: {exc}")
        raise
    with transaction.atomic():
        if not ComparisonRun.objects.select_for_update().filter(pk=run_pk, status=Status.RUNNING).exists():
            return  # cancelled just as it finished: keep it cancelled
        store_report(run, report)
        run.save(update_fields=["report", "device"])
        ComparisonRun.objects.filter(pk=run_pk).update(
            status=Status.SUCCEEDED, finished_at=timezone.now(), progress_done=F("progress_total"))
    run.refresh_from_db()
    pricing.price_run(run)
    if run.trigger == ComparisonRun.Trigger.SCHEDULED:  # the quarter's PDF is waiting for the manager
        request_summary(run, None)


def _compare(run: ComparisonRun) -> dict:
    from engine.attention import AttentionConfig
    from engine.compare import Prices, Workload, compare
    from engine.documents import Document as EngineDocument
    from engine.measure import device_name
    from engine.probes import Probe as EngineProbe
    from engine.provenance import versions

    lm = _model(run.model)
    workload = run.workload
    documents = list(workload.documents.all())
    # The run reads the documents as they are now, not as they were when it was queued (an upload may
    # have finished meanwhile): its costs per unit of work are per these documents' units.
    run.device, run.versions, run.units_of_work = device_name(lm.device), versions(), workload.units_of_work(documents)
    run.documents = document_sets.snapshot(documents)
    run.save(update_fields=["device", "versions", "units_of_work", "documents"])
    # Prices are looked up before any device time is spent: an unpriced device or model fails now.
    on = run.day
    gpu = pricing.gpu_price(workload.organisation, run.device, on)
    api = pricing.workload_api_price(workload, on)
    # With no API model chosen the report's own API figures are 0; nothing reads them: price_run prices the rows.
    api_rates = (float(api.input_per_mtok), float(api.output_per_mtok)) if api else (0.0, 0.0)
    work = Workload(
        documents=[EngineDocument(d.name, d.text) for d in documents],
        probes=[EngineProbe(p.question, p.answer, p.kind, p.source or None) for p in workload.probes.all()],
        strategies=run.strategies, chunk_tokens=run.chunk_tokens, chunk_overlap=run.chunk_overlap,
        attention=AttentionConfig(mode="index_share", window=run.window, topk=run.topk, global_blocks=run.global_blocks,
                                  group_size=run.group_size, indexer=run.indexer),
        prices=Prices(float(gpu.per_hour), *api_rates),
        gate_points=run.gate_points,
    )
    return compare(lm, work, progress=_progress(run.pk))


def _progress(run_pk: int):
    def report(done: int, planned: int, message: str) -> None:
        # One conditional UPDATE both records progress and notices a cancel.
        if not ComparisonRun.objects.filter(pk=run_pk, status=Status.RUNNING).update(
                progress_done=done, progress_total=planned, progress_message=message[:300]):
            raise RunCancelled
    return report


def _fail(run_pk: int, error: str) -> None:
    ComparisonRun.objects.filter(pk=run_pk, status=Status.RUNNING).update(
        status=Status.FAILED, error=error, finished_at=timezone.now())


@shared_task(name="workloads.fail_lost_jobs")
def fail_lost_jobs() -> int:
    """Fail the runs, uploads and summaries still "running" well past the hard time limit: their worker is gone.

    A worker killed at the hard limit, or whose process or machine died, never reports back, and the
    message delivered again finds its row claimed and does nothing: without this a run would say
    "running" for ever and its period could not be fired again. Queued rows are left alone, however
    old: they may be waiting behind a long GPU job. The grace absorbs clocks that differ between the
    worker that stamped started_at and the one running this.
    """
    now = timezone.now()
    cutoff = now - dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + LOST_JOB_GRACE_S)
    error = (f"its worker stopped without finishing it: still running {settings.CELERY_TASK_TIME_LIMIT} s after "
             "it started, past the hard time limit, so the process was killed or died")
    failed = 0
    for model in (ComparisonRun, Upload, Summary, SummaryEmail):  # each has these statuses, error and finished_at
        failed += model.objects.filter(status="running", started_at__lt=cutoff).update(
            status="failed", finished_at=now, error=error)
    if failed:
        log.warning("marked %d lost job(s) failed", failed)
    return failed


@shared_task(name="workloads.scheduled_comparison")
def scheduled_comparison(workload_pk: int) -> None:
    """Beat's firing of a workload's schedule: queue this period's run, or record why it queued none."""
    workload = Workload.objects.select_related("organisation").filter(pk=workload_pk).first()
    if workload is None:
        log.info("workload %s is gone: its schedule fired once more before its entry was deleted", workload_pk)
        return
    event = schedules.fire(workload, timezone.now())
    log.info("schedule of workload %s for %s: %s %s", workload_pk, event.period, event.outcome, event.reason)


@shared_task(name="workloads.export_summary")
def export_summary(summary_pk: int) -> None:
    """Render a run's PDF summary and keep it on its Summary row."""
    # Imported here: the summary's projection reads the engine's ledger (torch), which a worker loads on first use.
    from workloads.summary.content import SummaryError
    from workloads.summary.render import render_summary

    if not _claim(Summary, summary_pk):
        log.info("summary %s is not queued (delivered again): nothing to do", summary_pk)
        return
    summary = Summary.objects.select_related("run").get(pk=summary_pk)
    try:
        digest = mail.digest(summary.run)  # what a mail of this PDF will say it says
        pdf, pages = render_summary(summary.run)
    except SummaryError as exc:
        _fail_summary(summary_pk, str(exc))
        return
    except Exception as exc:
        log.exception("summary %s failed", summary_pk)
        _fail_summary(summary_pk, f"internal error: {exc}")
        raise
    with transaction.atomic():  # the PDF and the mailing it owes are recorded together, or neither
        Summary.objects.filter(pk=summary_pk).update(status=Summary.Status.DONE, pdf=pdf, pages=pages,
                                                     digest=digest, finished_at=timezone.now())
        summary.status = Summary.Status.DONE
        if mail.mails_itself(summary):
            mail.request_email(summary, None)


def _fail_summary(summary_pk: int, error: str) -> None:
    Summary.objects.filter(pk=summary_pk).update(status=Summary.Status.FAILED, error=error, finished_at=timezone.now())


# A mail server down for a restart, or answering "try again later" (4xx), gets three more tries over half an hour.
MAIL_RETRY_DELAYS_S = (60, 300, 1800)


@shared_task(bind=True, name="workloads.email_summary", max_retries=len(MAIL_RETRY_DELAYS_S))
def email_summary(self, email_pk: int) -> None:
    """Send a summary's PDF to the addresses its SummaryEmail row holds, and record how that went.

    Each try goes to the addresses neither taken nor refused for good (5xx) yet: a retry reaches only
    those told to try later (4xx) or not reached at all.
    """
    if not _claim(SummaryEmail, email_pk):
        log.info("summary e-mail %s is not queued (delivered again): nothing to send", email_pk)
        return
    email = SummaryEmail.objects.select_related("summary__run__workload").get(pk=email_pk)
    try:
        refused = mail.send(email)
    except OSError as exc:  # unreachable, timed out, or an answer to the whole mail (its sender, its data)
        reason = f"the mail server did not take it: {exc}"
        if _transient(exc):
            _try_again(self, email, reason, exc)
        _end_email(email, reason)
        return
    except Exception as exc:
        log.exception("summary e-mail %s failed", email_pk)
        _finish_email(email_pk, SummaryEmail.Status.FAILED, f"internal error: {exc}")
        raise
    for_good = {address: answer for address, answer in refused.items() if answer[0] >= 500}
    took = [address for address in email.undelivered if address not in refused]
    email.delivered = "\n".join([*email.delivered_addresses, *took])
    email.refused = "\n".join([*email.refused.splitlines(), *_refusals(for_good)])
    SummaryEmail.objects.filter(pk=email_pk).update(delivered=email.delivered, refused=email.refused)
    later = {address: answer for address, answer in refused.items() if address not in for_good}
    reason = "the mail server said to try later: " + "; ".join(_refusals(later)) if later else ""
    if later:
        _try_again(self, email, reason)
    _end_email(email, reason)


def _refusals(answers: dict[str, tuple[int, str]]) -> list[str]:
    return [f"{address} ({code} {reply})" for address, (code, reply) in answers.items()]


def _transient(exc: OSError) -> bool:
    """A connection that failed or a 4xx answer may pass later; a 5xx answer is final."""
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    return True


def _try_again(task, email: SummaryEmail, reason: str, exc: Exception | None = None) -> None:
    """Queue the mailing again for a later try, while tries remain (raising celery's Retry); else return."""
    attempt = task.request.retries
    if attempt >= len(MAIL_RETRY_DELAYS_S):
        return
    delay = MAIL_RETRY_DELAYS_S[attempt]
    # Queued again, so that the retry can claim it like the first delivery did.
    SummaryEmail.objects.filter(pk=email.pk).update(status=SummaryEmail.Status.QUEUED,
                                                    error=f"trying again in {delay} s: {reason}")
    raise task.retry(countdown=delay, exc=exc)


def _end_email(email: SummaryEmail, reason: str) -> None:
    """Sent to all, partly sent, or failed; the error names every refusal for good and the last reason."""
    status = (SummaryEmail.Status.SENT if not email.missed
              else SummaryEmail.Status.PARTIAL if email.delivered else SummaryEmail.Status.FAILED)
    for_good = "the mail server refused " + "; ".join(email.refused.splitlines()) if email.refused else ""
    _finish_email(email.pk, status, "; ".join(part for part in (for_good, reason) if part))


def _finish_email(email_pk: int, status: str, error: str = "") -> None:
    SummaryEmail.objects.filter(pk=email_pk).update(status=status, error=error, finished_at=timezone.now())
