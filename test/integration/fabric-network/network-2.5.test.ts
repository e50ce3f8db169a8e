import { describeNetworkSmoke } from "./network-smoke";

describeNetworkSmoke("2.5.16");
