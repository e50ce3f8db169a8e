export * from "./inventory-source-group-deletion";
export * from "./get-creative";
