import assert from "node:assert/strict";
import { EndorserError } from "../../../../provider/errors/ledger/endorser-error";
import { GatewayError } from "../../../../provider/errors/ledger/gateway-error";
import { LedgerReadError } from "../../../../provider/errors/ledger/ledger-read-error";
import { LifecycleError } from "../../../../provider/errors/ledger/lifecycle-error";
import { isNotDefined, lifecycleErrorOf } from "../../../../provider/ledger/lifecycle/lifecycle-reads";

/** An Evaluate failure as a real 2.5.16 gateway answers it: the peer's words in the message and one ErrorDetail. */
function evaluateFailure(peerMessage: string, code = 2): GatewayError {
  return new GatewayError({
    code,
    method: "/gateway.Gateway/Evaluate",
    message: `evaluate call to endorser returned error: ${peerMessage}`,
    details: [{ address: "127.0.0.1:7051", mspId: "Org1MSP", message: peerMessage }],
  });
}

const context = { channel: "opsledger", organization: "Org1MSP", what: "QueryApprovedChaincodeDefinition of lc" };

describe("what a lifecycle step's failure becomes (lifecycle-reads.ts lifecycleErrorOf), from real Fabric 2.5.16's words", () => {
  it("names an identity that is not its organization's admin", () => {
    const fabric =
      "Failed to authorize invocation due to failed ACL check: Failed verifying that proposal's creator satisfies local " +
      "MSP principal during channelless check policy with policy [Admins]: [The identity is not an admin under this MSP " +
      "[Org1MSP]: The identity does not contain OU [ADMIN], MSP: [Org1MSP]]";
    const error = lifecycleErrorOf(evaluateFailure(`chaincode response 500, ${fabric}`), context);
    assert.ok(error instanceof LifecycleError);
    assert.deepEqual(
      [error.problem, error.field, error.organization],
      ["NOT_AN_ADMIN", "identity.certificatePem", "Org1MSP"],
    );
    assert.equal(
      error.message,
      `QueryApprovedChaincodeDefinition of lc: the identity is not an admin of Org1MSP (Fabric: chaincode response 500, ${fabric}). ` +
        "Use the certificate and key of Org1MSP's admin; nothing was submitted",
    );
  });

  it("names the peer's organization when another organization's admin asks it", () => {
    const fabric =
      "chaincode response 500, Failed to authorize invocation due to failed ACL check: Failed deserializing proposal " +
      "creator during channelless check policy with policy [Admins]: [expected MSP ID Org2MSP, received Org1MSP]";
    const error = lifecycleErrorOf(evaluateFailure(fabric), context);
    assert.ok(error instanceof LifecycleError);
    assert.deepEqual([error.problem, error.field, error.organization], ["NOT_AN_ADMIN", "identity.mspId", "Org2MSP"]);
    assert.match(
      error.message,
      /the peer of Org2MSP takes this only from Org2MSP's admin, and the identity is Org1MSP's/,
    );
  });

  it("names an identity the channel does not know, from the gateway's and from a peer's Endorser answer", () => {
    const gateway = lifecycleErrorOf(
      evaluateFailure(
        "error validating proposal: access denied: channel [opsledger] creator org unknown, creator is malformed",
        9,
      ),
      context,
    );
    const endorser = lifecycleErrorOf(
      new EndorserError({
        address: "127.0.0.1:7051",
        method: "/protos.Endorser/ProcessProposal",
        chaincodeName: "_lifecycle",
        functionName: "QueryInstalledChaincodes",
        code: 2,
        responseMessage:
          "error validating proposal: access denied: channel [] creator org unknown, creator is malformed",
      }),
      { ...context, channel: "" },
    );
    for (const error of [gateway, endorser]) {
      assert.ok(error instanceof LifecycleError);
      assert.deepEqual([error.problem, error.field], ["UNKNOWN_IDENTITY", "identity.certificatePem"]);
    }
  });

  it("leaves an unknown channel to the ledger reads' error, and anything else as it is", () => {
    const channel = lifecycleErrorOf(
      evaluateFailure(
        "failed to get config for channel [elsewhere]: could not get last config for channel elsewhere",
        14,
      ),
      { ...context, channel: "elsewhere" },
    );
    assert.ok(channel instanceof LedgerReadError);
    assert.equal(channel.problem, "CHANNEL_NOT_FOUND");
    const other = evaluateFailure("chaincode response 500, something else");
    assert.equal(lifecycleErrorOf(other, context), other);
  });

  it("recognizes a definition that is not committed (404, namespace not defined)", () => {
    assert.equal(isNotDefined(evaluateFailure("chaincode response 404, namespace lc is not defined")), true);
    assert.equal(
      isNotDefined(evaluateFailure("chaincode response 500, could not fetch approved chaincode definition")),
      false,
    );
  });
});
