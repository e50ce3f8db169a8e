/** The registry: each resource and function of the package declared once (docs/architecture.md, "The registry"). */
export { RESOURCES, RESOURCE_LIST, importRefusalMessage, resourceOfType } from "./resources";
export { FUNCTIONS, FUNCTION_LIST, functionOfToken } from "./functions";
export type {
  Adopted,
  Caller,
  FunctionDescriptor,
  ImportRefusal,
  ResourceDescriptor,
  ResourceImplementation,
  ResourceModule,
  Step,
  TypescriptComponent,
} from "./descriptors";
