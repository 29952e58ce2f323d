// The path a customer's own step module imports (docs/integrations.md, demo/steps/): kept stable at the package's
// edge, while the contract itself lives in step-contract/, below both the registry and the presets that use it.
export * from './step-contract/define-step-type.ts';
