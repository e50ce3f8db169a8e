/**
 * The chaincode lifecycle's shapes, declared once as plain types (no Pulumi), as ledger-shapes.ts declares the
 * transaction's: the inputs of ledger.ChaincodePackage, ChaincodeInstallation, ChaincodeApproval and
 * ChaincodeDefinition, which the provider checks and the TypeScript SDK maps to `pulumi.Input` forms (sdk/inputs.ts),
 * and what they report. scripts/gen-schema.ts reads their doc comments into the plugin's schema (and so into sdk/go
 * and sdk/python); a field that must only ever be stored as a Pulumi secret carries the `@secret` tag.
 */
import type { CcaasConnection } from "../../../ledger/lifecycle/chaincode-package";
import type { ChaincodeCollection } from "../../../ledger/lifecycle/collections";
import type { LedgerChannelCapability, LedgerCredentials, LedgerIdentity, LedgerReadGateway } from "../ledger-shapes";

export type { CcaasConnection, ChaincodeCollection };

/**
 * A chaincode definition: the fields every organization approves and the channel commits (Fabric's
 * `peer lifecycle chaincode approveformyorg` / `commit` flags). Defaults are Fabric's.
 */
export interface ChaincodeDefinitionFields {
  /** The chaincode's name on the channel: letters and digits, with single '-' or '_' between them. */
  name: string;
  /** The chaincode's version: letters, digits and '_', '.', '+', '-'. */
  version: string;
  /**
   * The sequence, as an assertion checked against the channel before anything is sent (a sequence lower than the
   * committed one is refused). @default the committed sequence when the channel has this very definition, else the
   * next one (1 for a new chaincode): a change of any field is the next sequence, approved again and committed
   */
  sequence?: number;
  /**
   * A signature policy (`AND('Org1MSP.peer','Org2MSP.peer')`, the peer CLI's --signature-policy) or a channel policy
   * reference (`/Channel/Application/Endorsement`, its --channel-config-policy). @default the channel's
   * /Channel/Application/Endorsement
   */
  endorsementPolicy?: string;
  /** Private data collections, as the peer CLI's --collections-config JSON holds them. @default none */
  collections?: ChaincodeCollection[];
  /** Whether the chaincode's Init must be invoked first. @default false */
  initRequired?: boolean;
  /** @default "escc" */
  endorsementPlugin?: string;
  /** @default "vscc" */
  validationPlugin?: string;
}

/** A definition as Fabric answers it, every default filled in and the policy printed as the language writes it. */
export interface ChaincodeDefinitionView {
  name: string;
  version: string;
  sequence: number;
  /** The policy as text: a signature policy printed canonically (AND, OR, OutOf; no spaces) or a reference. */
  endorsementPolicy: string;
  collections: ChaincodeCollection[];
  initRequired: boolean;
  endorsementPlugin: string;
  validationPlugin: string;
}

/** An organization's approval as its peer answers it (QueryApprovedChaincodeDefinition). */
export interface ChaincodeApprovalView extends ChaincodeDefinitionView {
  /** The organization whose approval this is. */
  organization: string;
  /** The package its peers run for this definition ("" for none). */
  packageId: string;
}

/** The definition committed on the channel (QueryChaincodeDefinition), with each organization's approval of it. */
export interface ChaincodeCommittedView extends ChaincodeDefinitionView {
  /** MSP id → whether that organization approved this definition. */
  approvals: Record<string, boolean>;
}

/** The inputs of a chaincode package: chaincode as a service from a label and connection, or a file built elsewhere. */
export interface ChaincodePackageShape {
  /**
   * The label of a chaincode-as-a-service package: letters, digits and '_', '.', '+', '-', starting with a letter or
   * digit (often `<name>_<version>`). A file's package has its own label: leave this out then.
   */
  label?: string;
  /**
   * Where the chaincode server listens and how the peer reaches it (the ccaas builder's connection.json). With
   * clientAuthRequired it holds the peer's TLS key: give the key as a secret. Exactly one of connection and file.
   */
  connection?: CcaasConnection;
  /**
   * The path of a package built elsewhere (`peer lifecycle chaincode package`, any tool), read where `pulumi` runs
   * (relative to the program's directory). Exactly one of connection and file.
   */
  file?: string;
}

/** What a chaincode package reports: computed locally, known in preview. */
export interface ChaincodePackageOutcome {
  /** `<label>:<hex SHA-256 of the package>`, as `peer lifecycle chaincode calculatepackageid` prints it. */
  packageId: string;
  /** The package's label (metadata.json's). */
  label: string;
  /** The package's type (metadata.json's): "ccaas", "golang", "node", ... */
  type: string;
  /**
   * The package's bytes (a .tar.gz), base64: what ChaincodeInstallation installs. Only ever a Pulumi secret: a ccaas
   * package with client authentication carries the peer's TLS key.
   * @secret
   */
  packageBase64: string;
}

