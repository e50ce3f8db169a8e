// Pulumi dynamic resources and data sources for Google Cloud management operations and Hyperledger Fabric ledger transactions, with a local sandbox.
package opsledger
