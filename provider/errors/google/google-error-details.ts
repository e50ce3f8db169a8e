/**
 * What a Google error response carries besides its status and message, as an ApiError keeps it: the typed details of
 * the google.rpc.Status (AIP-193) and the legacy `errors[]` list. provider/google/parse-error.ts reads them from the
 * body.
 */

export interface ErrorInfoDetail {
  reason?: string;
  domain?: string;
  metadata: Readonly<Record<string, string>>;
}

export interface RetryInfoDetail {
  /** The Duration string as sent, e.g. "3s". */
  retryDelay?: string;
  /** retryDelay in milliseconds, when it parses. */
  retryDelayMs?: number;
}

export interface QuotaViolation {
  subject?: string;
  description?: string;
  apiService?: string;
  quotaMetric?: string;
  quotaId?: string;
  quotaDimensions?: Readonly<Record<string, string>>;
  quotaValue?: string;
  futureQuotaValue?: string;
}

export interface HelpLink {
  description?: string;
  url?: string;
}

export interface FieldViolation {
  field?: string;
  description?: string;
  reason?: string;
  localizedMessage?: { locale?: string; message?: string };
}

/** The typed details of a google.rpc.Status, one member per detail type (AIP-193: each type at most once). */
export interface GoogleErrorDetails {
  errorInfo?: ErrorInfoDetail;
  retryInfo?: RetryInfoDetail;
  quotaFailure?: { violations: readonly QuotaViolation[] };
  help?: { links: readonly HelpLink[] };
  localizedMessage?: { locale?: string; message?: string };
  badRequest?: { fieldViolations: readonly FieldViolation[] };
  preconditionFailure?: { violations: readonly { type?: string; subject?: string; description?: string }[] };
  resourceInfo?: { resourceType?: string; resourceName?: string; owner?: string; description?: string };
  requestInfo?: { requestId?: string; servingData?: string };
  /** Details of types this parser does not know, as sent. */
  other: readonly Readonly<Record<string, unknown>>[];
}

/** One entry of the legacy `error.errors[]` list. */
export interface LegacyErrorItem {
  message?: string;
  domain?: string;
  reason?: string;
  location?: string;
  locationType?: string;
}
