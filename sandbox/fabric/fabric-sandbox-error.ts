/**
 * Bad input to the Fabric sandbox's own surface (its options or a handle method), for example an unknown MSP id
 * in `newClientIdentity`. Never carries key material.
 */
export class FabricSandboxError extends Error {
  /** What was being done, for example "newClientIdentity". */
  readonly operation: string;

  constructor(properties: Readonly<{ operation: string; message: string }>) {
    super(`${properties.operation}: ${properties.message}`);
    this.name = "FabricSandboxError";
    this.operation = properties.operation;
  }
}
