"""Google's own Python clients against the sandbox, configured only from `npm run sandbox`'s export lines.

Application Default Credentials come from GOOGLE_APPLICATION_CREDENTIALS (the sandbox's external_account file: STS,
then impersonation of the deployer) and the project from GOOGLE_CLOUD_PROJECT; each client is pointed at the service
root the export line names (Google's Python clients read no *_CUSTOM_ENDPOINT variable themselves) and uses REST
where it offers a choice. conftest.py refuses every host but 127.0.0.1.
"""

import json
import os
import time
import urllib.request
import uuid
from datetime import datetime, timezone

import google.auth
import google.auth.transport.requests
import googleapiclient.discovery
import pytest
from google.api_core.client_options import ClientOptions
from google.cloud import compute_v1, iam_v3beta
from google.longrunning import operations_pb2

CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform"
DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com"
POLICY = "700000000003"
ORGANIZATION = "organizations/100000000001"
OPERATIONS = "folders/200000000001/locations/global/operations"
MOVE_DEADLINE_S = 120


def endpoint(service: str) -> str:
    return os.environ[f"GOOGLE_{service}_CUSTOM_ENDPOINT"]


def control(what: str) -> list[dict]:
    """The sandbox's request log or audit (its control plane, at the root of the service roots)."""
    root = endpoint("COMPUTE").removesuffix("/compute")
    with urllib.request.urlopen(f"{root}/_sandbox/{what}", timeout=30) as res:
        return json.load(res)["entries"]


@pytest.fixture(scope="module")
def adc():
    return google.auth.default(scopes=[CLOUD_PLATFORM])


def test_adc_gets_a_token_by_impersonation_and_the_project_from_the_environment(adc):
    credentials, project = adc
    assert project == "sandbox-project"
    credentials.refresh(google.auth.transport.requests.Request())
    assert credentials.token.startswith("ya29.sandbox.")
    assert credentials.expiry > datetime.now(timezone.utc).replace(tzinfo=None)
    routes = [r.get("route") for r in control("requests")]
    assert routes[-2:] == ["sts.token", "iamcredentials.serviceAccounts.generateAccessToken"]


def test_compute_moves_a_policy_polls_its_operation_to_done_and_moves_once_per_request_id(adc):
    credentials, _ = adc
    options = ClientOptions(api_endpoint=endpoint("COMPUTE"))
    policies = compute_v1.FirewallPoliciesClient(credentials=credentials, transport="rest", client_options=options)
    operations = compute_v1.GlobalOrganizationOperationsClient(
        credentials=credentials, transport="rest", client_options=options
    )
    request_id = str(uuid.uuid4())
    move = compute_v1.MoveFirewallPolicyRequest(firewall_policy=POLICY, parent_id=ORGANIZATION, request_id=request_id)
    started = policies.move_unary(request=move)
    assert started.status == compute_v1.Operation.Status.PENDING
    assert (started.client_operation_id, started.user) == (request_id, DEPLOYER)
    seen = []
    deadline = time.monotonic() + MOVE_DEADLINE_S
    while True:
        current = operations.get(
            request=compute_v1.GetGlobalOrganizationOperationRequest(operation=started.name, parent_id=ORGANIZATION)
        )
        seen.append(current.status)
        if current.status == compute_v1.Operation.Status.DONE:
            break
        assert time.monotonic() < deadline, f"the move is not DONE after {MOVE_DEADLINE_S} s: {seen}"
        time.sleep(0.25)
    assert current.progress == 100
    assert datetime.fromisoformat(current.end_time) >= datetime.fromisoformat(current.insert_time)
    assert policies.get(firewall_policy=POLICY).parent == ORGANIZATION
    again = policies.move_unary(request=move)
    assert (again.name, again.status) == (started.name, compute_v1.Operation.Status.DONE)
    moves = [a for a in control("audit") if a["kind"] == "firewallPolicies.move"]
    assert [(m["details"]["to"], m["details"]["requestId"]) for m in moves] == [(ORGANIZATION, request_id)]


def test_iam_v1_reads_a_workforce_pool_policy_at_version_3_with_its_condition(adc):
    credentials, _ = adc
    iam = googleapiclient.discovery.build(
        "iam",
        "v1",
        credentials=credentials,
        client_options={"api_endpoint": endpoint("IAM") + "/"},
        static_discovery=True,
    )
    policy = (
        iam.locations()
        .workforcePools()
        .getIamPolicy(
            resource="locations/global/workforcePools/sandbox-partners",
            body={"options": {"requestedPolicyVersion": 3}},
        )
        .execute()
    )
    assert policy["version"] == 3
    assert [(b["role"], b.get("condition", {}).get("title")) for b in policy["bindings"]] == [
        ("roles/iam.workforcePoolAdmin", None),
        ("roles/iam.workforcePoolViewer", "until-2027"),
    ]


def test_iam_v3beta_reads_a_folder_operation_done_with_its_policy_binding_and_a_failed_one(adc):
    credentials, _ = adc
    client = iam_v3beta.PolicyBindingsClient(
        credentials=credentials, transport="rest", client_options=ClientOptions(api_endpoint=endpoint("IAM"))
    )
    done = client.get_operation(operations_pb2.GetOperationRequest(name=f"{OPERATIONS}/op-binding-created"))
    assert done.done
    binding = iam_v3beta.PolicyBinding.deserialize(done.response.value)
    metadata = iam_v3beta.OperationMetadata.deserialize(done.metadata.value)
    assert binding.name == "folders/200000000001/locations/global/policyBindings/deny-external-sharing"
    assert (metadata.verb, metadata.api_version) == ("create", "v3beta")
    assert metadata.end_time > metadata.create_time
    failed = client.get_operation(operations_pb2.GetOperationRequest(name=f"{OPERATIONS}/op-binding-failed"))
    assert (failed.done, failed.error.code) == (True, 9)
