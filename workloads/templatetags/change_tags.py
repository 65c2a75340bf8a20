from django import template

register = template.Library()


@register.inclusion_tag("workloads/includes/run_changes.html", takes_context=True)
def run_changes(context, run):
    return {"request": context.get("request"), "run": run}


@register.inclusion_tag("workloads/includes/organisation_alerts.html", takes_context=True)
def organisation_alerts(context, organisation):
    return {"request": context.get("request"), "organisation": organisation}
