/**
 * Wire shapes of the two kinds of operation this package waits on. Field names are exactly the JSON names of the
 * APIs (lowerCamelCase, 64-bit integers as strings). Every field is optional on the wire: servers leave out
 * defaults, and out-of-spec values must be reported, not crashed on. What a failed operation carries (its errors,
 * warnings, google.rpc.Status) is declared with the OperationError that reports it.
 */
import type {
  ComputeOperationErrorItem,
  ComputeOperationWarning,
  RpcStatus,
} from "../errors/operations/operation-failure-types";

/** compute#operation (the reply of firewallPolicies.move and globalOrganizationOperations.get). */
export interface ComputeOperation {
  kind?: string;
  id?: string;
  creationTimestamp?: string;
  name?: string;
  zone?: string;
  region?: string;
  clientOperationId?: string;
  operationType?: string;
  targetLink?: string;
  targetId?: string;
  /** "PENDING" | "RUNNING" | "DONE"; other values are reported as out of spec. */
  status?: string;
  statusMessage?: string;
  user?: string;
  /** 0..100, monotonically increasing. */
  progress?: number;
  insertTime?: string;
  startTime?: string;
  endTime?: string;
  error?: { errors?: ComputeOperationErrorItem[] };
  warnings?: ComputeOperationWarning[];
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
  selfLink?: string;
  description?: string;
  operationGroupId?: string;
  setCommonInstanceMetadataOperationMetadata?: Record<string, unknown>;
  instancesBulkInsertOperationMetadata?: Record<string, unknown>;
}

/** google.longrunning.Operation as JSON (IAM v3beta operations, endpoint 2). */
export interface LongRunningOperation {
  name?: string;
  metadata?: { "@type"?: string } & Record<string, unknown>;
  done?: boolean;
  error?: RpcStatus;
  response?: { "@type"?: string } & Record<string, unknown>;
}
