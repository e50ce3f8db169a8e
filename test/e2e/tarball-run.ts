/**
 * Copied into a temp project that installed pulumi-opsledger from its npm tarball, and run there with node: it uses
 * that project's @pulumi/pulumi and pulumi-opsledger (package names only), runs up, refresh and destroy of one
 * FirewallPolicyMove against the sandbox, and prints a JSON summary on its last line.
 * argv[2] = JSON {pulumiBin, backendDir, config: {key: {value, secret?}}}.
 */
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

interface RunArgs {
  pulumiBin: string;
  backendDir: string;
  config: ConfigMap;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? "{}") as RunArgs;
  const program = (): Promise<Record<string, unknown>> => {
    const config = new pulumi.Config();
    const move = new opsledger.compute.FirewallPolicyMove("packaged", {
      firewallPolicy: config.require("policy"),
      parentId: config.require("parentId"),
    });
    return Promise.resolve({ parent: move.parent });
  };
  // PulumiCommand wants the directory above bin/pulumi.
  const pulumiCommand = await PulumiCommand.get({
    root: path.dirname(path.dirname(args.pulumiBin)),
    skipVersionCheck: true,
  });
  const env = {
    PULUMI_BACKEND_URL: `file://${args.backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "opsledger-tarball",
    PULUMI_HOME: path.join(args.backendDir, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  const stack = await LocalWorkspace.createStack(
    { stackName: "packaged", projectName: "tarball", program },
    { workDir: process.cwd(), pulumiHome: env.PULUMI_HOME, envVars: env, pulumiCommand },
  );
  await stack.setAllConfig(args.config);
  const up = await stack.up();
  const refresh = await stack.refresh();
  const exported = await stack.exportStack();
  const resources =
    (exported.deployment as { resources?: { type: string; inputs?: Record<string, unknown> }[] }).resources ?? [];
  const stub = resources.find((r) => r.type.endsWith("FirewallPolicyMove"))?.inputs?.["__provider"];
  const provider = typeof stub === "string" ? stub : "";
  const destroy = await stack.destroy();
  await stack.workspace.removeStack("packaged");
  process.stdout.write(
    "\n" +
      JSON.stringify({
        parent: up.outputs["parent"]?.value as unknown,
        upResult: up.summary.result,
        refreshResult: refresh.summary.result,
        destroyResult: destroy.summary.result,
        providerBytes: provider.length,
        providerRequires: /require\(e\)/.test(provider) && provider.includes('"pulumi-opsledger/provider"'),
        resolvedFrom: require.resolve("pulumi-opsledger"),
      }) +
      "\n",
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
