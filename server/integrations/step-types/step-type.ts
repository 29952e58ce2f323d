// The step type contract as the rest of the server imports it; written in ../step-contract/, below the registry
// here and the presets and built-in kinds it gathers.
export * from '../step-contract/step-type.ts';