/** Deadlines of an installation, as durations ("10m"). */
export interface ChaincodeInstallationTimeouts {
  /** The install call: quick for a chaincode-as-a-service package, minutes for source the peer must build. @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  create?: string;
}

/** The inputs of a package's installation on one peer (InstallChaincode, signed by its organization's admin). */
export interface ChaincodeInstallationShape {
  /** The peer to install on: its address (where its gateway also listens) and TLS settings. A change is a new installation. */
  peer: LedgerReadGateway;
  /** The admin of the peer's organization (the peer's local Admins policy). */
  identity: LedgerIdentity;
  /**
   * The package's bytes, base64 (a ChaincodePackage's packageBase64). Only ever a Pulumi secret. Exactly one of
   * packageBase64 and packageFile.
   * @secret
   */
  packageBase64?: string;
  /** The path of the package file, read where `pulumi` runs. Exactly one of packageBase64 and packageFile. */
  packageFile?: string;
  /** Our own deadline of the install call. */
  timeouts?: ChaincodeInstallationTimeouts;
}

/** What an installation reports. */
export interface ChaincodeInstallationOutcome {
  /** The package id the peer installed it under. */
  packageId: string;
  /** The package's label. */
  label: string;
}

/** Deadlines of an approval or a commit (its reads, endorsement, ordering and commit), as durations ("5m"). */
export interface ChaincodeStepTimeouts {
  /** @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  create?: string;
  /** @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  update?: string;
}

/** What an approval and a commit both take: the organization's admin on a channel, through its gateway. */
export interface ChaincodeChannelShape {
  /** The gateway of a peer of the identity's organization. */
  gateway: LedgerReadGateway;
  /** The channel. A change is another approval or definition (replace). */
  channel: string;
  /**
   * An assertion of the channel's capability ("V3_0" or "V2_0"), checked against the channel's own configuration.
   * @default read from the channel
   */
  channelCapability?: LedgerChannelCapability;
  /** An admin of an organization of the channel: it signs, and reads what preview shows. */
  identity: LedgerIdentity;
  /** MSP id → root CA certificate PEM: the admin is checked against its CA, every endorsement before signing. */
  trustedRootCertificates: Record<string, string>;
  /** The chaincode definition. Its name is the chaincode's: a change of name is another chaincode (replace). */
  definition: ChaincodeDefinitionFields;
  /** Our own deadlines. */
  timeouts?: ChaincodeStepTimeouts;
}

/** The inputs of an organization's approval (ApproveChaincodeDefinitionForMyOrg, endorsed by its own peer). */
export interface ChaincodeApprovalShape extends ChaincodeChannelShape {
  /**
   * The package the organization's peers run for this definition (a ChaincodeInstallation's packageId): it must be
   * installed on `peers` first. @default none (the chaincode does not run on this organization's peers)
   */
  packageId?: string;
  /** The organization's peers that must have the package installed. @default the gateway's peer */
  peers?: LedgerReadGateway[];
}

/** The inputs of a committed definition (CommitChaincodeDefinition, once the LifecycleEndorsement policy is met). */
export interface ChaincodeDefinitionShape extends ChaincodeChannelShape {
  /** The organizations whose peers endorse the commit. @default every organization that approved */
  endorsingOrganizations?: string[];
}

/** What an approval or a commit did (both reports keep it). */
export interface ChaincodeStepOutcome {
  /**
   * "submitted", "adopted" (this resource's transaction found committed, after a crash), "already-approved" or
   * "already-committed" (the channel had it: nothing was sent).
   */
  outcome: string;
  /** The transaction submitted or adopted; absent when nothing was sent. */
  txId?: string;
  /** Its block (a decimal string); absent when nothing was sent. */
  blockNumber?: string;
}

/** What a ChaincodeApproval reports. */
export interface ChaincodeApprovalOutcome extends ChaincodeStepOutcome {
  /** The organization's approval as its peer answers it: after `pulumi refresh`, its newest (another admin's too). */
  approved: ChaincodeApprovalView;
  /** The key material refresh signs with that no reference holds. Only ever a Pulumi secret. @secret */
  credentials: LedgerCredentials;
}

/** What a ChaincodeDefinition reports. */
export interface ChaincodeDefinitionOutcome extends ChaincodeStepOutcome {
  /** The definition the channel has committed, with each organization's approval: after `pulumi refresh`, as it is now. */
  committed: ChaincodeCommittedView;
  /** The key material refresh signs with that no reference holds. Only ever a Pulumi secret. @secret */
  credentials: LedgerCredentials;
}
