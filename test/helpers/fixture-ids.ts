/** Ids of the sandbox's default fixture that the e2e tests use. */
import { fixture } from "../../sandbox/google";

const folders = fixture.FIXTURE_FOLDER_IDS;

export const FIXTURE = {
  firewallPolicyMove: {
    /** engineering-ingress, seeded under the engineering folder. */
    policy: fixture.FIXTURE_FIREWALL_POLICY_IDS.engineeringIngress,
    originalParent: `folders/${folders.engineering}`,
    folderA: `folders/${folders.security}`,
    folderB: `folders/${folders.platform}`,
    folderC: `organizations/${fixture.FIXTURE_ORGANIZATION_ID}`,
  },
} as const;
