"""A Python program using the pulumi-resource-opsledger plugin through the Python SDK generated from its schema
(sdk/python): it keeps a firewall policy under a folder, deletes an inventory source group, waits on an operation,
reads every data source, reads a second organization's workforce pool through an explicit provider, and, when
`ledgerGateway` is set, submits one Fabric transaction. The ids are those of the sandbox's fixture (`npm run sandbox`);
against Google, write your own."""

import pulumi

from opsledger_example import google_resources, ledger_transaction, second_organization

config = pulumi.Config()
for name, value in google_resources(config.require("parentId")).items():
    pulumi.export(name, value)
for name, value in second_organization(config).items():
    pulumi.export(name, value)
if config.get("ledgerGateway") is not None:
    for name, value in ledger_transaction(config).items():
        pulumi.export(name, value)
