/**
 * The signature-policy language the peer CLI takes (`--signature-policy`, collection `policy`, Fabric's
 * common/policydsl): `AND('Org1MSP.peer','Org2MSP.peer')`, `OR(...)`, `OutOf(n, ...)` (each also all lower or all
 * upper case), principals `'<MSP id>.<role>'` with the role member, admin, client, peer or orderer, in single or double
 * quotes. parseSignaturePolicy builds the same SignaturePolicyEnvelope as policydsl.FromString, byte for byte: every
 * principal is its own identity (no deduplication), numbered as Fabric's evaluation numbers them — a gate's nested
 * gates first, left to right, then its own principals — so AND('A.peer', OR('B.peer','C.peer')) lists B, C, A.
 * printSignaturePolicy is the inverse: AND when every rule is needed, OR when one is, OutOf otherwise.
 *
 * Stricter than policydsl where it would accept a policy that cannot be what was meant: OutOf(n, ...) with n above
 * the number of rules (never satisfiable), a non-integer n, a principal in a role Fabric does not know.
 */
import * as crypto from "node:crypto";
import { codecs } from "../codec";
import type { SignaturePolicy, SignaturePolicyEnvelope } from "../messages";
import { PolicySyntaxError } from "../../errors/ledger/policy-syntax-error";

/** msp.MSPRole.MSPRoleType by the language's role names. */
export const MSP_ROLES = { member: 0, admin: 1, client: 2, peer: 3, orderer: 4 } as const;
export type MspRoleName = keyof typeof MSP_ROLES;
const ROLE_NAMES: readonly MspRoleName[] = ["member", "admin", "client", "peer", "orderer"];

/** msp.MSPPrincipal.Classification ROLE. */
const ROLE_CLASSIFICATION = 0;
const IDENTITY_CLASSIFICATION = 2;
const CLASSIFICATIONS = ["ROLE", "ORGANIZATION_UNIT", "IDENTITY", "ANONYMITY", "COMBINED"];

/** policydsl's principal: `[[:alnum:].-]+` (ASCII), a dot, a role. */
const PRINCIPAL = /^([A-Za-z0-9.-]+)\.(admin|member|client|peer|orderer)$/;
const GATES: Readonly<Record<string, "and" | "or" | "outof">> = {
  And: "and",
  and: "and",
  AND: "and",
  Or: "or",
  or: "or",
  OR: "or",
  OutOf: "outof",
  outof: "outof",
  OUTOF: "outof",
};

/** A parsed policy: principals and gates, before identities are numbered. */
export type PolicyNode =
  { readonly kind: "principal"; readonly mspId: string; readonly role: MspRoleName } | PolicyGate;

/** A gate: `n` of its rules must be satisfied (AND: all, OR: one). A policy's root is always one. */
export interface PolicyGate {
  readonly kind: "gate";
  readonly n: number;
  readonly rules: readonly PolicyNode[];
}

interface Token {
  readonly kind: "name" | "string" | "number" | "(" | ")" | "," | "end";
  readonly text: string;
  /** 0-based offset in the policy text. */
  readonly at: number;
}

function tokenize(text: string, fail: (at: number, expected: string, found: string) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      tokens.push({ kind: c, text: c, at: i });
      i++;
    } else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) fail(i, `a closing ${c} for the principal opened here`, "the end of the policy");
      tokens.push({ kind: "string", text: text.slice(i + 1, end), at: i });
      i = end + 1;
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]+(\.[0-9]*)?/.exec(text.slice(i))?.[0] ?? c;
      tokens.push({ kind: "number", text: match, at: i });
      i += match.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z0-9_]+/.exec(text.slice(i))?.[0] ?? c;
      tokens.push({ kind: "name", text: match, at: i });
      i += match.length;
    } else {
      fail(i, "a gate (AND, OR, OutOf), a quoted principal, a number, '(', ')' or ','", JSON.stringify(c));
    }
  }
  tokens.push({ kind: "end", text: "", at: text.length });
  return tokens;
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case "end":
      return "the end of the policy";
    case "string":
      return `'${token.text}'`;
    default:
      return JSON.stringify(token.text);
  }
}

