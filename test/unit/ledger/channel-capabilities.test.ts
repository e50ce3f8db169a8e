/**
 * The channel's capabilities read from the channel, the decoding: a configuration block built with the official
 * @hyperledger/fabric-protos (Go's wire layout through google-protobuf, maps of messages included) decodes with our
 * .proto files and codec into the channel's capabilities per group; the last configuration block's number is found
 * where Fabric's protoutil.GetLastConfigIndexFromBlock finds it (SIGNATURES' OrdererBlockMetadata, else the deprecated
 * LAST_CONFIG entry); a block that is no configuration block, or records no index, is an error naming it.
 */
import { strict as assert } from "node:assert";
import { common } from "@hyperledger/fabric-protos";
import { lastConfigIndexOf } from "../../../provider/ledger/channel/config-block";
import { capabilitiesOfConfigBlock, describeChannelCapabilities } from "../../../provider/ledger/channel-capabilities";
import { codecs } from "../../../provider/ledger/codec";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";

function capabilitiesValue(names: readonly string[]): common.ConfigValue {
  const caps = new common.Capabilities();
  for (const n of names) caps.getCapabilitiesMap().set(n, new common.Capability());
  const value = new common.ConfigValue();
  value.setValue(caps.serializeBinary());
  value.setModPolicy("Admins");
  return value;
}

function group(
  values: Record<string, common.ConfigValue>,
  groups: Record<string, common.ConfigGroup> = {},
): common.ConfigGroup {
  const g = new common.ConfigGroup();
  for (const [k, v] of Object.entries(values)) g.getValuesMap().set(k, v);
  for (const [k, v] of Object.entries(groups)) g.getGroupsMap().set(k, v);
  const policy = new common.ConfigPolicy();
  policy.setModPolicy("Admins");
  g.getPoliciesMap().set("Admins", policy);
  g.setModPolicy("Admins");
  return g;
}

/** A configuration block as configtxgen writes one: a CONFIG envelope, and metadata naming itself the last config. */
function configBlock(number: number, channel: readonly string[], type: number = common.HeaderType.CONFIG): Uint8Array {
  const root = group(
    { Capabilities: capabilitiesValue(channel), HashingAlgorithm: new common.ConfigValue() },
    {
      Application: group({ Capabilities: capabilitiesValue(["V2_5"]) }, { Org1MSP: group({}), Org2MSP: group({}) }),
      Orderer: group({ Capabilities: capabilitiesValue(["V2_0"]) }),
    },
  );
  const config = new common.Config();
  config.setSequence(3);
  config.setChannelGroup(root);
  const envelope = new common.ConfigEnvelope();
  envelope.setConfig(config);
  const header = new common.ChannelHeader();
  header.setType(type);
  header.setChannelId("mychannel");
  const payloadHeader = new common.Header();
  payloadHeader.setChannelHeader(header.serializeBinary());
  const payload = new common.Payload();
  payload.setHeader(payloadHeader);
  payload.setData(envelope.serializeBinary());
  const env = new common.Envelope();
  env.setPayload(payload.serializeBinary());
  return blockOf(number, [env.serializeBinary()], signatures(number));
}

function signatures(lastConfig: number): Uint8Array {
  const last = new common.LastConfig();
  last.setIndex(lastConfig);
  const obm = new common.OrdererBlockMetadata();
  obm.setLastConfig(last);
  const metadata = new common.Metadata();
  metadata.setValue(obm.serializeBinary());
  return metadata.serializeBinary();
}

function blockOf(
  number: number,
  data: Uint8Array[],
  signatureEntry: Uint8Array,
  lastConfigEntry?: Uint8Array,
): Uint8Array {
  const block = new common.Block();
  const header = new common.BlockHeader();
  header.setNumber(number);
  block.setHeader(header);
  const blockData = new common.BlockData();
  blockData.setDataList(data);
  block.setData(blockData);
  const metadata = new common.BlockMetadata();
  metadata.setMetadataList([
    signatureEntry,
    lastConfigEntry ?? new Uint8Array(0),
    new Uint8Array(data.length),
    new Uint8Array(0),
  ]);
  block.setMetadata(metadata);
  return block.serializeBinary();
}

describe("channel capabilities from a configuration block", () => {
  it("decodes the Channel, Application and Orderer groups' capabilities of an official-protos block", () => {
    const caps = capabilitiesOfConfigBlock("mychannel", codecs.Block.decode(configBlock(7, ["V3_0"])));
    assert.deepEqual(caps, {
      channel: "mychannel",
      channelGroup: ["V3_0"],
      application: ["V2_5"],
      orderer: ["V2_0"],
      configBlock: 7n,
      level: "V3_0",
    });
    assert.equal(
      describeChannelCapabilities(caps),
      "Channel V3_0, Application V2_5, Orderer V2_0 (configuration block 7)",
    );
    const old = capabilitiesOfConfigBlock("mychannel", codecs.Block.decode(configBlock(0, ["V1_4_3", "V2_0"])));
    assert.deepEqual([old.channelGroup, old.level], [["V1_4_3", "V2_0"], "V2_0"]);
  });

  it("finds the last configuration block's number in SIGNATURES, else in the deprecated LAST_CONFIG entry", () => {
    assert.equal(lastConfigIndexOf(codecs.Block.decode(blockOf(12, [], signatures(9)))), 9n);
    const legacy = new common.LastConfig();
    legacy.setIndex(4);
    const legacyEntry = new common.Metadata();
    legacyEntry.setValue(legacy.serializeBinary());
    const pre141 = blockOf(5, [], new common.Metadata().serializeBinary(), legacyEntry.serializeBinary());
    assert.equal(lastConfigIndexOf(codecs.Block.decode(pre141)), 4n);
    assert.throws(() => lastConfigIndexOf(codecs.Block.decode(blockOf(3, [], new Uint8Array(0)))), {
      name: "LedgerError",
      message: "block 3 records no last configuration block in its metadata",
    });
  });

  it("refuses a block named as the last configuration block that holds no CONFIG transaction", () => {
    const block = codecs.Block.decode(configBlock(2, ["V3_0"], common.HeaderType.ENDORSER_TRANSACTION));
    assert.throws(
      () => capabilitiesOfConfigBlock("mychannel", block),
      (e: unknown) =>
        e instanceof LedgerError &&
        e.message === "block 2, named as channel 'mychannel''s last configuration block, holds no CONFIG transaction",
    );
  });
});
