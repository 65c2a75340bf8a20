from django import template

register = template.Library()


@register.inclusion_tag("workloads/includes/schedule_panel.html", takes_context=True)
def schedule_panel(context, workload):
    return {"request": context.get("request"), "workload": workload}