export interface PolicyTextOptions {
  /** The input named in errors. @default "endorsementPolicy" */
  readonly field?: string;
  /** What is being validated, for the error. @default "ChaincodeDefinition" */
  readonly subject?: string;
}

/** Parses the language into a tree; throws PolicySyntaxError naming the column and what was expected. */
export function parsePolicyTree(text: string, options: PolicyTextOptions = {}): PolicyGate {
  const fail = (at: number, expected: string, found: string): never => {
    throw new PolicySyntaxError({
      subject: options.subject ?? "ChaincodeDefinition",
      field: options.field ?? "endorsementPolicy",
      text,
      position: at + 1,
      expected,
      found,
    });
  };
  const tokens = tokenize(text, fail);
  let next = 0;
  const peek = (): Token => tokens[next] ?? { kind: "end", text: "", at: text.length };
  const take = (kind: Token["kind"], expected: string): Token => {
    const token = peek();
    if (token.kind !== kind) fail(token.at, expected, describeToken(token));
    next++;
    return token;
  };
  const principal = (token: Token): PolicyNode => {
    const match = PRINCIPAL.exec(token.text);
    if (match === null) {
      fail(
        token.at,
        `a principal '<MSP id>.<role>' such as 'Org1MSP.peer': an MSP id of letters, digits, '.' and '-', and a role ` +
          `of ${ROLE_NAMES.join(", ")} (lower case)`,
        `'${token.text}'`,
      );
    }
    return { kind: "principal", mspId: match?.[1] ?? "", role: (match?.[2] ?? "member") as MspRoleName };
  };
  const gate = (): PolicyGate => {
    const name = peek();
    const kind = name.kind === "name" ? GATES[name.text] : undefined;
    if (kind === undefined) {
      const hint = name.kind === "string" ? " (a principal alone is not a policy: write OR('…'))" : "";
      fail(name.at, `a gate AND(...), OR(...) or OutOf(n, ...)${hint}`, describeToken(name));
    }
    next++;
    take("(", `'(' after ${name.text}`);
    let n: number | undefined;
    let nAt = 0;
    if (kind === "outof") {
      const count = take("number", `the number of rules OutOf needs, then ','`);
      if (!/^[0-9]+$/.test(count.text)) fail(count.at, "a whole number of rules", JSON.stringify(count.text));
      n = Number(count.text);
      nAt = count.at;
      take(",", "',' after OutOf's number");
    }
    const rules: PolicyNode[] = [];
    for (;;) {
      const token = peek();
      if (token.kind === "string") {
        next++;
        rules.push(principal(token));
      } else if (token.kind === "name") {
        rules.push(gate());
      } else {
        fail(token.at, "a quoted principal such as 'Org1MSP.peer', or a nested gate", describeToken(token));
      }
      const after = peek();
      if (after.kind === ")") {
        next++;
        break;
      }
      take(
        ",",
        `',' or ')' after ${rules.length === 1 ? "the first rule" : `rule ${String(rules.length)}`} of ${name.text}`,
      );
    }
    if (n !== undefined && n > rules.length) {
      fail(
        nAt,
        `a number from 0 to ${String(rules.length)}: OutOf(${String(n)}, …) of ${String(rules.length)} rules can never be satisfied`,
        String(n),
      );
    }
    return { kind: "gate", n: kind === "and" ? rules.length : kind === "or" ? 1 : (n ?? 0), rules };
  };
  const tree = gate();
  const end = peek();
  if (end.kind !== "end") fail(end.at, "the end of the policy after the closing ')'", describeToken(end));
  return tree;
}

/**
 * The SignaturePolicyEnvelope of a tree, numbered as policydsl numbers it: within each gate, its nested gates are
 * evaluated first (left to right), then its own principals get the next identity numbers.
 */
