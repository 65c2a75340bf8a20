"""The organisation's price book: effective-dated GPU and API prices, each with its source."""

from django.db import IntegrityError, transaction
from ninja import Router, Status
from ninja.errors import HttpError

from workloads.api.error_responses import ERRORS
from workloads.api.schemas import ApiPriceIn, ApiPriceOut, GpuPriceIn, GpuPriceOut
from workloads.comparisons import pricing
from workloads.models import ApiPrice, GpuPrice, Role
from workloads.organisations.access import organisation_of

router = Router(tags=["prices"])


def _create(model, organisation, values: dict, key: tuple[str, ...], what: str):
    """Create a price entry; an entry for the same key and date is a 400, not a second price."""
    if model.objects.filter(organisation=organisation, effective_from=values["effective_from"],
                            **{k: values[k] for k in key}).exists():
        raise HttpError(400, f"{what} from {values['effective_from']} is already in the price book")
    try:
        with transaction.atomic():
            return model.objects.create(organisation=organisation, **values)
    except IntegrityError:  # a concurrent request added it since the check
        raise HttpError(400, f"{what} from {values['effective_from']} is already in the price book") from None


@router.get("/prices/gpu", response={200: list[GpuPriceOut], **ERRORS}, summary="GPU prices per device hour")
def list_gpu_prices(request):
    return list(GpuPrice.objects.filter(organisation=organisation_of(request.auth)))


@router.post("/prices/gpu", response={201: GpuPriceOut, **ERRORS}, summary="Add a GPU price")
def add_gpu_price(request, payload: GpuPriceIn):
    organisation = organisation_of(request.auth, Role.ADMIN)
    values = payload.dict() | {"device_class": pricing.spelled_as_before(organisation, payload.device_class)}
    entry = _create(GpuPrice, organisation, values, ("device_class",),
                    f"a price for \"{values['device_class']}\"")
    return Status(201, entry)


@router.get("/prices/api", response={200: list[ApiPriceOut], **ERRORS}, summary="API prices per million tokens")
def list_api_prices(request):
    return list(ApiPrice.objects.filter(organisation=organisation_of(request.auth)))


@router.post("/prices/api", response={201: ApiPriceOut, **ERRORS}, summary="Add an API price")
def add_api_price(request, payload: ApiPriceIn):
    values = payload.dict()
    entry = _create(ApiPrice, organisation_of(request.auth, Role.ADMIN), values, ("provider", "model"),
                    f"a price for \"{values['model']}\" from \"{values['provider']}\"")
    return Status(201, entry)
