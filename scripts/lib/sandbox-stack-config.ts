/**
 * Stack configuration and tokens that point a program at an in-process Google sandbox: the upgrade recorder
 * (scripts/record-upgrade-fixtures.ts) and the tests (test/helpers/sandbox-config.ts) both write it.
 */
import type { ConfigMap } from "@pulumi/pulumi/automation";
import type { GoogleSandbox } from "../../sandbox/google";

export const DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com";

/** What every Google OAuth scope's URL starts with. */
export const SCOPE_PREFIX = "https://www.googleapis.com/auth/";

/** The custom endpoints of the sandbox as `opsledger:*CustomEndpoint` stack config. */
export function endpointConfig(sandbox: GoogleSandbox): ConfigMap {
  const e = sandbox.endpoints;
  return {
    "opsledger:iamCustomEndpoint": { value: e.iam },
    "opsledger:computeCustomEndpoint": { value: e.compute },
    "opsledger:deploymentManagerCustomEndpoint": { value: e.deploymentManager },
    "opsledger:workspaceEventsCustomEndpoint": { value: e.workspaceEvents },
    "opsledger:displayVideoCustomEndpoint": { value: e.displayVideo },
    "opsledger:kmsCustomEndpoint": { value: e.kms },
    "opsledger:iamCredentialsCustomEndpoint": { value: e.iamCredentials },
    "opsledger:oauth2CustomEndpoint": { value: e.oauth2 },
  };
}

/** Endpoints plus a minted access token (as a secret) for the principal and scopes given. */
export function tokenConfig(sandbox: GoogleSandbox, principal: string, scopes: readonly string[]): ConfigMap {
  return {
    ...endpointConfig(sandbox),
    "opsledger:accessToken": { value: sandbox.mintToken({ principal, scopes }), secret: true },
  };
}

/** A deployer token with the scopes every endpoint of the package needs. */
export function deployerConfig(sandbox: GoogleSandbox): ConfigMap {
  return tokenConfig(sandbox, DEPLOYER, [
    SCOPE_PREFIX + "compute",
    SCOPE_PREFIX + "cloud-platform",
    SCOPE_PREFIX + "display-video",
    SCOPE_PREFIX + "ndev.cloudman.readonly",
    SCOPE_PREFIX + "chat.spaces.readonly",
    SCOPE_PREFIX + "cloudkms",
  ]);
}
