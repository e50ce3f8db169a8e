/** examples/ledger: one asset transaction on a Fabric channel. Settings: see ledger-resources.ts and README.md. */
import { ledgerResources } from "./ledger-resources";

export = async (): Promise<Record<string, unknown>> => Promise.resolve(ledgerResources());
