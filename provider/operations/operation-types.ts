/**
 * Wire shapes of the two kinds of operation this package waits on. Field names are exactly the JSON names of the
 * APIs (lowerCamelCase, 64-bit integers as strings). Every field is optional on the wire: servers leave out
 * defaults, and out-of-spec values must be reported, not crashed on.
 */

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

export interface ComputeOperationErrorItem {
  code?: string;
  location?: string;
  message?: string;
  errorDetails?: ComputeErrorDetail[];
}

export interface ComputeErrorDetail {
  errorInfo?: { reason?: string; domain?: string; metadatas?: Record<string, string> };
  quotaInfo?: {
    metricName?: string;
    limitName?: string;
    dimensions?: Record<string, string>;
    limit?: number;
    futureLimit?: number;
    rolloutStatus?: string;
  };
  help?: { links?: { description?: string; url?: string }[] };
  localizedMessage?: { locale?: string; message?: string };
}

export interface ComputeOperationWarning {
  code?: string;
  message?: string;
  data?: { key?: string; value?: string }[];
}

/** google.rpc.Status as JSON. */
export interface RpcStatus {
  code?: number;
  message?: string;
  details?: ({ "@type"?: string } & Record<string, unknown>)[];
}

/** google.longrunning.Operation as JSON (IAM v3beta operations, endpoint 2). */
export interface LongRunningOperation {
  name?: string;
  metadata?: { "@type"?: string } & Record<string, unknown>;
  done?: boolean;
  error?: RpcStatus;
  response?: { "@type"?: string } & Record<string, unknown>;
}
