/**
 * Response shapes of the endpoints in the endpoint table (the APIs' discovery documents). Field names are the JSON
 * names on the wire; 64-bit integers are strings; every field is optional because servers leave out defaults.
 */

/** The empty message (`{}`), e.g. the reply of a DV360 delete. */
export type Empty = Record<string, never>;

// ---- IAM v1 ----

export interface Expr {
  expression?: string;
  title?: string;
  description?: string;
  location?: string;
}

export interface Binding {
  /** e.g. "roles/viewer". */
  role?: string;
  members?: string[];
  condition?: Expr;
}

export interface AuditLogConfig {
  /** "LOG_TYPE_UNSPECIFIED" | "ADMIN_READ" | "DATA_WRITE" | "DATA_READ". */
  logType?: string;
  exemptedMembers?: string[];
}

export interface AuditConfig {
  /** A service name, or "allServices". */
  service?: string;
  auditLogConfigs?: AuditLogConfig[];
}

/** An IAM allow policy. A policy without bindings may come back as just `{ etag }`. */
export interface Policy {
  /** 0, 1 or 3; left out when 0. */
  version?: number;
  bindings?: Binding[];
  auditConfigs?: AuditConfig[];
  /** Base64; send it back on setIamPolicy for read-modify-write concurrency. */
  etag?: string;
}

// ---- Compute v1 ----

export interface FirewallPolicyAssociation {
  attachmentTarget?: string;
  /** Deprecated. */
  displayName?: string;
  firewallPolicyId?: string;
  name?: string;
  priority?: number;
  shortName?: string;
}

export interface FirewallPolicyRule {
  priority?: number;
  action?: string;
  direction?: string;
  description?: string;
  [field: string]: unknown;
}

export interface FirewallPolicy {
  /** Always "compute#firewallPolicy". */
  kind?: string;
  id?: string;
  /** For organization policies: the numeric id assigned by Google. */
  name?: string;
  /** The user-chosen label, unique within the organization. */
  shortName?: string;
  /** Deprecated: use shortName. */
  displayName?: string;
  description?: string;
  /** "organizations/123" or "folders/456"; changed only by move. */
  parent?: string;
  fingerprint?: string;
  selfLink?: string;
  selfLinkWithId?: string;
  creationTimestamp?: string;
  rules?: FirewallPolicyRule[];
  packetMirroringRules?: FirewallPolicyRule[];
  associations?: FirewallPolicyAssociation[];
  ruleTupleCount?: number;
  /** "RDMA_ROCE_POLICY" | "ULL_POLICY" | "VPC_POLICY". */
  policyType?: string;
  region?: string;
}

// ---- Deployment Manager v2beta ----

export interface DeploymentLabelEntry {
  key?: string;
  value?: string;
}

/** The Deployment Manager operation embedded in a Deployment: compute's shape plus a few fields. */
export interface DeploymentOperation {
  kind?: string;
  id?: string;
  name?: string;
  /** "PENDING" | "RUNNING" | "DONE". */
  status?: string;
  statusMessage?: string;
  operationType?: string;
  progress?: number;
  insertTime?: string;
  startTime?: string;
  endTime?: string;
  targetLink?: string;
  targetId?: string;
  selfLink?: string;
  selfLinkWithId?: string;
  user?: string;
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
  error?: { errors?: { code?: string; location?: string; message?: string; [field: string]: unknown }[] };
  warnings?: { code?: string; message?: string; data?: { key?: string; value?: string }[] }[];
  [field: string]: unknown;
}

export interface Deployment {
  id?: string;
  name?: string;
  description?: string;
  fingerprint?: string;
  manifest?: string;
  operation?: DeploymentOperation;
  insertTime?: string;
  updateTime?: string;
  selfLink?: string;
  /** An array of {key, value}, not a map. */
  labels?: DeploymentLabelEntry[];
  target?: { config?: { content?: string }; imports?: { name?: string; content?: string }[] };
  update?: { description?: string; labels?: DeploymentLabelEntry[]; manifest?: string };
}

// ---- Workspace Events v1beta ----

export interface Subscription {
  /** "subscriptions/{subscription}". */
  name?: string;
  uid?: string;
  targetResource?: string;
  eventTypes?: string[];
  payloadOptions?: { includeResource?: boolean; fieldMask?: string };
  notificationEndpoint?: { pubsubTopic?: string };
  /** "STATE_UNSPECIFIED" | "ACTIVE" | "SUSPENDED" | "DELETED". */
  state?: string;
  /** v1beta ErrorType: USER_SCOPE_REVOKED, RESOURCE_DELETED, USER_AUTHORIZATION_FAILURE, ENDPOINT_*, OTHER. */
  suspensionReason?: string;
  /** "users/{user}". */
  authority?: string;
  createTime?: string;
  updateTime?: string;
  reconciling?: boolean;
  expireTime?: string;
  ttl?: string;
  etag?: string;
  driveOptions?: { includeDescendants?: boolean };
}

