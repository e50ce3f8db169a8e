import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TX_VALIDATION_CODE_PATH, txValidationCodeText } from "../../../scripts/gen-tx-validation-code";
import {
  describeValidationCode,
  TxValidationCode,
  validationCodeMeaning,
  validationCodeName,
  validationCodeNumber,
} from "../../../provider/errors/ledger/validation-codes";

describe("validation codes", () => {
  it("are the .proto's enum, as scripts/gen-tx-validation-code.ts writes it (the table cannot drift)", () => {
    // On a difference: node dist/scripts/gen-tx-validation-code.js, and commit the file.
    assert.equal(readFileSync(TX_VALIDATION_CODE_PATH, "utf8"), txValidationCodeText());
  });

  it("names every code of the spec table and INVALID_CHAINCODE by number", () => {
    assert.equal(validationCodeName(0), "VALID");
    assert.equal(validationCodeName(11), "MVCC_READ_CONFLICT");
    assert.equal(validationCodeName(25), "INVALID_CHAINCODE");
    assert.equal(validationCodeName(254), "NOT_VALIDATED");
    assert.equal(validationCodeName(255), "INVALID_OTHER_REASON");
    assert.equal(Object.keys(TxValidationCode).length, 28);
  });

  it("renders numbers outside the table as UNKNOWN(n)", () => {
    assert.equal(validationCodeName(26), "UNKNOWN(26)");
    assert.equal(validationCodeName(-1), "UNKNOWN(-1)");
    assert.equal(describeValidationCode(300), "UNKNOWN(300) (300)");
    assert.equal(validationCodeMeaning(99), "validation code 99 is not in the known TxValidationCode table");
  });

  it("explains codes and maps names back to numbers", () => {
    assert.equal(validationCodeMeaning(8), "the transaction id is not hex(SHA-256(nonce ‖ creator))");
    assert.equal(describeValidationCode(10), "ENDORSEMENT_POLICY_FAILURE (10)");
    assert.equal(validationCodeNumber("INVALID_CHAINCODE"), 25);
    assert.equal(validationCodeNumber("PHANTOM_READ_CONFLICT"), 12);
    assert.equal(validationCodeNumber("toString"), undefined);
    assert.equal(validationCodeNumber("valid"), undefined);
  });
});
