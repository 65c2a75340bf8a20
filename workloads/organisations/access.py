"""Who sees what and who changes what.

Every query for a user's data starts from their organisation, and every view says which role its
action needs: reading needs any membership, changing needs at least the member role (see Role).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from workloads.models import ComparisonRun, GroupSweep, Organisation, Role, Workload
from workloads.models.organisations import ROLE_DUTIES, ROLE_RANKS


def organisation_of(user, needs: Role = Role.VIEWER) -> Organisation:
    """The user's organisation if their role there allows what `needs` allows; 403 otherwise."""
    membership = getattr(user, "membership", None) if user.is_authenticated else None
    if membership is None:
        raise PermissionDenied("you are not a member of any organisation")
    if not membership.may(needs):
        needs = Role(needs)
        allowed = " and ".join(f"{role.label.lower()}s" for role in Role if ROLE_RANKS[role] >= ROLE_RANKS[needs])
        raise PermissionDenied(
            f"you are {Role(membership.role).one} in {membership.organisation.name}, and only {allowed} may do "
            f"this ({needs.one} {ROLE_DUTIES[needs]}); ask one of its admins to change your role")
    return membership.organisation


def workload_for(user, pk: int, needs: Role = Role.VIEWER, related: tuple[str, ...] = ()) -> Workload:
    """The workload if it belongs to the user's organisation; 404 otherwise (its existence is not revealed).
    `related`: what to read with it (QuerySet.select_related)."""
    organisation = organisation_of(user, needs)
    workload = get_object_or_404(Workload.objects.select_related(*related), pk=pk, organisation=organisation)
    workload.organisation = organisation  # the one already read: its pages show its time zone without a query
    return workload


def run_for(user, pk: int, needs: Role = Role.VIEWER) -> ComparisonRun:
    organisation = organisation_of(user, needs)
    run = get_object_or_404(ComparisonRun.objects.select_related("workload"), pk=pk,
                            workload__organisation=organisation)
    run.workload.organisation = organisation  # the one already read, as workload_for's: the run page needs no query
    return run


def sweep_for(user, pk: int, needs: Role = Role.VIEWER) -> GroupSweep:
    return get_object_or_404(GroupSweep.objects.select_related("workload"), pk=pk,
                             workload__organisation=organisation_of(user, needs))
