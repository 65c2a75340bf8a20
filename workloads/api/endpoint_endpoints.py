"""The organisation's OpenAI-compatible endpoints. Every member lists them; admins add and delete them.

An answer says whether an endpoint has a key (key_set), never the key; an error about the key never quotes it.
"""

from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404
from ninja import Router, Status
from ninja.errors import HttpError

from workloads.api.error_responses import ERRORS
from workloads.api.schemas import EndpointIn, EndpointOut
from workloads.models import ApiPrice, Endpoint, Role
from workloads.models.endpoints import endpoint_named_alike
from workloads.organisations.access import organisation_of

router = Router(tags=["endpoints"])


def _name_taken(name: str) -> HttpError:
    return HttpError(400, f'name: your organisation already has an endpoint with this name: "{name}"')


@router.get("/endpoints", response={200: list[EndpointOut], **ERRORS}, summary="The organisation's endpoints")
def list_endpoints(request):
    return list(Endpoint.objects.filter(organisation=organisation_of(request.auth)).select_related("price"))


@router.post("/endpoints", response={201: EndpointOut, **ERRORS}, summary="Add an endpoint (admins)")
def add_endpoint(request, payload: EndpointIn):
    organisation = organisation_of(request.auth, Role.ADMIN)
    if other := endpoint_named_alike(organisation, payload.name):  # as the web form checks it
        raise _name_taken(other)
    price = None
    if payload.price_id is not None:
        # Another organisation's entry reads as one that does not exist.
        price = ApiPrice.objects.filter(organisation=organisation, pk=payload.price_id).first()
        if price is None:
            raise HttpError(400, f"price_id: your price book has no API price {payload.price_id} "
                                 "(GET /api/prices/api lists them)")
    endpoint = Endpoint(organisation=organisation, name=payload.name, base_url=payload.base_url, model=payload.model,
                        price=price, created_by=request.auth)
    endpoint.set_api_key(payload.api_key.get_secret_value() if payload.api_key else "")
    try:
        with transaction.atomic():
            endpoint.save()
    except IntegrityError:  # a concurrent request added the name since the check
        raise _name_taken(endpoint_named_alike(organisation, payload.name) or payload.name) from None
    return Status(201, endpoint)


@router.delete("/endpoints/{endpoint_id}", response={204: None, **ERRORS}, summary="Delete an endpoint (admins)")
def delete_endpoint(request, endpoint_id: int):
    get_object_or_404(Endpoint, pk=endpoint_id, organisation=organisation_of(request.auth, Role.ADMIN)).delete()
    return Status(204, None)
