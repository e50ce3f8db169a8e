import { GatewayError, type GatewayErrorProperties } from "./gateway-error";

/**
 * The ChaincodeEvents stream failed: the gateway refused the request (PERMISSION_DENIED, NOT_FOUND, INVALID_ARGUMENT)
 * or the stream broke off (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED). Thrown by the events' iterator, like the
 * official client's GatewayError, with the channel and chaincode the events were asked for.
 */
export class ChaincodeEventsError extends GatewayError {
  static override readonly kind: string = "ChaincodeEventsError";
  readonly channelId: string;
  readonly chaincodeName: string;

  constructor(properties: Readonly<GatewayErrorProperties & { channelId: string; chaincodeName: string }>) {
    super(properties);
    this.channelId = properties.channelId;
    this.chaincodeName = properties.chaincodeName;
  }
}
