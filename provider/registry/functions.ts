/**
 * The registry's functions (data sources): one descriptor each, read by the plugin's Invoke (provider/plugin/kinds.ts),
 * the schema's generator (scripts/gen-schema.ts) and the SDK under Pulumi's mocks (sdk/under-mocks.ts). The SDK's
 * functions call the same implementations from the program process. Tokens are frozen once released.
 */
import type { Caller, FunctionDescriptor } from "./descriptors";

type Read = (call: Caller, args: Record<string, unknown>) => Promise<unknown>;

/**
 * A function `opsledger:<module>:<name>` declared by the SDK in `sdk/<module>/<file>.ts` as `<name>(args:
 * <Name>Args): Promise<<Name>Result>`.
 */
function fn(module: string, name: string, file: string, load: () => Read): FunctionDescriptor {
  const base = name.charAt(0).toUpperCase() + name.slice(1);
  let loaded: Read | undefined;
  return {
    token: `opsledger:${module}:${name}`,
    module,
    name,
    sdk: { file: `sdk/${module}/${file}.ts`, fn: name, args: `${base}Args`, result: `${base}Result` },
    load: () => (loaded ??= load()),
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use: the ledger's reads load gRPC and the protos */
const google = (): typeof import("../functions/google-reads") =>
  require("../functions/google-reads") as typeof import("../functions/google-reads");
const ledger = (): typeof import("../resources/ledger/ledger-reads") =>
  require("../resources/ledger/ledger-reads") as typeof import("../resources/ledger/ledger-reads");
const chaincode = (): typeof import("../resources/ledger/chaincode/chaincode-reads") =>
  require("../resources/ledger/chaincode/chaincode-reads") as typeof import("../resources/ledger/chaincode/chaincode-reads");
const channelRead = (): typeof import("../resources/ledger/channel/channel-config-read") =>
  require("../resources/ledger/channel/channel-config-read") as typeof import("../resources/ledger/channel/channel-config-read");
/* eslint-enable @typescript-eslint/no-require-imports */

type Args<F extends (...a: never[]) => unknown, I extends number> = Parameters<F>[I];

export const FUNCTIONS = {
  getWorkforcePoolIamPolicy: fn("iam", "getWorkforcePoolIamPolicy", "get-workforce-pool-iam-policy", () => {
    const { readWorkforcePoolIamPolicy: read } = google();
    return (call, a) => read(call, a as unknown as Args<typeof read, 1>);
  }),
  getOperation: fn("iam", "getOperation", "get-operation", () => {
    const { readIamOperation: read } = google();
    return (call, a) => read(call, a as unknown as Args<typeof read, 1>);
  }),
  getDeployment: fn("deploymentmanager", "getDeployment", "get-deployment", () => {
    const { readDeployment: read } = google();
    return (call, a) => read(call, a as unknown as Args<typeof read, 1>);
  }),
  getSubscription: fn("workspaceevents", "getSubscription", "get-subscription", () => {
    const { readSubscription: read } = google();
    return (call, a) => read(call, a as unknown as Args<typeof read, 1>);
  }),
  getCreative: fn("displayvideo", "getCreative", "get-creative", () => {
    const { readCreative: read } = google();
    return (call, a) => read(call, a as unknown as Args<typeof read, 1>);
  }),
  // The ledger's reads talk to a Fabric gateway, not to Google: the caller is unused (a KMS signer uses the
  // provider's client through the runtime's context, as the LedgerTransaction does).
  getTransaction: fn("ledger", "getTransaction", "get-transaction", () => {
    const { readLedgerTransaction: read } = ledger();
    return (_call, a) => read(a as unknown as Args<typeof read, 0>);
  }),
  evaluate: fn("ledger", "evaluate", "evaluate", () => {
    const { evaluateLedger: read } = ledger();
    return (_call, a) => read(a as unknown as Args<typeof read, 0>);
  }),
  getChainInfo: fn("ledger", "getChainInfo", "get-chain-info", () => {
    const { readLedgerChainInfo: read } = ledger();
    return (_call, a) => read(a as unknown as Args<typeof read, 0>);
  }),
  getChaincodeDefinition: fn("ledger", "getChaincodeDefinition", "get-chaincode-definition", () => {
    const { readChaincodeDefinition: read } = chaincode();
    return (_call, a) => read(a as unknown as Args<typeof read, 0>);
  }),
  getChannelConfig: fn("ledger", "getChannelConfig", "get-channel-config", () => {
    const { readChannelConfig: read } = channelRead();
    return (_call, a) => read(a as unknown as Args<typeof read, 0>);
  }),
} as const satisfies Readonly<Record<string, FunctionDescriptor>>;

/** Every function, in the registry's order. */
export const FUNCTION_LIST: readonly FunctionDescriptor[] = Object.values(FUNCTIONS);

/** The function of a token; undefined when the package has none. */
export function functionOfToken(token: string): FunctionDescriptor | undefined {
  return FUNCTION_LIST.find((d) => d.token === token);
}
