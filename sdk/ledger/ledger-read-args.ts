import * as path from "node:path";
import type * as LedgerReads from "../../provider/resources/ledger/ledger-reads";
import type {
  LedgerGateway,
  LedgerIdentity,
  LedgerPkcs11,
  LedgerReadGateway,
  LedgerReadShape,
} from "../../provider/resources/ledger/ledger-shapes";
import type { InputOf } from "./inputs";

/**
 * The ledger's read side (gRPC, the Fabric protos, X.509 and the signers), loaded on a program's first ledger read:
 * loading it costs a program about 0.1 s of CPU at start, which every program that imports this package paid, ledger
 * reads or not (the TypeScript SDK's index imports every namespace).
 */
export function ledgerReads(): typeof LedgerReads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above); CommonJS build
  return require("../../provider/resources/ledger/ledger-reads") as typeof LedgerReads;
}

/** The gateway a read asks (ledger-shapes.ts: a LedgerTransaction's gateway without supportsVisibility). */
export type { LedgerReadGateway };

/** A key on a PKCS#11 token, as a LedgerTransaction's identity.pkcs11 names it (ledger-shapes.ts's LedgerPkcs11). */
export type LedgerReadPkcs11 = LedgerPkcs11;

/** Who reads, and how its key signs: a LedgerTransaction's identity (ledger-shapes.ts's LedgerIdentity). */
export type LedgerReadIdentity = LedgerIdentity;

/** What every ledger read takes (ledger-shapes.ts's LedgerReadShape). */
export type LedgerReadArgs = LedgerReadShape;

/** `T` with every value, at any depth, allowed to be a pulumi.Input (what the *Output forms take). */
export type DeepInput<T> = InputOf<T>;

/** The gateway as the provider layer takes it: a client TLS key file's path made absolute (the program's directory). */
export function gatewayOf(gateway: LedgerReadGateway): LedgerGateway {
  return gateway.clientKeyFile === undefined
    ? gateway
    : { ...gateway, clientKeyFile: path.resolve(gateway.clientKeyFile) };
}

/** The identity as the provider layer takes it: a key file's path made absolute (the program's directory). */
export function identityOf(identity: LedgerReadIdentity): LedgerIdentity {
  return identity.keyFile === undefined ? identity : { ...identity, keyFile: path.resolve(identity.keyFile) };
}
