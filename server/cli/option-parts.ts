/** An argument's option name and its inline value: `--name=value` → ['--name', 'value']; anything else stands whole. */
export function optionParts(arg: string): readonly [name: string, inline: string | undefined] {
  return arg.startsWith('--') && arg.includes('=')
    ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
    : [arg, undefined];
}
