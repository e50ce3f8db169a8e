import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_ENTRY, providerStub } from "../../../sdk/provider-stubs";

describe("serialized provider stubs", () => {
  it("serialize to a short module that only requires the package entry", async () => {
    const stub = providerStub("firewallPolicyMove");
    const serialized = await pulumi.runtime.serializeFunction(() => stub, { allowSecrets: false });
    assert.ok(serialized.text.length <= 2048, `stub is ${serialized.text.length} bytes`);
    assert.ok(serialized.text.includes(JSON.stringify(PROVIDER_ENTRY)), serialized.text);
    assert.ok(serialized.text.includes('"firewallPolicyMove"'));
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
      assert.ok(serialized.text.includes(`${method}: __f`), `method ${method} in ${serialized.text}`);
    }
    assert.doesNotMatch(serialized.text, /googleapis|axios|Authorization|token/i);
  });

  it("reuses one stub object per kind, so serialization is cached across resources", () => {
    assert.equal(providerStub("operationWait"), providerStub("operationWait"));
    assert.notEqual(providerStub("operationWait"), providerStub("firewallPolicyMove"));
  });
});
