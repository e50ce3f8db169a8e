/**
 * The registry's resources: one descriptor each, read by the dynamic dispatch (provider/dynamic), the plugin
 * (provider/plugin/kinds.ts), the schema's generator (scripts/gen-schema.ts) and the SDK's classes and type constants.
 * Adding a resource is adding its descriptor here and its implementation (docs/architecture.md, "Adding a resource").
 * Tokens and dynamic types are frozen once released: state names them.
 */
import type {
  ImportRefusal,
  ResourceDescriptor,
  ResourceImplementation,
  SdkResourceSource,
  Step,
  TypescriptComponent,
} from "./descriptors";

interface Declared {
  readonly module: string;
  readonly name: string;
  /** The dynamic resource's type name when it is not `name` (the ledger transaction's child). */
  readonly dynamicName?: string;
  readonly typescriptComponent?: TypescriptComponent;
  readonly sdk: SdkResourceSource;
  readonly timeoutSteps: readonly Step[];
  readonly importRefusal?: ImportRefusal;
  readonly load: () => ResourceImplementation;
}

function resource(d: Declared): ResourceDescriptor {
  let loaded: ResourceImplementation | undefined;
  return {
    token: `opsledger:${d.module}:${d.name}`,
    module: d.module,
    name: d.name,
    dynamicType: `pulumi-nodejs:dynamic/${d.module}:${d.dynamicName ?? d.name}`,
    ...(d.typescriptComponent === undefined ? {} : { typescriptComponent: d.typescriptComponent }),
    sdk: d.sdk,
    timeoutSteps: d.timeoutSteps,
    ...(d.importRefusal === undefined ? {} : { importRefusal: d.importRefusal }),
    // Loaded on first use: a provider process serves one stack's resources, so only one that meets a ledger resource
    // loads gRPC, the Fabric protos, X.509 and the signers; the SDK reads descriptors without loading any provider.
    load: () => (loaded ??= d.load()),
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- each implementation is loaded on first use (above) */

/** A channel's parts adopt what the channel already has: no import (there is no id to name), declare them instead. */
const CHANNEL_PART_IMPORT: ImportRefusal = {
  why: "it owns part of a channel's configuration, which has no id of its own to import by",
  instead:
    "Declare it without import: when the channel already has what it declares, its first `pulumi up` records it and sends nothing",
};

/** A channel's resources (provider/resources/ledger/channel/, docs/channels.md). */
const CHANNEL_RESOURCES = {
  channel: resource({
    module: "ledger",
    name: "Channel",
    sdk: { file: "sdk/ledger/channel-creation.ts", cls: "Channel", args: "ChannelArgs" },
    timeoutSteps: ["create"],
    importRefusal: {
      why: "its genesis declaration cannot be read back from the orderers' participation API",
      instead:
        "Declare it without import: an orderer that has the channel already is adopted, and a ChannelPeer adopts a peer that joined it",
    },
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-creation") as typeof import("../resources/ledger/channel/channel-creation");
      return { provider: m.channelProvider };
    },
  }),
  channelPeer: resource({
    module: "ledger",
    name: "ChannelPeer",
    sdk: { file: "sdk/ledger/channel-peer.ts", cls: "ChannelPeer", args: "ChannelPeerArgs" },
    timeoutSteps: [],
    importRefusal: {
      why: "its identity (the peer's admin, a signer) cannot be read back from the peer",
      instead: "Declare it without import: a peer that has joined the channel already is adopted, nothing sent",
    },
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-peer") as typeof import("../resources/ledger/channel/channel-peer");
      return { provider: m.channelPeerProvider };
    },
  }),
  channelOrganization: resource({
    module: "ledger",
    name: "ChannelOrganization",
    sdk: { file: "sdk/ledger/channel-organization.ts", cls: "ChannelOrganization", args: "ChannelOrganizationArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: CHANNEL_PART_IMPORT,
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-organization") as typeof import("../resources/ledger/channel/channel-organization");
      return { provider: m.channelOrganizationProvider };
    },
  }),
  channelAnchorPeers: resource({
    module: "ledger",
    name: "ChannelAnchorPeers",
    sdk: { file: "sdk/ledger/channel-anchor-peers.ts", cls: "ChannelAnchorPeers", args: "ChannelAnchorPeersArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: CHANNEL_PART_IMPORT,
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-anchor-peers") as typeof import("../resources/ledger/channel/channel-anchor-peers");
      return { provider: m.channelAnchorPeersProvider };
    },
  }),
  channelCapabilities: resource({
    module: "ledger",
    name: "ChannelCapabilities",
    sdk: { file: "sdk/ledger/channel-capabilities.ts", cls: "ChannelCapabilities", args: "ChannelCapabilitiesArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: CHANNEL_PART_IMPORT,
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-capability-levels") as typeof import("../resources/ledger/channel/channel-capability-levels");
      return { provider: m.channelCapabilitiesProvider };
    },
  }),
  channelBatchSettings: resource({
    module: "ledger",
    name: "ChannelBatchSettings",
    sdk: {
      file: "sdk/ledger/channel-batch-settings.ts",
      cls: "ChannelBatchSettings",
      args: "ChannelBatchSettingsArgs",
    },
    timeoutSteps: ["create", "update"],
    importRefusal: CHANNEL_PART_IMPORT,
    load: () => {
      const m =
        require("../resources/ledger/channel/channel-batch-settings") as typeof import("../resources/ledger/channel/channel-batch-settings");
      return { provider: m.channelBatchSettingsProvider };
    },
  }),
} as const satisfies Readonly<Record<string, ResourceDescriptor>>;