export function envelopeOfTree(tree: PolicyGate): SignaturePolicyEnvelope {
  const identities: { principalClassification: number; principal: Uint8Array }[] = [];
  const build = (node: PolicyGate): SignaturePolicy => {
    const nested = new Map<number, SignaturePolicy>();
    node.rules.forEach((rule, i) => {
      if (rule.kind === "gate") nested.set(i, build(rule));
    });
    const rules = node.rules.map((rule, i): SignaturePolicy => {
      const built = nested.get(i);
      if (built !== undefined) return built;
      if (rule.kind !== "principal") throw new Error("unreachable: a gate without its built rule");
      const principal = codecs.MspRole.encode({ mspIdentifier: rule.mspId, role: MSP_ROLES[rule.role] });
      identities.push({ principalClassification: ROLE_CLASSIFICATION, principal });
      return { signedBy: identities.length - 1 };
    });
    return { nOutOf: { n: node.n, rules } };
  };
  const rule = build(tree);
  return { version: 0, rule, identities };
}

/** policydsl.FromString: the envelope of a policy text, or PolicySyntaxError. */
export function parseSignaturePolicy(text: string, options: PolicyTextOptions = {}): SignaturePolicyEnvelope {
  return envelopeOfTree(parsePolicyTree(text, options));
}

/** The serialized SignaturePolicyEnvelope of a policy text. */
export function signaturePolicyBytes(text: string, options: PolicyTextOptions = {}): Uint8Array {
  return codecs.SignaturePolicyEnvelope.encode(parseSignaturePolicy(text, options));
}

/** An IDENTITY principal (SmartBFT's BlockValidation names its consenters so) by MSP and certificate CN, if it parses. */
function identityName(bytes: Uint8Array): string | undefined {
  try {
    const identity = codecs.SerializedIdentity.decode(bytes);
    const subject = new crypto.X509Certificate(Buffer.from(identity.idBytes)).subject;
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(subject)?.[1] ?? "?";
    return `'${identity.mspid}', CN=${cn}`;
  } catch {
    return undefined;
  }
}

function principalText(envelope: SignaturePolicyEnvelope, index: number): string {
  const principal = envelope.identities[index];
  if (principal === undefined) return `Principal(missing #${String(index)})`;
  if (principal.principalClassification === ROLE_CLASSIFICATION) {
    const role = codecs.MspRole.decode(principal.principal, { path: "MSPRole" });
    const name = ROLE_NAMES[role.role];
    if (name !== undefined) return `'${role.mspIdentifier}.${name}'`;
    return `Principal(ROLE ${String(role.role)}, '${role.mspIdentifier}')`;
  }
  if (principal.principalClassification === IDENTITY_CLASSIFICATION) {
    const identity = identityName(principal.principal);
    if (identity !== undefined) return `Principal(IDENTITY, ${identity})`;
  }
  const classification =
    CLASSIFICATIONS[principal.principalClassification] ?? String(principal.principalClassification);
  return `Principal(${classification}, ${Buffer.from(principal.principal).toString("base64")})`;
}

function ruleText(envelope: SignaturePolicyEnvelope, rule: SignaturePolicy | undefined): string {
  if (rule?.signedBy !== undefined) return principalText(envelope, rule.signedBy);
  const nOutOf = rule?.nOutOf;
  if (nOutOf === undefined) return "Empty()";
  const rules = nOutOf.rules.map((r) => ruleText(envelope, r)).join(",");
  if (nOutOf.n === 1) return `OR(${rules})`;
  if (nOutOf.n === nOutOf.rules.length) return `AND(${rules})`;
  return `OutOf(${String(nOutOf.n)},${rules})`;
}

/**
 * The policy text of an envelope: AND(...) when every rule is needed, OR(...) when one is, OutOf(n,...) otherwise,
 * principals in single quotes, no spaces. A principal the language cannot name (an organizational unit, an
 * identity) is printed as Principal(<classification>, <base64>) — an identity by its MSP and CN,
 * Principal(IDENTITY, 'OrdererMSP', CN=orderer0.example.com) — which does not parse back.
 */
export function printSignaturePolicy(envelope: SignaturePolicyEnvelope): string {
  return ruleText(envelope, envelope.rule);
}
