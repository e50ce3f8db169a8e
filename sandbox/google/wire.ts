/**
 * JSON shapes the sandbox sends, named as in Google's discovery documents and protos (reference google-apis.md).
 * 64-bit integers are strings; fields holding defaults are left out, as the real services do.
 */

/** google.type.Expr */
export interface Expr {
  expression: string;
  title?: string;
  description?: string;
  location?: string;
}

export interface Binding {
  role: string;
  members: string[];
  condition?: Expr;
}

export interface AuditConfig {
  service: string;
  auditLogConfigs: {
    logType: "LOG_TYPE_UNSPECIFIED" | "ADMIN_READ" | "DATA_WRITE" | "DATA_READ";
    exemptedMembers?: string[];
  }[];
}

/** google.iam.v1.Policy */
export interface Policy {
  version?: number;
  bindings?: Binding[];
  auditConfigs?: AuditConfig[];
  etag: string;
}

/** google.iam.v3beta.PolicyBinding */
export interface PolicyBinding {
  name: string;
  uid?: string;
  etag?: string;
  displayName?: string;
  annotations?: Record<string, string>;
  target: { principalSet?: string; resource?: string };
  policyKind?: "POLICY_KIND_UNSPECIFIED" | "PRINCIPAL_ACCESS_BOUNDARY" | "ACCESS";
  policy: string;
  policyUid?: string;
  condition?: Expr;
  createTime?: string;
  updateTime?: string;
}

/** google.rpc.Status */
export interface RpcStatus {
  code: number;
  message: string;
  details?: ({ "@type": string } & Record<string, unknown>)[];
}

/** google.longrunning.Operation */
export interface LongRunningOperation {
  name: string;
  metadata: { "@type": string } & Record<string, unknown>;
  done?: true;
  error?: RpcStatus;
  response?: { "@type": string } & Record<string, unknown>;
}

export interface WarningItem {
  code: string;
  message: string;
  data?: { key: string; value: string }[];
}

export interface ComputeErrorDetail {
  errorInfo?: { reason: string; domain: string; metadatas: Record<string, string> };
  quotaInfo?: {
    metricName: string;
    limitName: string;
    dimensions?: Record<string, string>;
    limit: number;
    futureLimit?: number;
    rolloutStatus?: string;
  };
  help?: { links: { description: string; url: string }[] };
  localizedMessage?: { locale: string; message: string };
}

export interface ComputeErrorItem {
  code: string;
  location?: string;
  message: string;
  errorDetails?: ComputeErrorDetail[];
}

/** compute#operation */
export interface ComputeOperation {
  kind: "compute#operation";
  id: string;
  name: string;
  clientOperationId?: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  status: "PENDING" | "RUNNING" | "DONE";
  user: string;
  progress: number;
  insertTime: string;
  startTime?: string;
  endTime?: string;
  error?: { errors: ComputeErrorItem[] };
  warnings?: WarningItem[];
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
  selfLink: string;
  description?: string;
}

export interface FirewallPolicyRule {
  kind: "compute#firewallPolicyRule";
  description: string;
  priority: number;
  match: { layer4Configs: { ipProtocol: string }[]; srcIpRanges?: string[]; destIpRanges?: string[] };
  action: string;
  direction: "INGRESS" | "EGRESS";
  ruleTupleCount: number;
}

/** compute#firewallPolicy (organization-level). */
export interface FirewallPolicy {
  kind: "compute#firewallPolicy";
  id: string;
  creationTimestamp: string;
  name: string;
  shortName: string;
  description?: string;
  rules: FirewallPolicyRule[];
  fingerprint: string;
  selfLink: string;
  selfLinkWithId: string;
  ruleTupleCount: number;
  parent: string;
}

export interface DeploymentLabelEntry {
  key: string;
  value: string;
}

/** deploymentmanager#deployment (v2beta) */
export interface Deployment {
  id: string;
  name: string;
  description?: string;
  operation: Record<string, unknown>;
  fingerprint: string;
  manifest?: string;
  insertTime: string;
  updateTime?: string;
  selfLink: string;
  labels?: DeploymentLabelEntry[];
}

