import type { PropertyDeclaration } from 'lit';

/**
 * Lit's declarations for the properties most elements have, by name, so that a `static properties`
 * block says which names are which rather than repeating the same option on every line.
 */

/** Internal reactive state: a change draws the element again; never an attribute (`{ state: true }`). */
export function states<const Name extends string>(...names: Name[]): Record<Name, PropertyDeclaration> {
  return declare(names, { state: true });
}

/** Properties a parent binds (`.name=${…}`): objects, lists and functions, never read from an attribute. */
export function bound<const Name extends string>(...names: Name[]): Record<Name, PropertyDeclaration> {
  return declare(names, { attribute: false });
}

function declare<Name extends string>(
  names: Name[],
  declaration: PropertyDeclaration,
): Record<Name, PropertyDeclaration> {
  return Object.fromEntries(names.map((name) => [name, declaration])) as Record<Name, PropertyDeclaration>;
}
