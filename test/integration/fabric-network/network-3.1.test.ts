import { describeNetworkSmoke } from "./network-smoke";

describeNetworkSmoke("3.1.5");
