export * from "./get-deployment";
