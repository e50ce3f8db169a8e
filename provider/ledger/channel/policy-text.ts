/**
 * Channel policies as the text operators write in configtx.yaml: a signature policy in Fabric's policy language
 * (`OR('Org1MSP.admin', 'Org1MSP.peer')`, `AND(...)`, `OutOf(2, ...)`, roles member/admin/client/peer/orderer) and an
 * implicit meta policy as `<ANY|ALL|MAJORITY> <sub-policy>`, both ways.
 *
 * Parsing follows common/policydsl (FromString) so the envelope is the one configtxgen writes for the same text:
 * principals numbered in the order the parser meets them, the principals of a nested gate before those of the gate
 * around it, none merged; OR is OutOf(1, ...), AND is OutOf(<count>, ...).
 */
import * as crypto from "node:crypto";
import { codecs } from "../codec";
import type { ImplicitMetaPolicy, Policy } from "../config-messages";
import type { MspPrincipal, SignaturePolicy, SignaturePolicyEnvelope } from "../messages";
import { PolicyTextError } from "./policy-text-error";

/** common.Policy types. */
export const POLICY_TYPE = { SIGNATURE: 1, MSP: 2, IMPLICIT_META: 3 } as const;

/** msp.MSPRole roles by their policy-language names, in MSPRole's order (MEMBER 0 ... ORDERER 4). */
export const MSP_ROLES = ["member", "admin", "client", "peer", "orderer"] as const;
export type MspRoleName = (typeof MSP_ROLES)[number];

/** ImplicitMetaPolicy rules by number (ANY 0, ALL 1, MAJORITY 2). */
export const IMPLICIT_META_RULES = ["ANY", "ALL", "MAJORITY"] as const;
export type ImplicitMetaRule = (typeof IMPLICIT_META_RULES)[number];

const PRINCIPAL = /^([A-Za-z0-9.-]+)\.(member|admin|client|peer|orderer)$/;
const ROLE_PRINCIPAL = 0;
/** The gate names policydsl accepts: each in three spellings. */
const GATES = new Map<string, "and" | "or" | "outof">(
  (["And", "Or", "OutOf"] as const).flatMap((g) => {
    const kind = g.toLowerCase() as "and" | "or" | "outof";
    return [g, g.toLowerCase(), g.toUpperCase()].map((spelling) => [spelling, kind] as const);
  }),
);

interface Gate {
  readonly n: number;
  readonly items: readonly (Gate | string)[];
}

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  private fail(expected: string): never {
    const near = this.text.slice(this.at, this.at + 12);
    throw new PolicyTextError({
      text: this.text,
      position: this.at,
      message:
        `policy '${this.text}': expected ${expected} at position ${String(this.at)}` +
        (near === "" ? " (the end)" : ` (found '${near}')`),
    });
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  private take(char: string): boolean {
    this.space();
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }

  parse(): Gate {
    const gate = this.gate();
    this.space();
    if (this.at < this.text.length) this.fail("the end of the policy");
    return gate;
  }

  private gate(): Gate {
    this.space();
    const name = /^[A-Za-z]+/.exec(this.text.slice(this.at))?.[0] ?? "";
    const kind = GATES.get(name);
    if (kind === undefined) this.fail("AND(, OR( or OutOf(");
    this.at += name.length;
    if (!this.take("(")) this.fail("'(' after " + name);
    let n: number | undefined;
    if (kind === "outof") {
      this.space();
      const digits = /^\d+/.exec(this.text.slice(this.at))?.[0];
      if (digits === undefined) this.fail("the number of rules OutOf needs first");
      this.at += digits.length;
      n = Number(digits);
      if (!this.take(",")) this.fail("',' after OutOf's number");
    }
    const items: (Gate | string)[] = [];
    do {
      this.space();
      const quote = this.text[this.at];
      if (quote === "'" || quote === '"') {
        const end = this.text.indexOf(quote, this.at + 1);
        if (end < 0) this.fail(`a closing ${quote}`);
        const principal = this.text.slice(this.at + 1, end);
        if (!PRINCIPAL.test(principal)) this.fail(`'<MSP id>.<${MSP_ROLES.join("|")}>'`);
        items.push(principal);
        this.at = end + 1;
      } else items.push(this.gate());
    } while (this.take(","));
    if (!this.take(")")) this.fail("',' or ')'");
    const count = kind === "and" ? items.length : kind === "or" ? 1 : (n ?? 0);
    if (count > items.length + 1)
      throw new PolicyTextError({
        text: this.text,
        position: this.at,
        message: `policy '${this.text}': OutOf(${String(count)}, ...) has only ${String(items.length)} rule${items.length === 1 ? "" : "s"}`,
      });
    return { n: count, items };
  }
}

function principalOf(text: string): MspPrincipal {
  const [, mspIdentifier = "", role = "member"] = PRINCIPAL.exec(text) ?? [];
  return {
    principalClassification: ROLE_PRINCIPAL,
    principal: codecs.MspRole.encode({ mspIdentifier, role: MSP_ROLES.indexOf(role as MspRoleName) }),
  };
}

