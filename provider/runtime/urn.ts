/**
 * Pulumi URNs, read in one place. A URN is `urn:pulumi:<stack>::<project>::<qualified type>::<name>`, where the
 * qualified type is the resource's type preceded by its ancestors' types, joined by `$`
 * (`opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission`), and the name is
 * everything after the third `::`, so a name may itself contain `::` (Pulumi's resource/urn.go reads it so).
 */

/** The parts of a URN. */
export interface ParsedUrn {
  readonly stack: string;
  readonly project: string;
  /** The resource's type with its ancestors' types, `$`-joined. */
  readonly qualifiedType: string;
  /** The resource's own type: the last `$` segment of the qualified type. */
  readonly type: string;
  /** The ancestors' types, outermost first. */
  readonly parentTypes: readonly string[];
  readonly name: string;
}

const PREFIX = "urn:pulumi:";

/** The parts of `urn`; a string that is not a URN is refused, quoting it. */
export function parseUrn(urn: string): ParsedUrn {
  const parts = urn.startsWith(PREFIX) ? urn.slice(PREFIX.length).split("::") : [];
  if (parts.length < 4) throw new Error(`'${urn}' is not a Pulumi URN (urn:pulumi:<stack>::<project>::<type>::<name>)`);
  const [stack = "", project = "", qualifiedType = "", ...name] = parts;
  const types = qualifiedType.split("$");
  return {
    stack,
    project,
    qualifiedType,
    type: types.at(-1) ?? "",
    parentTypes: types.slice(0, -1),
    name: name.join("::"),
  };
}

/** The input every resource of this package carries its own URN under (both faces; docs/decisions/0007-plumbing-under-double-underscore-keys.md). */
export const URN_INPUT = "__urn";
