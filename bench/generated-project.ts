/**
 * Pulumi projects the scale benchmarks write into a temp directory, the way a user's project looks: Pulumi.yaml
 * (runtime nodejs), package.json, tsconfig.json and a TypeScript index.ts that Pulumi compiles. Their
 * `node_modules` is a link to this repository's, where `pulumi-opsledger` links back to the checkout
 * (scripts/run.sh), so the program imports the package by its name as an installed copy would.
 *
 * Every program reads its size from the stack config, so one project serves 10, 100 and 1,000 resources.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../scripts/lib/pulumi-cli";

export type BenchProgram = "moves" | "noop" | "reads" | "readsFloor" | "ledger" | "ledgerBatch";

const PROGRAMS: Readonly<Record<BenchProgram, string>> = {
  /** `count` FirewallPolicyMoves of the policies firstPolicy, firstPolicy + 1, ... to `parentId`. */
  moves: `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const firstPolicy = config.requireNumber("firstPolicy");
const parentId = config.require("parentId");

for (let i = 0; i < count; i++) {
  new opsledger.compute.FirewallPolicyMove(\`move-\${i}\`, { firewallPolicy: String(firstPolicy + i), parentId });
}
export const moves = count;
`,
  /**
   * Pulumi's own floor: \`count\` dynamic resources whose provider does nothing (no process start-up of ours, no HTTP),
   * with the same user inputs as a move.
   */
  noop: `import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const firstPolicy = config.requireNumber("firstPolicy");
const parentId = config.require("parentId");

const provider: pulumi.dynamic.ResourceProvider = {
  create: async (inputs) => ({ id: String(inputs.firewallPolicy), outs: inputs }),
  diff: async (_id, olds, news) => ({ changes: olds.parentId !== news.parentId }),
  update: async (_id, _olds, news) => ({ outs: news }),
  read: async (id, props) => ({ id, props }),
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, unknown>) {
    super(provider, name, props, undefined, "bench", "Noop");
  }
}

for (let i = 0; i < count; i++) new Noop(\`noop-\${i}\`, { firewallPolicy: String(firstPolicy + i), parentId });
export const resources = count;
`,
  /**
   * \`count\` data-source reads, the five kinds in turn (bench/scale-reads-calls.ts makes the same calls for the plain
   * script), each result kept in a stack output so the reads really happen in preview.
   */
  reads: `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const IAM_OPERATIONS = "folders/200000000001/locations/global/operations";
const reads: pulumi.Output<string>[] = [];
for (let i = 0; i < count; i++) {
  switch (i % 5) {
    case 0:
      reads.push(opsledger.iam.getWorkforcePoolIamPolicyOutput({ workforcePoolId: "sandbox-contractors" }).etag);
      break;
    case 1:
      reads.push(opsledger.iam.getOperationOutput({ name: \`\${IAM_OPERATIONS}/op-binding-created\` }).name);
      break;
    case 2:
      reads.push(opsledger.deploymentmanager.getDeploymentOutput({ project: "sandbox-project", deployment: "web-stack" }).apply((d) => d.name ?? ""));
      break;
    case 3:
      reads.push(opsledger.workspaceevents.getSubscriptionOutput({ name: "subscriptions/chat-spaces-sandbox" }).apply((s) => s.state ?? ""));
      break;
    default:
      reads.push(opsledger.displayvideo.getCreativeOutput({ advertiserId: "2001", creativeId: "7001" }).apply((c) => c.displayName ?? ""));
  }
}
export const results = pulumi.all(reads).apply((values) => values.length);
`,
  /**
   * \`count\` LedgerTransactions, each a blind PutAsset of its own key (\`prefix-i\`, so none conflicts), signed
   * with the key file the stack config names, against the gateway it names (bench/ledger-scale.ts).
   */
  ledger: `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");
const gateway = {
  address: config.require("gateway"),
  tlsRootCertPem: config.require("tlsRootCertPem"),
  serverNameOverride: config.require("serverNameOverride"),
};
const identity = { mspId: config.require("mspId"), certificatePem: config.require("certificatePem"), keyFile: config.require("keyFile") };
const trustedRootCertificates = JSON.parse(config.require("trustedRootCertificates")) as Record<string, string>;
const codes: pulumi.Output<string>[] = [];
for (let i = 0; i < count; i++) {
  const tx = new opsledger.ledger.LedgerTransaction(\`tx-\${i}\`, {
    gateway,
    channel: config.require("channel"),
    chaincode: config.require("chaincode"),
    function: "PutAsset",
    args: [\`\${prefix}-\${i}\`, "blue"],
    identity,
    trustedRootCertificates,
  });
  codes.push(tx.validationCode);
}
export const valid = pulumi.all(codes).apply((c) => c.filter((code) => code === "VALID").length);
`,
  /**
   * The same \`count\` PutAssets as \`ledger\`, as the items of one LedgerTransactions with \`maxInFlight\` items in
   * flight (bench/ledger-scale.ts).
   */
  ledgerBatch: `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const prefix = config.require("prefix");
const batch = new opsledger.ledger.LedgerTransactions("batch", {
  gateway: {
    address: config.require("gateway"),
    tlsRootCertPem: config.require("tlsRootCertPem"),
    serverNameOverride: config.require("serverNameOverride"),
  },
  channel: config.require("channel"),
  chaincode: config.require("chaincode"),
  identity: { mspId: config.require("mspId"), certificatePem: config.require("certificatePem"), keyFile: config.require("keyFile") },
  trustedRootCertificates: JSON.parse(config.require("trustedRootCertificates")) as Record<string, string>,
  transactions: Array.from({ length: count }, (_, i) => ({ key: \`tx-\${i}\`, function: "PutAsset", args: [\`\${prefix}-\${i}\`, "blue"] })),
  maxInFlight: config.requireNumber("maxInFlight"),
});
export const valid = batch.committed.apply((c) => c.filter((x) => x.validationCode === "VALID").length);
`,
  /** Pulumi's own floor for the reads: as many outputs resolved by a promise, without this package or HTTP. */
  readsFloor: `import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const reads: pulumi.Output<string>[] = [];
for (let i = 0; i < count; i++) {
  reads.push(pulumi.output({ i }).apply(async (a) => { await new Promise((r) => setImmediate(r)); return String(a.i); }));
}
export const results = pulumi.all(reads).apply((values) => values.length);
`,
};

export interface BenchProject {
  readonly dir: string;
  dispose(): void;
}

/** Writes the project of `program` into a new temp directory. */
export function writeBenchProject(program: BenchProgram): BenchProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `opsledger-bench-${program}-`));
  const write = (name: string, text: string): void => {
    fs.writeFileSync(path.join(dir, name), text);
  };
  write("Pulumi.yaml", `name: bench-${program}\nruntime: nodejs\n`);
  write(
    "package.json",
    JSON.stringify(
      {
        name: `bench-${program}`,
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": "^3.259.0", "pulumi-opsledger": "file:.." },
      },
      null,
      2,
    ) + "\n",
  );
  write(
    "tsconfig.json",
    JSON.stringify(
      {
        compilerOptions: { strict: true, target: "es2022", module: "nodenext", skipLibCheck: true },
        include: ["*.ts"],
      },
      null,
      2,
    ) + "\n",
  );
  write("index.ts", PROGRAMS[program]);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return {
    dir,
    dispose: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
