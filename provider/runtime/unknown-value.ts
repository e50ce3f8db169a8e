/**
 * The value Pulumi puts in place of a value not known yet (preview), on the plugin's wire and in the dynamic provider's
 * inputs alike (@pulumi/pulumi's runtime `unknownValue`).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
