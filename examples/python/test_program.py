"""Unit tests of examples/python's program under pulumi.runtime.set_mocks: the resources it declares and the data
sources it reads, each answered by the mocks below. No engine, no plugin and no network (every socket connect fails)."""

import json
import socket
from typing import Any, Dict, List, Tuple

import pulumi
import pytest

import opsledger_example

PROJECT = "opsledger-python"
FUNCTIONS = {
    "opsledger:iam:getWorkforcePoolIamPolicy": {"etag": "BwYYWYVgLmo=", "bindings": [], "version": 1},
    "opsledger:iam:getOperation": {"name": opsledger_example.BINDING_OPERATION, "done": True},
    "opsledger:deploymentmanager:getDeployment": {"name": "web-stack", "operation": {"status": "DONE"}},
    "opsledger:workspaceevents:getSubscription": {"name": "subscriptions/chat-spaces-sandbox", "state": "ACTIVE"},
    "opsledger:displayvideo:getCreative": {"name": "c", "displayName": "Spring launch 30s"},
}
# What each resource's create would answer, added to its inputs.
OUTPUTS: Dict[str, Dict[str, Any]] = {
    "opsledger:compute:FirewallPolicyMove": {"parent": "folders/200000000002", "previousParent": "folders/200000000001"},
    "opsledger:displayvideo:InventorySourceGroupDeletion": {"outcome": "deleted"},
    "opsledger:operations:OperationWait": {"status": "DONE"},
    "opsledger:ledger:LedgerTransaction": {
        "txId": "ab" * 32,
        "validationCode": "VALID",
        "validationCodeNumber": 0,
        "blockNumber": "7",
        "result": {"utf8": "blue"},
        "endorsers": ["Org1MSP"],
        "processedTransaction": "CgQ=",
    },
}


class Mocks(pulumi.runtime.Mocks):
    def __init__(self) -> None:
        self.resources: List[pulumi.runtime.MockResourceArgs] = []
        self.calls: List[pulumi.runtime.MockCallArgs] = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> Tuple[str, Dict[str, Any]]:
        self.resources.append(args)
        return f"{args.name}-id", {**args.inputs, **OUTPUTS.get(args.typ, {})}

    def call(self, args: pulumi.runtime.MockCallArgs) -> Dict[str, Any]:
        self.calls.append(args)
        if args.token not in FUNCTIONS:
            raise Exception(f"no mock answer for {args.token}")
        return FUNCTIONS[args.token]


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> None:
        raise AssertionError("the program opened a network connection under mocks")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


@pytest.fixture()
def mocks() -> Mocks:
    m = Mocks()
    pulumi.runtime.set_mocks(m, project=PROJECT, stack="test", preview=False)
    return m


def by_type(m: Mocks, typ: str) -> List[pulumi.runtime.MockResourceArgs]:
    return [r for r in m.resources if r.typ == typ]


@pulumi.runtime.test
def test_google_resources_and_every_data_source(mocks: Mocks) -> pulumi.Output:
    outputs = opsledger_example.google_resources("folders/200000000002")

    def check(values: List[Any]) -> None:
        assert dict(zip(outputs, values)) == {
            "parent": "folders/200000000002",
            "previousParent": "folders/200000000001",
            "groupOutcome": "deleted",
            "operationStatus": "DONE",
            "workforcePoolEtag": "BwYYWYVgLmo=",
            "iamOperationDone": True,
            "deploymentOperationStatus": "DONE",
            "subscriptionState": "ACTIVE",
            "creativeName": "Spring launch 30s",
        }
        assert sorted(c.token for c in mocks.calls) == sorted(FUNCTIONS)
        args = {c.token: dict(c.args) for c in mocks.calls}
        assert args["opsledger:iam:getWorkforcePoolIamPolicy"] == {"workforcePoolId": "sandbox-contractors"}
        assert args["opsledger:displayvideo:getCreative"] == {
            "advertiserId": "2001",
            "creativeId": "7001",
            "apiVersion": "v4",
        }
        [move] = by_type(mocks, "opsledger:compute:FirewallPolicyMove")
        assert (move.name, move.inputs) == (
            "edge-policy",
            {"firewallPolicy": "700000000002", "parentId": "folders/200000000002"},
        )
        [group] = by_type(mocks, "opsledger:displayvideo:InventorySourceGroupDeletion")
        assert group.inputs == {"inventorySourceGroupId": "5005", "partnerId": "1001"}
        [wait] = by_type(mocks, "opsledger:operations:OperationWait")
        assert wait.inputs == {"operation": opsledger_example.BINDING_OPERATION, "timeouts": {"create": "20m"}}

    return pulumi.Output.all(*outputs.values()).apply(check)


