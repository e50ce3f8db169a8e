/**
 * A chaincode's endorsement policy as text, in the two forms the peer CLI takes: a signature policy
 * (`--signature-policy "AND('Org1MSP.peer','Org2MSP.peer')"`, signature-policy.ts) or a reference to a policy of the
 * channel's configuration (`--channel-config-policy /Channel/Application/Endorsement`), told apart by the leading
 * '/'. Its wire form is a serialized protos.ApplicationPolicy (ChaincodeDefinition's validation_parameter); no policy
 * at all is empty bytes, which Fabric stores as the channel's default, /Channel/Application/Endorsement.
 */
import { ValidationError } from "../../errors/validation-error";
import { lifecycleCodecs } from "./lifecycle-codecs";
import type { ApplicationPolicy } from "./lifecycle-messages";
import { parseSignaturePolicy, printSignaturePolicy } from "./signature-policy";
import type { PolicyTextOptions } from "./signature-policy";

/** What Fabric stores for a definition approved or committed without an endorsement policy. */
export const DEFAULT_ENDORSEMENT_POLICY_REFERENCE = "/Channel/Application/Endorsement";

/** A channel policy path: /Channel and one or more names, no empty segment, no spaces. */
const REFERENCE = /^\/Channel(\/[^/\s]+)+$/;

/** Whether a policy text is a channel policy reference (it starts with '/'). */
export function isPolicyReference(text: string): boolean {
  return text.trimStart().startsWith("/");
}

/** The ApplicationPolicy of a text; throws PolicySyntaxError or ValidationError naming the field. */
export function parseEndorsementPolicy(text: string, options: PolicyTextOptions = {}): ApplicationPolicy {
  if (!isPolicyReference(text)) return { signaturePolicy: parseSignaturePolicy(text, options) };
  const reference = text.trim();
  if (!REFERENCE.test(reference)) {
    throw new ValidationError({
      subject: options.subject ?? "ChaincodeDefinition",
      failures: [
        {
          property: options.field ?? "endorsementPolicy",
          reason:
            `${JSON.stringify(text)} is not a channel policy path: write /Channel/Application/<policy>, such as ` +
            `${DEFAULT_ENDORSEMENT_POLICY_REFERENCE}, or a signature policy such as AND('Org1MSP.peer','Org2MSP.peer')`,
        },
      ],
    });
  }
  return { channelConfigPolicyReference: reference };
}

/** The validation_parameter bytes of a policy text; empty for no policy (the channel's default). */
export function endorsementPolicyBytes(text: string | undefined, options: PolicyTextOptions = {}): Uint8Array {
  if (text === undefined) return new Uint8Array(0);
  return lifecycleCodecs.ApplicationPolicy.encode(parseEndorsementPolicy(text, options));
}

/** The text of an ApplicationPolicy: the reference as it is, or the signature policy printed. */
export function printApplicationPolicy(policy: ApplicationPolicy): string {
  if (policy.channelConfigPolicyReference !== undefined) return policy.channelConfigPolicyReference;
  if (policy.signaturePolicy !== undefined) return printSignaturePolicy(policy.signaturePolicy);
  return "";
}

/**
 * The text of validation_parameter bytes as a definition read back holds them: empty bytes are the channel's
 * default reference (what Fabric stores for them).
 */
export function printEndorsementPolicyBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return DEFAULT_ENDORSEMENT_POLICY_REFERENCE;
  return printApplicationPolicy(lifecycleCodecs.ApplicationPolicy.decode(bytes, { path: "ApplicationPolicy" }));
}
