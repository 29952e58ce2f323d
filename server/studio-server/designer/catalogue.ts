/** An integration step type as the designer's palette and forms read it. */
export interface StepTypeEntry {
  readonly name: string;
  readonly description: string;
  readonly level: string;
  /** Shipped with the product, a preset, or the bot's own `stepTypes` module. */
  readonly source: 'builtIn' | 'preset' | 'own';
  /** The parameters' JSON Schema, as the step type declares it (the form is made from it). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Named mappings a step may pick with `mapping: "@name"`. */
  readonly mappings: readonly string[];
  readonly defaultTiming: string;
  readonly needsService?: 'always' | 'optional';
}

/** What the designer needs to draw forms and the palette: the editor schema and every step type with where it comes from. */
export interface DesignerCatalogue {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly stepTypes: readonly StepTypeEntry[];
}

/** The fields of a step type the catalogue shows (the integration layer's StepType has these and more). */
export interface DescribedStepType {
  readonly name: string;
  readonly description: string;
  readonly level: string;
  readonly paramsSchema: Readonly<Record<string, unknown>>;
  readonly mappings?: Readonly<Record<string, string>>;
  readonly defaultTiming: string;
  readonly needsService?: 'always' | 'optional';
}

/** The catalogue from the editor schema's text and the step types by where they come from. */
export function designerCatalogue(
  schemaText: string,
  types: {
    readonly builtIn: readonly DescribedStepType[];
    readonly presets: readonly DescribedStepType[];
    readonly own: readonly DescribedStepType[];
  },
): DesignerCatalogue {
  const entry =
    (source: StepTypeEntry['source']) =>
    (type: DescribedStepType): StepTypeEntry => ({
      name: type.name,
      description: type.description,
      level: type.level,
      source,
      params: type.paramsSchema,
      mappings: Object.keys(type.mappings ?? {}),
      defaultTiming: type.defaultTiming,
      ...(type.needsService === undefined ? {} : { needsService: type.needsService }),
    });
  return {
    schema: JSON.parse(schemaText) as Record<string, unknown>,
    stepTypes: [
      ...types.builtIn.map(entry('builtIn')),
      ...types.presets.map(entry('preset')),
      ...types.own.map(entry('own')),
    ],
  };
}
