/**
 * OAuth scopes each route accepts (the discovery documents' scopes).
 * A token needs any one of them.
 */
export const SCOPE_PREFIX = "https://www.googleapis.com/auth/";

function scopes(...names: string[]): readonly string[] {
  return Object.freeze(names.map((name) => SCOPE_PREFIX + name));
}

export const IAM_SCOPES = scopes("cloud-platform", "iam");
export const COMPUTE_WRITE_SCOPES = scopes("compute", "cloud-platform");
export const COMPUTE_READ_SCOPES = scopes("compute", "compute.readonly", "cloud-platform");
export const DEPLOYMENT_MANAGER_READ_SCOPES = scopes(
  "cloud-platform",
  "cloud-platform.read-only",
  "ndev.cloudman",
  "ndev.cloudman.readonly",
);
export const WORKSPACE_EVENTS_GET_SCOPES = scopes(
  "chat.bot",
  "chat.memberships",
  "chat.memberships.readonly",
  "chat.messages",
  "chat.messages.reactions",
  "chat.messages.reactions.readonly",
  "chat.messages.readonly",
  "chat.spaces",
  "chat.spaces.readonly",
  "drive",
  "drive.file",
  "drive.metadata",
  "drive.metadata.readonly",
  "drive.readonly",
  "meetings.space.created",
  "meetings.space.readonly",
);
export const DISPLAY_VIDEO_SCOPES = scopes("display-video");
/** Cloud KMS key version methods: cloudkms or cloud-platform (the discovery document's scopes). */
export const KMS_SCOPES = scopes("cloudkms", "cloud-platform");
/** generateAccessToken: the caller's token needs iam or cloud-platform (google-auth-library's comment). */
export const IAM_CREDENTIALS_SCOPES = scopes("iam", "cloud-platform");

/** "compute" -> "https://www.googleapis.com/auth/compute"; full URIs (anything with a colon) stay as they are. */
export function normalizeScope(scope: string): string {
  return scope.includes(":") ? scope : SCOPE_PREFIX + scope;
}
