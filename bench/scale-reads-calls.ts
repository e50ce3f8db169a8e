/**
 * The reads of the reads benchmark, in the order the generated program makes them (bench/generated-project.ts,
 * program "reads"): the five data sources in turn, with ids of the sandbox's fixture, as the endpoint calls the
 * data sources make.
 */
import type { GoogleClient } from "../provider/google";

const IAM_OPERATIONS = "folders/200000000001/locations/global/operations";

/** The i-th read, made with `client`. */
export function readNumber(client: GoogleClient, i: number): Promise<unknown> {
  switch (i % 5) {
    case 0:
      return client.call("iam.workforcePools.getIamPolicy", {
        resource: "locations/global/workforcePools/sandbox-contractors",
        options: { requestedPolicyVersion: 3 },
      });
    case 1:
      return client.call("iam.operations.get", { name: `${IAM_OPERATIONS}/op-binding-created` });
    case 2:
      return client.call("deploymentmanager.deployments.get", { project: "sandbox-project", deployment: "web-stack" });
    case 3:
      return client.call("workspaceevents.subscriptions.get", { name: "subscriptions/chat-spaces-sandbox" });
    default:
      return client.call("displayvideo.advertisers.creatives.get", { advertiserId: "2001", creativeId: "7001" });
  }
}

/** The distinct OAuth scope sets the five reads ask for (cloud-platform for both IAM reads). */
export const READ_SCOPE_SETS = 4;
