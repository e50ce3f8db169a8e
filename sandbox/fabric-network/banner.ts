/**
 * What `npm run fabric:up` prints: the connection settings of each organization (gateway address, TLS root
 * certificate and server name, client identity, root CA for trustedRootCertificates), the orderers, and where the
 * processes and logs are — in the manner of `npm run sandbox`.
 */
import type { FabricNetwork } from "./types";

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

export function networkBanner(network: FabricNetwork): string {
  const lines = [
    `Fabric ${network.version} network in ${network.dir}`,
    `  channel ${network.channel}, chaincode ${network.chaincode} (endorsement policy ${network.endorsementPolicy})`,
    "",
  ];
  for (const org of network.organizations) {
    lines.push(
      `${org.mspId} gateway ${org.gatewayAddress} (${org.clientAuthRequired ? "mutual TLS" : "TLS"}; server name ${org.tlsServerName}); identities ${org.keyType}`,
      `  TLS root certificate:   ${org.tlsRootCertPath}`,
      ...(org.clientAuthRequired
        ? [
            `  client TLS certificate: ${org.client.tlsCertificatePath}`,
            `                          key ${org.client.tlsPrivateKeyPath}`,
          ]
        : []),
      `  client identity:        certificate ${org.client.certificatePath}`,
      `                          private key ${org.client.privateKeyPath}`,
      `  root CA (trustedRootCertificates.${org.mspId}): ${org.caCertificatePath}`,
      "",
    );
  }
  const faults = Math.floor((network.orderers.length - 1) / 3);
  const consensus =
    network.consensus === "BFT"
      ? `SmartBFT, ${network.orderers.length} orderers tolerating ${faults} fault${faults === 1 ? "" : "s"}`
      : "etcdraft";
  lines.push(`Orderers (${consensus}, TLS; admin = channel participation API with mutual TLS):`);
  for (const o of network.orderers) {
    lines.push(`  ${o.name.padEnd(21)} ${o.address}  admin ${o.adminAddress}  metrics ${o.operationsUrl}/metrics`);
  }
  const org1 = network.organizations[0];
  const [a, b] = network.organizations;
  if (org1 !== undefined && a !== undefined && b !== undefined) {
    const cat = (path: string): string => `"$(cat ${shellQuote(path)})"`;
    lines.push(
      "",
      `# examples/ledger against this network, as ${org1.mspId}'s client:`,
      `pulumi config set ledgerGateway ${org1.gatewayAddress}`,
      `pulumi config set ledgerTlsRootCertPem -- ${cat(org1.tlsRootCertPath)}`,
      `pulumi config set ledgerTlsServerNameOverride ${org1.tlsServerName}`,
      `pulumi config set ledgerMspId ${org1.mspId}`,
      `pulumi config set ledgerCertificatePem -- ${cat(org1.client.certificatePath)}`,
      "pulumi config set ledgerSigner keyFile",
      `pulumi config set ledgerKeyFile ${shellQuote(org1.client.privateKeyPath)}`,
      ...(org1.clientAuthRequired
        ? [
            `pulumi config set ledgerClientCertPem -- ${cat(org1.client.tlsCertificatePath)}`,
            `pulumi config set ledgerClientKeyFile ${shellQuote(org1.client.tlsPrivateKeyPath)}`,
          ]
        : []),
      `pulumi config set ledgerTrustedRootCertificates "$(jq -n --arg a ${cat(a.caCertificatePath)} --arg b ${cat(b.caCertificatePath)} '{${a.mspId}: $a, ${b.mspId}: $b}')"`,
    );
  }
  lines.push(
    "",
    `Processes (pid, ports, command lines): ${network.networkFile}`,
    `Logs: ${network.dir}/logs/`,
    `Stop with: npm run fabric:down -- --dir ${network.dir}`,
  );
  return lines.join("\n") + "\n";
}
