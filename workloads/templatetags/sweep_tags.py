from django import template

register = template.Library()

RECENT_SWEEPS = 5


@register.inclusion_tag("workloads/includes/group_sweeps.html", takes_context=True)
def group_sweep_panel(context, workload):
    """The workload page's group-size sweeps: the latest few, and the button that starts one."""
    return {"request": context.get("request"), "workload": workload,
            "sweeps": workload.group_sweeps.all()[:RECENT_SWEEPS]}
