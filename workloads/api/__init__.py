from ninja import NinjaAPI

api = NinjaAPI(title="costplanner", openapi_url="/openapi.json")