/** google.apps.events.subscriptions.v1beta.Subscription (v1beta fields only). */
export interface SubscriptionV1Beta {
  name: string;
  uid: string;
  targetResource: string;
  eventTypes: string[];
  payloadOptions?: { includeResource?: boolean; fieldMask?: string };
  notificationEndpoint: { pubsubTopic: string };
  state: "STATE_UNSPECIFIED" | "ACTIVE" | "SUSPENDED" | "DELETED";
  suspensionReason?:
    | "ERROR_TYPE_UNSPECIFIED"
    | "USER_SCOPE_REVOKED"
    | "RESOURCE_DELETED"
    | "USER_AUTHORIZATION_FAILURE"
    | "ENDPOINT_PERMISSION_DENIED"
    | "ENDPOINT_NOT_FOUND"
    | "ENDPOINT_RESOURCE_EXHAUSTED"
    | "OTHER";
  authority: string;
  createTime: string;
  updateTime: string;
  reconciling?: boolean;
  expireTime: string;
  etag: string;
  driveOptions?: { includeDescendants?: boolean };
}

/** displayvideo InventorySourceGroup (v1..v4). */
export interface InventorySourceGroup {
  name: string;
  inventorySourceGroupId: string;
  displayName: string;
}

export interface Dimensions {
  widthPixels: number;
  heightPixels: number;
}

/** displayvideo Creative (v3/v4: 48 fields; the sandbox stores what the seed gives and returns it as is). */
export interface Creative {
  name: string;
  advertiserId: string;
  creativeId: string;
  cmPlacementId?: string;
  displayName: string;
  entityStatus: "ENTITY_STATUS_ACTIVE" | "ENTITY_STATUS_ARCHIVED" | "ENTITY_STATUS_PAUSED";
  updateTime: string;
  createTime: string;
  creativeType: string;
  hostingSource: string;
  dynamic?: boolean;
  dimensions: Dimensions;
  additionalDimensions?: Dimensions[];
  mediaDuration?: string;
  creativeAttributes?: string[];
  reviewStatus: {
    approvalStatus: string;
    creativeAndLandingPageReviewStatus: string;
    contentAndPolicyReviewStatus: string;
    exchangeReviewStatuses?: { exchange: string; status: string }[];
    publisherReviewStatuses?: { publisherName: string; status: string }[];
  };
  assets?: { asset: { content?: string; mediaId?: string }; role: string }[];
  exitEvents?: { type: string; url: string; name?: string; reportingName?: string }[];
  timerEvents?: { name: string; reportingName: string }[];
  counterEvents?: { name: string; reportingName: string }[];
  appendedTag?: string;
  integrationCode?: string;
  notes?: string;
  iasCampaignMonitoring?: boolean;
  companionCreativeIds?: string[];
  skippable?: boolean;
  skipOffset?: { percentage?: string; seconds?: string };
  progressOffset?: { percentage?: string; seconds?: string };
  universalAdId?: { id: string; registry: string };
  vastTagUrl?: string;
  html5Video?: boolean;
  vpaid?: boolean;
  oggAudio?: boolean;
  mp3Audio?: boolean;
  trackerUrls?: string[];
  thirdPartyUrls?: { type: string; url: string }[];
  transcodes?: {
    name: string;
    mimeType: string;
    transcoded: boolean;
    dimensions: Dimensions;
    bitRateKbps: string;
    frameRate: number;
    audioBitRateKbps?: string;
    audioSampleRateHz?: string;
    fileSizeBytes: string;
  }[];
  lineItemIds?: string[];
  jsTrackerUrl?: string;
  cmTrackingAd?: { cmAdId: string; cmCreativeId: string; cmPlacementId: string };
  obaIcon?: {
    resourceUrl: string;
    resourceMimeType: string;
    position: string;
    dimensions: Dimensions;
    program: string;
    landingPageUrl: string;
    clickTrackingUrl: string;
    viewTrackingUrl: string;
  };
  thirdPartyTag?: string;
  requireMraid?: boolean;
  requireHtml5?: boolean;
  requirePingForAttribution?: boolean;
  expandingDirection?: string;
  expandOnHover?: boolean;
  syntheticContentAttestationStatus?: string;
}
