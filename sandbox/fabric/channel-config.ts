/** What the peer knows about its one channel, shared by the endorser, the orderer and the committer. */
import { createHash } from "node:crypto";
import type { Chaincode } from "./chaincode";
import type { EndorsementPolicy } from "./endorsement-policy";
import type { LifecycleStore } from "./lifecycle-store";
import type { MembershipServices } from "./msp";

export interface ChannelConfig {
  readonly channel: string;
  /** The built-in application chaincode, defined at genesis. */
  readonly chaincode: Chaincode;
  /** Its endorsement policy, which is also the channel's /Channel/Application/Endorsement. */
  readonly policy: EndorsementPolicy;
  readonly msp: MembershipServices;
  /** The peers' installed packages and the organizations' approvals (chaincode-definitions.ts reads the rest). */
  readonly lifecycle: LifecycleStore;
}

/** common.HeaderType values the sandbox distinguishes. */
export const HeaderType = {
  MESSAGE: 0,
  CONFIG: 1,
  CONFIG_UPDATE: 2,
  ENDORSER_TRANSACTION: 3,
  ORDERER_TRANSACTION: 4,
} as const;

/** The transaction id: lowercase hex of SHA-256(nonce ‖ serialized creator). */
export function computeTxId(nonce: Uint8Array, creator: Uint8Array): string {
  return createHash("sha256").update(nonce).update(creator).digest("hex");
}

export function sha256(...parts: readonly Uint8Array[]): Buffer {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
}
