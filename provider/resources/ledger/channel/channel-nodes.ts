/**
 * The nodes a channel resource talks to — an orderer (Broadcast, Deliver, its participation API) or a peer (cscc,
 * Deliver) — from their inputs (ChannelNode): the plain checks of the address, the TLS root and the mutual TLS
 * settings (client-tls.ts's, under the input's own name), the client TLS key read through its reference, and the
 * clients, each closed by its caller.
 */
import * as crypto from "node:crypto";
import type { FieldFailure } from "../../../errors";
import { certificateOf } from "../../../ledger";
import type { GatewayTlsOptions } from "../../../ledger";
import type { ChannelParticipationOptions } from "../../../ledger/channel/channel-participation";
import type { DeliverTarget } from "../../../ledger/channel/deliver-client";
import { connectOrderer } from "../../../ledger/channel/orderer-client";
import type { OrdererClient } from "../../../ledger/channel/orderer-client";
import { hasUnknown, isRecord } from "../ledger-values";
import { checkedClientTlsKey, clientTlsFailures } from "../session/client-tls";
import type { ClientTlsField } from "../session/client-tls";
import type { ChannelNode } from "./channel-shapes";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const ADDRESS = /^(\[[^\]]+\]|[^:\s[\]]+):(\d{1,5})$/;

/** What a node input is, for messages: its input's name and the node's kind. */
export interface NodeField extends ClientTlsField {
  /** An example address for the message of a bad one. */
  readonly example: string;
  /** Whether the node always needs a client certificate (an orderer's admin endpoint). @default false */
  readonly clientCertificate?: boolean;
}

export const ORDERER_FIELD: NodeField = { field: "orderer", node: "orderer", example: "'127.0.0.1:7050'" };
export const PEER_FIELD: NodeField = { field: "peer", node: "peer", example: "'127.0.0.1:7051'" };

/** The field of the i-th orderer admin endpoint of a Channel. */
export function ordererAdminField(i: number): NodeField {
  return {
    field: `orderers[${String(i)}]`,
    node: "orderer's admin endpoint",
    example: "'127.0.0.1:7053' (the orderer's Admin.ListenAddress)",
    clientCertificate: true,
  };
}

/** Failures of a node input: its address, its TLS root, and its mutual TLS settings. Never throws. */
export function nodeFailures(node: unknown, f: NodeField): FieldFailure[] {
  const n = f.field;
  if (!isRecord(node))
    return [{ property: n, reason: `is required: { address: 'host:port', tlsRootCertPem?: PEM, ... }` }];
  const failures: FieldFailure[] = [];
  const address = node["address"];
  const match = typeof address === "string" ? ADDRESS.exec(address) : null;
  if (!hasUnknown(address) && match === null)
    failures.push({ property: `${n}.address`, reason: `must be 'host:port' of the ${f.node}, e.g. ${f.example}` });
  const tls = node["tlsRootCertPem"];
  if (tls === undefined || tls === null) {
    if (f.clientCertificate === true || (match?.[1] !== undefined && !LOOPBACK.test(match[1])))
      failures.push({
        property: `${n}.tlsRootCertPem`,
        reason: `is required for '${String(address)}': the PEM of the CA that signed the ${f.node}'s TLS certificate`,
      });
  } else if (!hasUnknown(tls) && certificateOf(tls) === undefined)
    failures.push({
      property: `${n}.tlsRootCertPem`,
      reason: "is not a PEM X.509 certificate; pass the CA certificate's PEM text",
    });
  if (f.clientCertificate === true && (node["clientCertPem"] === undefined || node["clientCertPem"] === null))
    failures.push({
      property: `${n}.clientCertPem`,
      reason: `is required: the ${f.node} takes only mutual TLS; give a client TLS certificate its Admin.TLS.ClientRootCAs trust, and its key`,
    });
  return [...failures, ...clientTlsFailures(node, f)];
}

/** The client TLS key of a node, read through its reference (undefined without mutual TLS), or the failure. */
export function nodeClientKey(
  node: ChannelNode,
  f: NodeField,
): { readonly key: string | undefined } | { readonly failures: FieldFailure[] } {
  return checkedClientTlsKey(node, f);
}

/** The grpc-js TLS settings of a node (undefined: insecure, loopback only). */
export function nodeTls(node: ChannelNode, clientKey: string | undefined): GatewayTlsOptions | undefined {
  if (node.tlsRootCertPem === undefined) return undefined;
  return {
    rootCertificates: node.tlsRootCertPem,
    ...(node.clientCertPem === undefined || clientKey === undefined
      ? {}
      : { clientCertificate: node.clientCertPem, clientPrivateKey: clientKey }),
    ...(node.serverNameOverride === undefined ? {} : { serverNameOverride: node.serverNameOverride }),
  };
}

/**
 * SHA-256 of the client TLS certificate's DER: what a Deliver request's channel header binds (an orderer or peer with
 * mutual TLS checks it against the certificate the connection presented).
 */
export function tlsCertHash(node: ChannelNode): Uint8Array | undefined {
  const certificate = node.clientCertPem === undefined ? undefined : certificateOf(node.clientCertPem);
  return certificate === undefined
    ? undefined
    : new Uint8Array(crypto.createHash("sha256").update(certificate.raw).digest());
}

/** An orderer opened for a step: its Broadcast client and its Deliver target. */
export interface OpenedOrderer {
  readonly client: OrdererClient;
  readonly deliver: DeliverTarget;
  close(): void;
}

/** Connects to an orderer (nothing is sent until a call); `deadlineMs` bounds each Broadcast. */
export function openOrderer(node: ChannelNode, clientKey: string | undefined, deadlineMs: number): OpenedOrderer {
  const tls = nodeTls(node, clientKey);
  const client = connectOrderer({
    address: node.address,
    ...(tls === undefined ? {} : { tls }),
    broadcastOptions: () => ({ deadline: Date.now() + deadlineMs }),
  });
  return {
    client,
    deliver: { client: client.client, address: node.address, kind: "orderer" },
    close: () => {
      client.close();
    },
  };
}

/** The participation API's options for an orderer's admin endpoint (mutual TLS). */
export function participationOf(node: ChannelNode, clientKey: string | undefined): ChannelParticipationOptions {
  return {
    adminAddress: node.address,
    tls: {
      rootCertificates: node.tlsRootCertPem ?? "",
      clientCertificate: node.clientCertPem ?? "",
      clientPrivateKey: clientKey ?? "",
      ...(node.serverNameOverride === undefined ? {} : { serverNameOverride: node.serverNameOverride }),
    },
  };
}

/** A node as the state keeps it: without a client TLS key given as a value (that goes under `credentials`). */
export function nodeOutputs(node: ChannelNode): Omit<ChannelNode, "clientKeyPem"> {
  const { clientKeyPem: _key, ...rest } = node;
  return rest;
}
