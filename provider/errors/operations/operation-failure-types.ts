/**
 * What a failed operation carries, as the APIs send it (JSON names, every field optional on the wire): a compute
 * operation's errors and warnings, and a long-running operation's google.rpc.Status. OperationError keeps them and
 * operation-format.ts renders them.
 */

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