@pulumi.runtime.test
def test_second_organization_reads_through_its_own_provider(mocks: Mocks) -> pulumi.Output:
    pulumi.runtime.set_all_config(
        {f"{PROJECT}:orgBWorkforcePool": "b-contractors", f"{PROJECT}:orgBAccessToken": "ya29.org-b"},
        [f"{PROJECT}:orgBAccessToken"],
    )
    outputs = opsledger_example.second_organization(pulumi.Config())

    def check(etag: str) -> None:
        assert etag == "BwYYWYVgLmo="
        [provider] = by_type(mocks, "pulumi:providers:opsledger")
        # The token reaches the provider as a Pulumi secret (the engine's wrapped form), never as a plain string.
        secret = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": "ya29.org-b"}
        assert (provider.name, provider.inputs.get("accessToken")) == ("org-b", secret)
        [call] = mocks.calls
        assert (call.token, dict(call.args)) == (
            "opsledger:iam:getWorkforcePoolIamPolicy",
            {"workforcePoolId": "b-contractors"},
        )
        # The invoke names the org-b provider (its reference: URN::id), not the default provider.
        assert call.provider.endswith("pulumi:providers:opsledger::org-b::org-b-id"), call.provider

    return outputs["orgBWorkforcePoolEtag"].apply(check)


@pulumi.runtime.test
def test_ledger_transaction_from_examples_ledger_keys(mocks: Mocks) -> pulumi.Output:
    roots = {"Org1MSP": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"}
    pulumi.runtime.set_all_config(
        {
            f"{PROJECT}:ledgerGateway": "127.0.0.1:7051",
            f"{PROJECT}:ledgerMspId": "Org1MSP",
            f"{PROJECT}:ledgerCertificatePem": "CERT",
            f"{PROJECT}:ledgerSigner": "keyFile",
            f"{PROJECT}:ledgerKeyFile": "/keys/org1.pem",
            f"{PROJECT}:ledgerTrustedRootCertificates": json.dumps(roots),
            f"{PROJECT}:ledgerArgs": json.dumps(["asset-9", "green"]),
        }
    )
    outputs = opsledger_example.ledger_transaction(pulumi.Config())

    def check(values: List[Any]) -> None:
        assert dict(zip(outputs, values)) == {
            "ledgerTxId": "ab" * 32,
            "ledgerValidationCode": "VALID",
            "ledgerValidationCodeNumber": 0,
            "ledgerBlockNumber": "7",
            "ledgerResult": "blue",
            "ledgerEndorsers": ["Org1MSP"],
            "ledgerProcessedTransaction": "CgQ=",
        }
        [tx] = by_type(mocks, "opsledger:ledger:LedgerTransaction")
        assert tx.inputs == {
            "gateway": {"address": "127.0.0.1:7051"},
            "channel": "opsledger",
            "chaincode": "assets",
            "function": "CreateAsset",
            "args": ["asset-9", "green"],
            "identity": {"mspId": "Org1MSP", "certificatePem": "CERT", "keyFile": "/keys/org1.pem"},
            "trustedRootCertificates": roots,
            "previewEndorse": False,
            "allowInvalid": False,
            "timeouts": {"create": "2m", "delete": "2m"},
        }
        assert mocks.calls == []

    return pulumi.Output.all(*outputs.values()).apply(check)
