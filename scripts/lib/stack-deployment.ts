/** The `deployment` of a stack export as the scripts and tests read it, and its dynamic resources. */

/** The `deployment` of a stack export (apitype.DeploymentV3), as far as callers read it. */
export interface StackDeployment {
  resources?: StateResource[];
  pending_operations?: { resource: StateResource; type: string }[];
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The dynamic resources of a stack export. */
export function dynamicResources(deployment: { resources?: StateResource[] }): StateResource[] {
  return (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
}
