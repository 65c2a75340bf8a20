from django import template

register = template.Library()


@register.inclusion_tag("workloads/includes/workload_summary_links.html", takes_context=True)
def workload_summary_links(context, workload):
    return {"request": context.get("request"), "workload": workload}


@register.inclusion_tag("workloads/includes/run_summary_panel.html", takes_context=True)
def run_summary_panel(context, run):
    return {"request": context.get("request"), "run": run}