// ---- Display & Video 360 ----

export interface InventorySourceGroup {
  name?: string;
  inventorySourceGroupId?: string;
  displayName?: string;
}

export interface Dimensions {
  widthPixels?: number;
  heightPixels?: number;
}

export interface ReviewStatusInfo {
  approvalStatus?: string;
  contentAndPolicyReviewStatus?: string;
  creativeAndLandingPageReviewStatus?: string;
  exchangeReviewStatuses?: { exchange?: string; status?: string }[];
  publisherReviewStatuses?: { publisherName?: string; status?: string }[];
}

export interface AudioVideoOffset {
  percentage?: string;
  seconds?: string;
}

export interface Creative {
  name?: string;
  advertiserId?: string;
  creativeId?: string;
  displayName?: string;
  /** Creatives accept only ENTITY_STATUS_ACTIVE, ENTITY_STATUS_ARCHIVED and ENTITY_STATUS_PAUSED. */
  entityStatus?: string;
  creativeType?: string;
  hostingSource?: string;
  dimensions?: Dimensions;
  reviewStatus?: ReviewStatusInfo;
  createTime?: string;
  updateTime?: string;
  additionalDimensions?: Dimensions[];
  appendedTag?: string;
  assets?: { asset?: { content?: string; mediaId?: string }; role?: string }[];
  cmPlacementId?: string;
  cmTrackingAd?: { cmAdId?: string; cmCreativeId?: string; cmPlacementId?: string };
  companionCreativeIds?: string[];
  counterEvents?: { name?: string; reportingName?: string }[];
  creativeAttributes?: string[];
  dynamic?: boolean;
  exitEvents?: { name?: string; reportingName?: string; type?: string; url?: string }[];
  expandOnHover?: boolean;
  expandingDirection?: string;
  html5Video?: boolean;
  iasCampaignMonitoring?: boolean;
  integrationCode?: string;
  jsTrackerUrl?: string;
  lineItemIds?: string[];
  mediaDuration?: string;
  mp3Audio?: boolean;
  notes?: string;
  obaIcon?: {
    clickTrackingUrl?: string;
    dimensions?: Dimensions;
    landingPageUrl?: string;
    position?: string;
    program?: string;
    resourceMimeType?: string;
    resourceUrl?: string;
    viewTrackingUrl?: string;
  };
  oggAudio?: boolean;
  progressOffset?: AudioVideoOffset;
  requireHtml5?: boolean;
  requireMraid?: boolean;
  requirePingForAttribution?: boolean;
  skipOffset?: AudioVideoOffset;
  skippable?: boolean;
  syntheticContentAttestationStatus?: string;
  thirdPartyTag?: string;
  thirdPartyUrls?: { type?: string; url?: string }[];
  timerEvents?: { name?: string; reportingName?: string }[];
  trackerUrls?: string[];
  transcodes?: {
    audioBitRateKbps?: string;
    audioSampleRateHz?: string;
    bitRateKbps?: string;
    dimensions?: Dimensions;
    fileSizeBytes?: string;
    frameRate?: number;
    mimeType?: string;
    name?: string;
    transcoded?: boolean;
  }[];
  universalAdId?: { id?: string; registry?: string };
  vastTagUrl?: string;
  vpaid?: boolean;
}

// ---- Cloud KMS v1 (cloudkms.googleapis.com) ----

/** cryptoKeyVersions.asymmetricSign's answer. Checksums are int64 as decimal strings. */
export interface AsymmetricSignResponse {
  /** The signature, base64. For EC_SIGN_* keys a DER-encoded ECDSA signature (S is not normalized). */
  signature?: string;
  /** CRC32C of the signature bytes. */
  signatureCrc32c?: string;
  /** Whether the request's digestCrc32c was received and checked. */
  verifiedDigestCrc32c?: boolean;
  verifiedDataCrc32c?: boolean;
  /** The key version that signed; must equal the one asked for. */
  name?: string;
  protectionLevel?: string;
}

/** cryptoKeyVersions.getPublicKey's answer. */
export interface KmsPublicKey {
  /** SubjectPublicKeyInfo PEM. */
  pem?: string;
  /** For example "EC_SIGN_P256_SHA256". */
  algorithm?: string;
  /** CRC32C of the PEM text. */
  pemCrc32c?: string;
  name?: string;
  protectionLevel?: string;
}
