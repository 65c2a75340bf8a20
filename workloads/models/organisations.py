import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, validate_email
from django.db import models

MAX_RECIPIENTS = 20


def parse_recipients(text: str) -> list[str]:
    """The addresses in a list separated by commas, semicolons, spaces or new lines, once each."""
    return list(dict.fromkeys(a for a in re.split(r"[\s,;]+", text.strip()) if a))


def validate_recipients(text: str) -> None:
    addresses = parse_recipients(text)
    if len(addresses) > MAX_RECIPIENTS:
        raise ValidationError(f"at most {MAX_RECIPIENTS} addresses, not {len(addresses)}: use a mailing list")
    for address in addresses:
        try:
            validate_email(address)
        except ValidationError:
            raise ValidationError(f"{address[:80]!r} is not an e-mail address such as cfo@example.com") from None


# Every zone the system knows but "localtime", which is whatever the server's /etc/localtime is, and
# "Factory", tzdata's placeholder for machines whose zone was never set: neither is a place.
TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


def validate_timezone(name: str) -> None:
    if name not in TIME_ZONES:
        raise ValidationError(f"{name!r} is not a time zone name such as Europe/Berlin or America/New_York")


ENDPOINT_RUN_CAP_HELP = ("A comparison through an endpoint whose estimate exceeds this does not start; one that "
                         "reaches it stops with what it has.")
ENDPOINT_MONTH_CAP_HELP = ("What comparisons through endpoints may spend in a month together: one whose estimate would "
                           "take the month past this does not start; one that reaches it stops with what it has.")
QUOTA_RUNS_QUEUED_HELP = ("Comparison runs and group-size sweeps queued or running at once; empty: the operator's "
                          "default, QUOTA_RUNS_QUEUED.")
QUOTA_UPLOADS_PER_DAY_HELP = ("Uploads a day, counted from midnight in the organisation's time zone; empty: the "
                              "operator's default, QUOTA_UPLOADS_PER_DAY.")
QUOTA_STORED_BYTES_HELP = ("Bytes of documents' text and uploaded files stored; empty: the operator's default, "
                           "QUOTA_STORED_BYTES.")


class Organisation(models.Model):
    """A business. Everything it owns hangs off it, and members see only their own."""

    name = models.CharField(max_length=200, unique=True)
    # Scheduled comparisons fire at local hours in this zone (quarters start on local dates).
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    # Who is e-mailed each scheduled run's PDF summary: managers do not open dashboards.
    summary_recipients = models.TextField(blank=True, validators=[validate_recipients],
                                          help_text="e-mail addresses, one per line")
    # What comparisons through the organisation's endpoints may spend, in dollars, set by its admins: a provider
    # bills whatever a run asks of it. Empty: no cap.
    endpoint_run_cap = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True,
                                           validators=[MinValueValidator(0)], help_text=ENDPOINT_RUN_CAP_HELP)
    endpoint_month_cap = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True,
                                             validators=[MinValueValidator(0)], help_text=ENDPOINT_MONTH_CAP_HELP)
    # Quotas the operator sets in the Django admin, never the organisation's own admins
    # (workloads.organisations.quotas). Empty: the operator's defaults, settings.QUOTA_*.
    quota_runs_queued = models.PositiveIntegerField(null=True, blank=True, help_text=QUOTA_RUNS_QUEUED_HELP)
    quota_uploads_per_day = models.PositiveIntegerField(null=True, blank=True, help_text=QUOTA_UPLOADS_PER_DAY_HELP)
    quota_stored_bytes = models.PositiveBigIntegerField(null=True, blank=True, help_text=QUOTA_STORED_BYTES_HELP)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def recipients(self) -> list[str]:
        return parse_recipients(self.summary_recipients)


class Role(models.TextChoices):
    """What a member may do; each role may also do everything the roles before it may."""

    # Managers who read the figures and take the PDF, without changing what they report on.
    VIEWER = "viewer", "Viewer"
    # The people who run the comparisons: documents, probes, runs, schedules, exports and mailings.
    MEMBER = "member", "Member"
    # Prices and recipients change every figure and who is told about them; members are who may see the data.
    ADMIN = "admin", "Admin"

    @property
    def one(self) -> str:
        """"a viewer", "an admin": for sentences."""
        name = self.label.lower()
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


ROLE_RANKS = {role: rank for rank, role in enumerate(Role)}

ROLE_DUTIES = {
    Role.VIEWER: "reads every page, exports PDF summaries and downloads them and the CSV and JSON exports, "
                 "but changes nothing",
    Role.MEMBER: "also uploads documents, writes probes, queues and cancels comparisons and sweeps, mails PDF "
                 "summaries and edits workloads and schedules",
    Role.ADMIN: "also sets prices and re-prices runs (each re-pricing kept beside the earlier ones), sets the time "
                "zone and who gets the PDFs, adds endpoints and caps their spending, deletes workloads and runs and "
                "manages the members",
}


class Membership(models.Model):
    # One organisation per user keeps every query a plain filter on request.user's organisation.
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)

    def __str__(self) -> str:
        return f"{self.user} in {self.organisation} ({self.get_role_display().lower()})"

    def may(self, role: str) -> bool:
        """Whether this member may do what the given role may."""
        return ROLE_RANKS[Role(self.role)] >= ROLE_RANKS[Role(role)]

    # For templates, which cannot pass arguments: whether to show the forms and buttons of each role.
    @property
    def may_change(self) -> bool:
        return self.may(Role.MEMBER)

    @property
    def may_administer(self) -> bool:
        return self.may(Role.ADMIN)
