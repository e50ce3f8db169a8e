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

  it("routes a call by the type token in the resourceUrn input", async () => {
    const result = (await dispatch("check", [{}, { resourceUrn: urn("operations:OperationWait"), operation: "not a name!" }])) as {
      failures?: { property: string }[];
    };
    assert.deepEqual(result.failures?.map((f) => f.property), ["operation"]);
  });

  it("refuses state from an unknown provider with the upgrade hint", async () => {
    await assert.rejects(
      dispatch("create", [{ resourceUrn: urn("ledger:Future") }]),
      /the installed version has no provider ledger:Future\.create; upgrade the package that wrote this state/,
    );
  });
});
