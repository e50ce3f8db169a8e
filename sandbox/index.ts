/** The local sandboxes: Google (sandbox/google), Fabric (sandbox/fabric), and startSandbox() for both. */
export * from "./google";
export { startFabricSandbox } from "./fabric";
export type { FabricSandbox, FabricSandboxOptions } from "./fabric";
export { startSandbox } from "./start";
export type { Sandbox, SandboxOptions } from "./start";
