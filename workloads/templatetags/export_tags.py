from django import template

register = template.Library()


@register.inclusion_tag("workloads/includes/workload_export_links.html", takes_context=True)
def workload_export_links(context, workload):
    return {"request": context.get("request"), "workload": workload}


@register.inclusion_tag("workloads/includes/run_export_links.html", takes_context=True)
def run_export_links(context, run):
    return {"request": context.get("request"), "run": run}
