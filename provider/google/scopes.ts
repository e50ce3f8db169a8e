/**
 * OAuth 2.0 scope URIs of the endpoints this client calls (as each API's discovery document declares them). Every scope
 * is the full URI; the short names are only used in configuration input and are expanded with {@link expandScope}.
 */
export const SCOPE_PREFIX = "https://www.googleapis.com/auth/";

export const SCOPES = {
  cloudPlatform: `${SCOPE_PREFIX}cloud-platform`,
  cloudPlatformReadOnly: `${SCOPE_PREFIX}cloud-platform.read-only`,
  /** Legacy: declared by no current discovery document; accepted, never requested. */
  iam: `${SCOPE_PREFIX}iam`,
  compute: `${SCOPE_PREFIX}compute`,
  computeReadonly: `${SCOPE_PREFIX}compute.readonly`,
  ndevCloudman: `${SCOPE_PREFIX}ndev.cloudman`,
  ndevCloudmanReadonly: `${SCOPE_PREFIX}ndev.cloudman.readonly`,
  displayVideo: `${SCOPE_PREFIX}display-video`,
  /** Cloud KMS: the narrowest scope its discovery document declares (there is no read-only one). */
  cloudkms: `${SCOPE_PREFIX}cloudkms`,
  chatBot: `${SCOPE_PREFIX}chat.bot`,
  chatSpaces: `${SCOPE_PREFIX}chat.spaces`,
  chatSpacesReadonly: `${SCOPE_PREFIX}chat.spaces.readonly`,
  chatMessages: `${SCOPE_PREFIX}chat.messages`,
  chatMessagesReadonly: `${SCOPE_PREFIX}chat.messages.readonly`,
  chatMessagesReactions: `${SCOPE_PREFIX}chat.messages.reactions`,
  chatMessagesReactionsReadonly: `${SCOPE_PREFIX}chat.messages.reactions.readonly`,
  chatMemberships: `${SCOPE_PREFIX}chat.memberships`,
  chatMembershipsReadonly: `${SCOPE_PREFIX}chat.memberships.readonly`,
  meetingsSpaceCreated: `${SCOPE_PREFIX}meetings.space.created`,
  meetingsSpaceReadonly: `${SCOPE_PREFIX}meetings.space.readonly`,
  drive: `${SCOPE_PREFIX}drive`,
  driveFile: `${SCOPE_PREFIX}drive.file`,
  driveMetadata: `${SCOPE_PREFIX}drive.metadata`,
  driveMetadataReadonly: `${SCOPE_PREFIX}drive.metadata.readonly`,
  driveReadonly: `${SCOPE_PREFIX}drive.readonly`,
} as const;

/**
 * The scopes Workspace Events v1beta accepts for subscriptions.get: the union of the scopes the package documents and
 * the discovery document's (the chat.*, meetings.* and drive.* scopes).
 */
export const WORKSPACE_EVENTS_GET_SCOPES: readonly string[] = [
  SCOPES.chatBot,
  SCOPES.chatSpaces,
  SCOPES.chatSpacesReadonly,
  SCOPES.chatMessages,
  SCOPES.chatMessagesReadonly,
  SCOPES.chatMessagesReactions,
  SCOPES.chatMessagesReactionsReadonly,
  SCOPES.chatMemberships,
  SCOPES.chatMembershipsReadonly,
  SCOPES.meetingsSpaceCreated,
  SCOPES.meetingsSpaceReadonly,
  SCOPES.drive,
  SCOPES.driveFile,
  SCOPES.driveMetadata,
  SCOPES.driveMetadataReadonly,
  SCOPES.driveReadonly,
];

/** The read-only scope requested for workspaceevents.subscriptions.get unless `workspaceEventsScopes` says otherwise. */
export const DEFAULT_WORKSPACE_EVENTS_SCOPES: readonly string[] = [SCOPES.chatSpacesReadonly];

/** "chat.spaces.readonly" -> "https://www.googleapis.com/auth/chat.spaces.readonly"; full URIs pass through. */
export function expandScope(scope: string): string {
  const trimmed = scope.trim();
  return /^https?:\/\//.test(trimmed) ? trimmed : `${SCOPE_PREFIX}${trimmed}`;
}
