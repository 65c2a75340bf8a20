from django import template

from workloads.models import ComparisonRun
from workloads.reporting.summary import pdf_exports
from workloads.reporting.summary import mail

register = template.Library()


@register.inclusion_tag("workloads/includes/workload_summary_links.html", takes_context=True)
def workload_summary_links(context, run):
    """The latest succeeded run's PDF, or the button that exports it: the run's number and period and whether its PDF
    is done (`run`, as the workload page reads it, annotated with pdf_exports.has_done; None without one), without
    reading the run's report or the PDF."""
    return {"request": context.get("request"), "run": run, "done": run is not None and run.done}


@register.inclusion_tag("workloads/includes/run_summary_panel.html", takes_context=True)
def run_summary_panel(context, run):
    summary = pdf_exports.newest(run)
    done = pdf_exports.newest_done(run) if summary else None
    return {
        "request": context.get("request"), "run": run, "summary": summary, "done": done,
        "email": mail.newest(done), "recipients": run.workload.organisation.recipients,
        "can_export": run.status == ComparisonRun.Status.SUCCEEDED,
        "pending": summary is not None and not summary.finished,
    }
