"""The HTTP API's OpenAPI schema, fuzzed with schemathesis: whatever is sent, never a server error (5xx), and
every answer passes schemathesis's built-in checks: the status, content type, headers and body the schema declares
(errors too), bad data refused, methods the schema does not name refused (all but one check: see below)."""

from __future__ import annotations

from pathlib import Path

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.web.server import running_server

# Every built-in check but one: a display name may hold letters of any script with their marks (Devanagari,
# Gurmukhi, Tamil...), a rule the schema states in words because JSON Schema's patterns (and the generators that
# read them) have no Unicode letter classes; so a schema-valid name of other characters is rightly refused.


def test_no_request_makes_a_server_error(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        guest = httpx.post(f"{server.url}/api/guest", json={"name": "Fuzz"})
        cookies = {"taash_guest": guest.cookies["taash_guest"]}
        # One real table, so that not every generated id is only worth a 404.
        httpx.post(f"{server.url}/api/tables", json={}, cookies=cookies).raise_for_status()
        schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 10
        seen: list[str] = []
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
            def no_server_error(case: schemathesis.Case) -> None:
                for jar in (None, cookies):
                    response = case.call(base_url=server.url, cookies=jar)
                    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
                    case.validate_response(response, excluded_checks=[positive_data_acceptance])

            no_server_error()
            seen.append(f"{operation.method.upper()} {operation.path}")
        assert "POST /api/tables" in seen and "POST /api/tables/{table_id}/sit" in seen
