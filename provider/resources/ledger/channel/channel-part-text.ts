/**
 * What a reviewer reads about a channel part: the owned fields before (as the channel has them) and after (as the
 * program declares them), certificates named by their subject rather than dumped, and the update's modified elements
 * with the policies that must approve them and who does. Preview shows it on the resource's row; refresh says the
 * same of a change someone else made, with who signed it.
 */
import * as crypto from "node:crypto";
import type { ConfigBlock } from "../../../ledger/channel/config-block";
import { signerOf } from "../../../ledger/channel/config-update-signing";
import { readConfigUpdateEnvelope } from "../../../ledger/channel/config-update-signing";
import type { UpdateAuthorization } from "../../../ledger/channel/update-authorization";
import { canonical } from "../ledger-values";

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\s*/;

/** A certificate as a reviewer reads it: its subject and validity, or "an unparsable certificate". */
function certificateText(pem: string): string {
  try {
    const c = new crypto.X509Certificate(pem);
    return `certificate ${c.subject.replace(/\n/g, ", ")} (until ${new Date(c.validTo).toISOString().slice(0, 10)})`;
  } catch {
    return "an unparsable certificate";
  }
}

/** A value as text: JSON, with each PEM certificate replaced by its subject. */
export function shown(value: unknown): string {
  if (typeof value === "string" && PEM.test(value)) return certificateText(value);
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${shown(v)}`)
      .join(", ")}}`;
  return value === null || value === undefined ? "(none)" : JSON.stringify(value);
}

/** One owned field that differs. */
export interface FieldChange {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
}

/** The fields of `after` whose value differs in `before`, in `after`'s order. */
export function changedFields(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>) {
  return Object.keys(after)
    .filter((k) => canonical(before[k]) !== canonical(after[k]))
    .map((field): FieldChange => ({ field, before: before[field], after: after[field] }));
}

const empty = (v: unknown): boolean => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/** "batchTimeout "2s" → "5s"; ..." (a field that goes from nothing to an empty list says nothing: left out). */
export function changesText(changes: readonly FieldChange[]): string {
  return changes
    .filter((c) => !(empty(c.before) && empty(c.after)))
    .map((c) => `${c.field} ${shown(c.before)} → ${shown(c.after)}`)
    .join("; ");
}

/** Where a configuration stands: "config sequence 4 (block 9)". */
export function whereText(block: ConfigBlock): string {
  return `config sequence ${block.config.sequence.toString()} (block ${block.number.toString()})`;
}

/** The update's modified elements and the policies that approve them, with who satisfies each. */
export function approvalText(authorization: UpdateAuthorization): string {
  return authorization.checks
    .map((c) => {
      const by = c.evaluation.satisfiedBy.length === 0 ? "no signer" : c.evaluation.satisfiedBy.join(", ");
      return `${c.element.replace(/\s+/, " ")} (mod_policy ${c.evaluation.path}: ${c.evaluation.rule}) approved by ${by}`;
    })
    .join("; ");
}

/** Who signed the update that produced a configuration block: "Org2MSP (CN=Admin@org2.example.com)", or undefined. */
export function signedByText(block: ConfigBlock): string | undefined {
  if (block.lastUpdate === undefined) return undefined;
  try {
    const { signatures } = readConfigUpdateEnvelope(block.lastUpdate);
    return signatures
      .map((s) => {
        const who = signerOf(s);
        let subject = "";
        try {
          const cn = /CN=([^\n,]+)/.exec(new crypto.X509Certificate(Buffer.from(who.credentials)).subject)?.[1];
          subject = cn === undefined ? "" : ` (CN=${cn})`;
        } catch {
          subject = "";
        }
        return `${who.mspId}${subject}`;
      })
      .join(", ");
  } catch {
    return undefined;
  }
}
