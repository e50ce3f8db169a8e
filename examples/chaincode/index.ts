/** examples/chaincode: a chaincode's lifecycle on a Fabric channel. Settings: see chaincode-resources.ts and README.md. */
import { chaincodeResources } from "./chaincode-resources";

export = async (): Promise<Record<string, unknown>> => Promise.resolve(chaincodeResources());
