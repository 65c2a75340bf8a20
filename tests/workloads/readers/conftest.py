"""An endpoint of Acme's, billed at a price-book entry of its own, for the tests of comparisons through endpoints."""

import datetime as dt

from tests.workloads.endpoints.conftest import make_endpoint as endpoint_of
from workloads.models import ApiPrice, Endpoint


def make_endpoint(organisation, url: str, key: str, name: str = "GPU box") -> Endpoint:
    price = ApiPrice.objects.create(organisation=organisation, provider="our-gpu-box", model="smollm2",
                                    input_per_mtok="0.20", cached_input_per_mtok="0.05", output_per_mtok="0.80",
                                    effective_from=dt.date(2026, 1, 1), source="test: what the box costs a token")
    return endpoint_of(organisation, name, key, base_url=url, model="smollm2-135m-instruct", price=price)
