/** protos.MetaDataKeys: reserved entries in the key-level metadata map (V2 from Fabric ≥ 2.0). */
export const MetaDataKeys = {
  VALIDATION_PARAMETER: 0,
  VALIDATION_PARAMETER_V2: 1,
} as const;
