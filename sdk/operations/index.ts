export * from "./operation-wait";
