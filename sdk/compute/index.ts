export * from "./firewall-policy-move";