export const RESOURCES = {
  firewallPolicyMove: resource({
    module: "compute",
    name: "FirewallPolicyMove",
    sdk: {
      file: "sdk/compute/firewall-policy-move.ts",
      cls: "FirewallPolicyMove",
      args: "FirewallPolicyMoveArgs",
      sdkOnly: ["requestId", "generation"],
    },
    timeoutSteps: ["create", "update", "delete"],
    load: () => {
      const m = require("../resources/firewall-policy-move") as typeof import("../resources/firewall-policy-move");
      return { provider: m.firewallPolicyMoveProvider, adopt: m.adoptFirewallPolicyMove };
    },
  }),
  inventorySourceGroupDeletion: resource({
    module: "displayvideo",
    name: "InventorySourceGroupDeletion",
    sdk: {
      file: "sdk/displayvideo/inventory-source-group-deletion.ts",
      cls: "InventorySourceGroupDeletion",
      args: "InventorySourceGroupDeletionArgs",
    },
    timeoutSteps: [],
    importRefusal: {
      why: "the resource is the deletion of a group, not the group; an existing group has no deletion to adopt, and a group already gone needs none",
      instead:
        "Declare it without import: its create deletes the group, and records a group already gone (404) as alreadyAbsent without an error",
    },
    load: () => {
      const m =
        require("../resources/inventory-source-group-deletion") as typeof import("../resources/inventory-source-group-deletion");
      return { provider: m.inventorySourceGroupDeletionProvider };
    },
  }),
  operationWait: resource({
    module: "operations",
    name: "OperationWait",
    sdk: { file: "sdk/operations/operation-wait.ts", cls: "OperationWait", args: "OperationWaitArgs" },
    timeoutSteps: ["create"],
    load: () => {
      const m = require("../resources/operation-wait") as typeof import("../resources/operation-wait");
      return { provider: m.operationWaitProvider, adopt: m.adoptOperationWait };
    },
  }),
  ledgerTransaction: resource({
    module: "ledger",
    name: "LedgerTransaction",
    dynamicName: "LedgerTransactionSubmission",
    // Until 0.2 the component was registered under the plugin's token, a custom resource there: one token, two kinds
    // (docs/decisions/0049-one-kind-per-ledger-token.md). Its alias keeps those stacks, and the child's URN and txId.
    typescriptComponent: {
      type: "opsledger:ledger:LedgerTransactionComponent",
      aliasTypes: ["opsledger:ledger:LedgerTransaction"],
    },
    sdk: {
      file: "sdk/ledger/ledger-transaction.ts",
      cls: "LedgerTransaction",
      args: "LedgerTransactionArgs",
      sdkOnly: ["submission"],
    },
    timeoutSteps: ["create", "delete"],
    importRefusal: {
      why: "its inputs (the signing identity, a secret, and the transient data) cannot be read back from the ledger, and its exactly-once txId is derived from the resource's URN, so a transaction another program committed cannot be adopted",
      instead:
        "Declare it without import: a transaction this resource already committed under its txId is found on the ledger and adopted, not submitted again",
    },
    load: () => {
      const m =
        require("../resources/ledger/ledger-transaction") as typeof import("../resources/ledger/ledger-transaction");
      return { provider: m.ledgerTransactionProvider };
    },
  }),
  ledgerTransactions: resource({
    module: "ledger",
    name: "LedgerTransactions",
    sdk: { file: "sdk/ledger/ledger-transactions.ts", cls: "LedgerTransactions", args: "LedgerTransactionsArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: {
      why: "its items' exactly-once txIds are derived from the resource's URN, and its signing identity cannot be read back from the ledger",
      instead:
        "Declare it without import: every item this resource already committed under its txId is found on the ledger and adopted, not submitted again",
    },
    load: () => {
      const m =
        require("../resources/ledger/ledger-transactions") as typeof import("../resources/ledger/ledger-transactions");
      return { provider: m.ledgerTransactionsProvider };
    },
  }),
  chaincodePackage: resource({
    module: "ledger",
    name: "ChaincodePackage",
    sdk: { file: "sdk/ledger/chaincode-package.ts", cls: "ChaincodePackage", args: "ChaincodePackageArgs" },
    timeoutSteps: [],
    importRefusal: {
      why: "a package is computed where pulumi runs from its label and connection, or read from its file; there is nothing to adopt",
      instead: "Declare it without import: the same inputs make the same bytes and package id every time",
    },
    load: () => {
      const m =
        require("../resources/ledger/chaincode/chaincode-packaging") as typeof import("../resources/ledger/chaincode/chaincode-packaging");
      return { provider: m.chaincodePackageProvider };
    },
  }),
  chaincodeInstallation: resource({
    module: "ledger",
    name: "ChaincodeInstallation",
    sdk: {
      file: "sdk/ledger/chaincode-installation.ts",
      cls: "ChaincodeInstallation",
      args: "ChaincodeInstallationArgs",
    },
    timeoutSteps: ["create"],
    importRefusal: {
      why: "an installation's package and its peer's admin identity cannot be read back from the peer",
      instead:
        "Declare it without import: a package the peer has installed already is found and adopted, not sent again",
    },
    load: () => {
      const m =
        require("../resources/ledger/chaincode/chaincode-installation") as typeof import("../resources/ledger/chaincode/chaincode-installation");
      return { provider: m.chaincodeInstallationProvider };
    },
  }),
  chaincodeApproval: resource({
    module: "ledger",
    name: "ChaincodeApproval",
    sdk: { file: "sdk/ledger/chaincode-approval.ts", cls: "ChaincodeApproval", args: "ChaincodeApprovalArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: {
      why: "its exactly-once txIds are derived from the resource's URN, and its admin identity cannot be read back from the channel",
      instead:
        "Declare it without import: an approval the organization has already made is found and not sent again, and one this resource made is adopted",
    },
    load: () => {
      const m =
        require("../resources/ledger/chaincode/chaincode-approval") as typeof import("../resources/ledger/chaincode/chaincode-approval");
      return { provider: m.chaincodeApprovalProvider };
    },
  }),
  chaincodeDefinition: resource({
    module: "ledger",
    name: "ChaincodeDefinition",
    sdk: { file: "sdk/ledger/chaincode-definition.ts", cls: "ChaincodeDefinition", args: "ChaincodeDefinitionArgs" },
    timeoutSteps: ["create", "update"],
    importRefusal: {
      why: "its exactly-once txIds are derived from the resource's URN, and its admin identity cannot be read back from the channel",
      instead:
        "Declare it without import: a definition the channel has committed already is found and not sent again, and one this resource committed is adopted",
    },
    load: () => {
      const m =
        require("../resources/ledger/chaincode/chaincode-commit") as typeof import("../resources/ledger/chaincode/chaincode-commit");
      return { provider: m.chaincodeDefinitionProvider };
    },
  }),
  ...CHANNEL_RESOURCES,
} as const satisfies Readonly<Record<string, ResourceDescriptor>>;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Every resource, in the registry's order. */
export const RESOURCE_LIST: readonly ResourceDescriptor[] = Object.values(RESOURCES);

/** The resource of a plugin token, a TypeScript dynamic type or component type; undefined when the package has none. */
export function resourceOfType(type: string): ResourceDescriptor | undefined {
  return RESOURCE_LIST.find((d) => d.token === type || d.dynamicType === type || d.typescriptComponent?.type === type);
}

/** The message refusing an import, saying why and what to do (the plugin's answer to `pulumi import`). */
export function importRefusalMessage(d: ResourceDescriptor): string | undefined {
  return d.importRefusal === undefined
    ? undefined
    : `${d.token} cannot be imported: ${d.importRefusal.why}. ${d.importRefusal.instead}`;
}
