/**
 * examples/policy-pack with `pulumi preview --policy-pack` on examples/firewall-policy-move and on its YAML twin
 * through the plugin (test/helpers/faces.ts): one pack guards both faces. A compliant program passes with no
 * violation; an advisory violation (a move without restoreOnDelete in a stack named prod) is printed and the preview
 * succeeds; a mandatory one (a move of a policy that is not allow-listed to an organization's root) fails the preview,
 * naming the policy.
 */
import { strict as assert } from "node:assert";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { fixture } from "../../sandbox/google";
import { FIREWALL_POLICY_MOVE_TYPE } from "../../sdk/compute/firewall-policy-move";
import { GOOGLE_FACES, projectOf, typeOf } from "../helpers/faces";
import { exampleDir, initProjectStack, stripAnsi } from "../helpers/project-stack";
import type { CommandResult, ConfigValues } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";

const PACK = exampleDir("policy-pack");
const FOLDER = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const ORGANIZATION = `organizations/${fixture.FIXTURE_ORGANIZATION_ID}`;

for (const face of GOOGLE_FACES) {
  describe(`examples/policy-pack on the move through the ${face.name} (pulumi preview --policy-pack)`, function () {
    this.timeout(300_000);
    let sandbox: GoogleSandbox;
    before(async () => {
      sandbox = await startGoogleSandbox();
    });
    after(async () => {
      await sandbox.close();
    });

    async function previewWithPack(stackName: string, config: ConfigValues): Promise<CommandResult> {
      const stack = await initProjectStack({
        projectDir: projectOf(face, "move"),
        stackName,
        config: { ...deployerConfig(sandbox), ...config },
      });
      try {
        return await stack.run(["preview", "--policy-pack", PACK], { allowFailure: true });
      } finally {
        await stack.dispose();
      }
    }

    it("passes a compliant program: no violation", async () => {
      const r = await previewWithPack("prod", { parentId: { value: FOLDER }, restoreOnDelete: { value: "true" } });
      const out = stripAnsi(r.output);
      assert.equal(r.code, 0, out);
      assert.match(out, /Policies:\s+✅ opsledger@v/);
      assert.doesNotMatch(out, /\[(mandatory|advisory)\]/);
    });

    it("warns of an advisory violation and succeeds", async () => {
      const r = await previewWithPack("prod", { parentId: { value: FOLDER }, restoreOnDelete: { value: "false" } });
      const out = stripAnsi(r.output);
      assert.equal(r.code, 0, out);
      assert.match(out, /\[advisory\]\s+restore-on-delete-in-prod/);
      assert.match(out, /set restoreOnDelete: true on edge-policy in prod/);
      assert.doesNotMatch(out, /\[mandatory\]/);
    });

    it("blocks a mandatory violation, naming the policy and the fix", async () => {
      const r = await previewWithPack("dev", { parentId: { value: ORGANIZATION } });
      const out = stripAnsi(r.output);
      assert.notEqual(r.code, 0, out);
      assert.match(out, /\[mandatory\]\s+org-root-moves-allow-listed/);
      assert.match(out, new RegExp(`firewall policy 700000000002 may not move to ${ORGANIZATION}`));
      assert.match(out, new RegExp(typeOf(face, FIREWALL_POLICY_MOVE_TYPE).replace(/[/.]/g, "\\$&")));
    });
  });
}
