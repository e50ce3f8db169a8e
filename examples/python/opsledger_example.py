"""The resources and reads of examples/python, one function per part, so that the unit tests (test_program.py) and a
program of the ledger alone can run a part by itself."""

import json
from typing import Any, Dict, Optional

import pulumi
import pulumi_opsledger as opsledger
from pulumi_opsledger import compute, deploymentmanager, displayvideo, iam, ledger, operations, workspaceevents

# The operation the fixture's IAM policy binding started.
BINDING_OPERATION = "folders/200000000001/locations/global/operations/op-binding-created"


def google_resources(parent_id: str) -> Dict[str, Any]:
    """A move, a deletion, a wait and every data source (read during preview too); returns the stack outputs."""
    # Quote numeric ids: they are int64 decimal strings (the plugin refuses anything else, naming the field).
    policy = compute.FirewallPolicyMove(
        "edge-policy",
        firewall_policy="700000000002",
        parent_id=parent_id,
        opts=pulumi.ResourceOptions(custom_timeouts=pulumi.CustomTimeouts(create="20m", update="20m")),
    )
    group = displayvideo.InventorySourceGroupDeletion(
        "spare-group", inventory_source_group_id="5005", partner_id="1001"
    )
    wait = operations.OperationWait(
        "policy-binding",
        operation=BINDING_OPERATION,
        timeouts=operations.OperationWaitTimeoutsArgs(create="20m"),
    )
    pool = iam.get_workforce_pool_iam_policy(workforce_pool_id="sandbox-contractors")
    iam_operation = iam.get_operation(name=BINDING_OPERATION)
    deployment = deploymentmanager.get_deployment(project="sandbox-project", deployment="web-stack")
    subscription = workspaceevents.get_subscription(name="subscriptions/chat-spaces-sandbox")
    # Google has sunset Display & Video 360 v1-v3.
    creative = displayvideo.get_creative(advertiser_id="2001", creative_id="7001", api_version="v4")
    return {
        "parent": policy.parent,
        "previousParent": policy.previous_parent,
        "groupOutcome": group.outcome,
        "operationStatus": wait.status,
        "workforcePoolEtag": pool.etag,
        "iamOperationDone": iam_operation.done,
        "deploymentOperationStatus": (deployment.operation or {}).get("status"),
        "subscriptionState": subscription.state,
        "creativeName": creative.display_name,
    }


def second_organization(config: pulumi.Config) -> Dict[str, Any]:
    """An explicit provider with a second organization's credentials (`orgBAccessToken`, a secret; without it, the
    environment's, as the default provider's), and that organization's workforce pool read through it."""
    token: Optional[pulumi.Output[str]] = config.get_secret("orgBAccessToken")
    org_b = opsledger.Provider("org-b", access_token=token)
    pool = iam.get_workforce_pool_iam_policy_output(
        workforce_pool_id=config.get("orgBWorkforcePool") or "sandbox-contractors",
        opts=pulumi.InvokeOutputOptions(provider=org_b),
    )
    return {"orgBWorkforcePoolEtag": pool.etag}


def _json(config: pulumi.Config, key: str) -> Optional[Any]:
    text = config.get(key)
    return None if text is None else json.loads(text)


def ledger_transaction(config: pulumi.Config) -> Dict[str, Any]:
    """One Fabric transaction, from examples/ledger's config keys (`ledgerGateway`, `ledgerMspId`,
    `ledgerCertificatePem`, `ledgerTrustedRootCertificates`, and the key as `ledgerPrivateKeyPem` (a secret) or
    `ledgerSigner keyFile` with `ledgerKeyFile`); returns examples/ledger's stack outputs."""
    if (config.get("ledgerSigner") or "privateKeyPem") == "keyFile":
        key: Dict[str, Any] = {"key_file": config.require("ledgerKeyFile")}
    else:
        key = {"private_key_pem": config.require_secret("ledgerPrivateKeyPem")}
    transient = config.get_secret("ledgerTransientData")
    tx = ledger.LedgerTransaction(
        "asset-transaction",
        gateway=ledger.LedgerGatewayArgs(
            address=config.require("ledgerGateway"),
            tls_root_cert_pem=config.get("ledgerTlsRootCertPem"),
            server_name_override=config.get("ledgerTlsServerNameOverride"),
        ),
        channel=config.get("ledgerChannel") or "opsledger",
        channel_capability=config.get("ledgerChannelCapability"),
        chaincode=config.get("ledgerChaincode") or "assets",
        function=config.get("ledgerFunction") or "CreateAsset",
        args=_json(config, "ledgerArgs") or ["asset-python-1", "blue"],
        transient_data=None if transient is None else transient.apply(json.loads),
        identity=ledger.LedgerIdentityArgs(
            msp_id=config.require("ledgerMspId"), certificate_pem=config.require("ledgerCertificatePem"), **key
        ),
        trusted_root_certificates=_json(config, "ledgerTrustedRootCertificates"),
        preview_endorse=config.get_bool("ledgerPreviewEndorse") or False,
        allow_invalid=config.get_bool("ledgerAllowInvalid") or False,
        timeouts=ledger.LedgerTimeoutsArgs(create="2m", delete="2m"),
    )
    return {
        "ledgerTxId": tx.tx_id,
        "ledgerValidationCode": tx.validation_code,
        "ledgerValidationCodeNumber": tx.validation_code_number,
        "ledgerBlockNumber": tx.block_number,
        "ledgerResult": tx.result.apply(lambda r: None if r is None else r.utf8),
        "ledgerEndorsers": tx.endorsers,
        "ledgerProcessedTransaction": tx.processed_transaction,
    }
