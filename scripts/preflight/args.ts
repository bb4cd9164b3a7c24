/** `-c key=value` (and `--context key=value`, `--context=key=value`) as `cdk deploy` takes them. */
export function parseContextArgs(argv: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let pair: string | undefined;
    if (arg === '-c' || arg === '--context') pair = argv[++i];
    else if (arg.startsWith('--context=')) pair = arg.slice('--context='.length);
    else throw new Error(`unknown argument "${arg}": use -c key=value (as for cdk deploy)`);
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq < 1) throw new Error(`${arg} needs key=value, not "${pair ?? ''}"`);
    context[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return context;
}
