/**
 * pulumi-opsledger: Pulumi dynamic resources and data sources for Google Cloud management operations, and a
 * declarative Hyperledger Fabric ledger transaction.
 */
import * as compute from "./compute";
import * as deploymentmanager from "./deploymentmanager";
import * as displayvideo from "./displayvideo";
import * as iam from "./iam";
import * as ledger from "./ledger";
import * as operations from "./operations";
import * as workspaceevents from "./workspaceevents";

export { compute, deploymentmanager, displayvideo, iam, ledger, operations, workspaceevents };

/** Explicit providers: `new Provider("org-b", { accessToken })`, passed as `{ provider }` to resources and data sources. */
export { Provider } from "./provider";
export type { InvokeOptions, ProviderArgs, ProviderOption, ResourceOptions } from "./provider";

/** The errors a program may catch: `isApiError(e)` (a Google call failed: e.httpStatus, e.reason, e.errorDetails, ...). */
export { ApiError, isApiError } from "../provider/errors";

/** Automation API inline programs: `envVars: inlineProgramEnv()` lets the engine's provider process find this package. */
export { inlineProgramEnv } from "./automation";
export { OpsLedgerError, isOpsLedgerError } from "../provider/errors";
