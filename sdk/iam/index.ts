export * from "./get-workforce-pool-iam-policy";
export * from "./get-operation";
