/**
 * Bad input to the sandbox's own control surface (a handle method or a /_sandbox route), for example an unknown
 * firewall policy id in `setParent`. The control plane answers it with 400 INVALID_ARGUMENT.
 */
export class SandboxInputError extends Error {
  /** What was being done, for example "setParent". */
  readonly operation: string;

  constructor(properties: Readonly<{ operation: string; message: string }>) {
    super(`${properties.operation}: ${properties.message}`);
    this.name = "SandboxInputError";
    this.operation = properties.operation;
  }
}
