/**
 * A real Hyperledger Fabric network for tests and benchmarks: three etcdraft orderers, Org1MSP and Org2MSP with one
 * peer (Gateway service on) and one chaincode server each, channel `opsledger`, chaincode `assets` endorsed by both
 * organizations, all as native processes on 127.0.0.1 from a Fabric release's binaries. See README.md.
 */
export { startFabricNetwork } from "./start";
export { openFabricNetwork, readOrganization } from "./handle";
export { JOINING_ORG, startJoiningOrganization } from "./joining-org";
export { readNetworkFile, stopNetwork, networkFilePath } from "./network-file";
export { connectGateway, endorserMspIds, officialSigning, type GatewayConnection } from "./gateway-probe";
export { networkBanner } from "./banner";
export * from "./types";
