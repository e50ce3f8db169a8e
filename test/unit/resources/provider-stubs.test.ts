import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_ENTRY, providerStub } from "../../../sdk/provider-stubs";
import { dispatch } from "../../../provider/resources";

describe("serialized provider stub", () => {
  it("serializes to at most 2 KB that only requires the package entry", async () => {
    const stub = providerStub();
    const serialized = await pulumi.runtime.serializeFunction(() => stub, { allowSecrets: false });
    assert.ok(serialized.text.length <= 2048, `stub is ${serialized.text.length} bytes`);
    assert.ok(serialized.text.includes(JSON.stringify(PROVIDER_ENTRY)), serialized.text);
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
      assert.ok(serialized.text.includes(`${method}: __f`), `method ${method} in ${serialized.text}`);
    }
    assert.doesNotMatch(serialized.text, /googleapis|axios|Authorization|token|credential/i);
  });

  it("is one object for every resource, so serialization is cached", () => {
    assert.equal(providerStub(), providerStub());
  });
});

describe("provider dispatch", () => {
  const urn = (type: string): string => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/${type}::name`;

  it("routes a call by the type token in the __urn input, or in resourceUrn in older state", async () => {
    for (const key of ["__urn", "resourceUrn"]) {
      const result = (await dispatch("check", [
        {},
        { [key]: urn("operations:OperationWait"), operation: "not a name!" },
      ])) as {
        failures?: { property: string }[];
      };
      assert.deepEqual(
        result.failures?.map((f) => f.property),
        ["operation"],
        key,
      );
    }
  });

  it("hands the host a plain Error with the message, never an error whose fields grpc-js would misread", async () => {
    const error = await dispatch("check", [
      {},
      { __urn: urn("compute:FirewallPolicyMove"), firewallPolicy: "1", parentId: "folders/1" },
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(error, undefined, "check of valid input resolves");
    const failed = await dispatch("read", [
      "id",
      { __urn: urn("operations:OperationWait"), operation: "not an operation!" },
    ]).catch((e: unknown) => e);
    assert.ok(failed instanceof Error);
    assert.equal(Object.getPrototypeOf(failed), Error.prototype);
    assert.deepEqual(Object.keys(failed), []);
    assert.match(failed.message, /operation/);
  });

  it("refuses state from an unknown provider with the upgrade hint", async () => {
    await assert.rejects(
      dispatch("create", [{ __urn: urn("ledger:Future") }]),
      /the installed version has no provider ledger:Future\.create; upgrade the package that wrote this state/,
    );
  });
});