/** Parses a signature policy as policydsl does; throws PolicyTextError naming the position and what was expected. */
export function parseSignaturePolicy(text: string): SignaturePolicyEnvelope {
  const identities: MspPrincipal[] = [];
  const build = (gate: Gate): SignaturePolicy => {
    // policydsl evaluates nested gates (numbering their principals) before the principals of the gate itself.
    const nested = new Map<Gate, SignaturePolicy>();
    for (const item of gate.items) if (typeof item !== "string") nested.set(item, build(item));
    const rules = gate.items.map((item) => {
      if (typeof item !== "string") return nested.get(item) as SignaturePolicy;
      identities.push(principalOf(item));
      return { signedBy: identities.length - 1 };
    });
    return { nOutOf: { n: gate.n, rules } };
  };
  const rule = build(new Parser(text).parse());
  return { version: 0, rule, identities };
}

/** Parses `<ANY|ALL|MAJORITY> <sub-policy>`; throws PolicyTextError otherwise. */
export function parseImplicitMetaPolicy(text: string): ImplicitMetaPolicy {
  const match = /^\s*(ANY|ALL|MAJORITY)\s+([A-Za-z0-9_.-]+)\s*$/.exec(text);
  if (match === null)
    throw new PolicyTextError({
      text,
      position: 0,
      message: `implicit meta policy '${text}': expected '<ANY|ALL|MAJORITY> <sub-policy name>', e.g. 'MAJORITY Admins'`,
    });
  return { rule: IMPLICIT_META_RULES.indexOf(match[1] as ImplicitMetaRule), subPolicy: match[2] ?? "" };
}

const IDENTITY_PRINCIPAL = 2;

/** An identity principal (SmartBFT's BlockValidation names the consenters so): its MSP and certificate's CN. */
function identityText(principal: MspPrincipal): string {
  const identity = codecs.SerializedIdentity.decode(principal.principal);
  let name = "?";
  try {
    name = /(?:^|\n)CN=([^\n]*)/.exec(new crypto.X509Certificate(Buffer.from(identity.idBytes)).subject)?.[1] ?? "?";
  } catch {
    name = "an unparsable certificate";
  }
  return `'${identity.mspid} identity CN=${name}'`;
}

/** A principal as the policy language writes it; principals it has no words for are described in its quotes. */
function principalText(principal: MspPrincipal | undefined): string {
  if (principal === undefined) return "'?'";
  if (principal.principalClassification === IDENTITY_PRINCIPAL) return identityText(principal);
  if (principal.principalClassification !== ROLE_PRINCIPAL)
    return `'<${["role", "organization unit", "identity", "anonymity", "combined"][principal.principalClassification] ?? "principal"}>'`;
  const role = codecs.MspRole.decode(principal.principal);
  return `'${role.mspIdentifier}.${MSP_ROLES[role.role] ?? `role${String(role.role)}`}'`;
}

function ruleText(rule: SignaturePolicy | undefined, identities: readonly MspPrincipal[]): string {
  if (rule?.signedBy !== undefined) return principalText(identities[rule.signedBy]);
  const gate = rule?.nOutOf;
  if (gate === undefined) return "OutOf(0)";
  const inner = gate.rules.map((r) => ruleText(r, identities)).join(", ");
  if (gate.n === 1 && gate.rules.length > 0) return `OR(${inner})`;
  if (gate.n === gate.rules.length) return `AND(${inner})`;
  return `OutOf(${String(gate.n)}, ${inner})`;
}

/** The policy language text of a signature policy envelope (OR / AND where they say the same, else OutOf). */
export function signaturePolicyText(envelope: SignaturePolicyEnvelope): string {
  return ruleText(envelope.rule, envelope.identities);
}

/** A readable policy: its type and text ("OR('Org1MSP.admin')", "MAJORITY Admins"). */
export interface PolicyText {
  readonly type: "Signature" | "ImplicitMeta" | "Unknown";
  readonly rule: string;
}

/** A common.Policy as text (an undecodable or unknown policy is named, not thrown). */
export function policyText(policy: Policy | undefined): PolicyText {
  if (policy === undefined) return { type: "Unknown", rule: "" };
  try {
    if (policy.type === POLICY_TYPE.SIGNATURE)
      return { type: "Signature", rule: signaturePolicyText(codecs.SignaturePolicyEnvelope.decode(policy.value)) };
    if (policy.type === POLICY_TYPE.IMPLICIT_META) {
      const meta = codecs.ImplicitMetaPolicy.decode(policy.value);
      return { type: "ImplicitMeta", rule: `${IMPLICIT_META_RULES[meta.rule] ?? String(meta.rule)} ${meta.subPolicy}` };
    }
  } catch {
    return { type: "Unknown", rule: `undecodable policy of type ${String(policy.type)}` };
  }
  return { type: "Unknown", rule: `policy type ${String(policy.type)}` };
}

/** A common.Policy from text: Signature (policy language) or ImplicitMeta. */
export function policyFromText(text: PolicyText): Policy {
  if (text.type === "ImplicitMeta")
    return {
      type: POLICY_TYPE.IMPLICIT_META,
      value: codecs.ImplicitMetaPolicy.encode(parseImplicitMetaPolicy(text.rule)),
    };
  if (text.type === "Signature")
    return {
      type: POLICY_TYPE.SIGNATURE,
      value: codecs.SignaturePolicyEnvelope.encode(parseSignaturePolicy(text.rule)),
    };
  throw new PolicyTextError({
    text: text.rule,
    position: 0,
    message: `policy '${text.rule}': type must be Signature or ImplicitMeta`,
  });
}
